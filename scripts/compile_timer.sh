#!/usr/bin/env bash
# A compiler/linker launcher that records the CPU and wall seconds of every compile and link, to
# find the slowest translation units (docs/building.md). Not used by the normal build; use it as
#   cmake -S . -B build-timed -DCMAKE_CXX_COMPILER_LAUNCHER="$PWD/scripts/compile_timer.sh" \
#         -DCMAKE_CXX_LINKER_LAUNCHER="$PWD/scripts/compile_timer.sh"
#   OUTPOST_COMPILE_TIMES=/tmp/times.txt cmake --build build-timed -j2
#   sort -k1,1nr /tmp/times.txt | head    (user+sys seconds, wall seconds, output file)
# Each line of OUTPOST_COMPILE_TIMES: "<user+sys> <wall> <output>". Without the variable the
# command just runs. It replaces ccache as the launcher, so nothing comes from a cache.
set -euo pipefail
log="${OUTPOST_COMPILE_TIMES:-}"
if [ -z "$log" ]; then exec "$@"; fi
out="" prev=""
for arg in "$@"; do
    if [ "$prev" = -o ]; then out="$arg"; fi
    prev="$arg"
done
tmp="$(mktemp)"
status=0
/usr/bin/time -o "$tmp" -f "%U %S %e" "$@" || status=$?
# (On failure time(1) writes a status line first; the figures are on the last line.)
tail -n 1 "$tmp" | awk -v out="$out" '{ printf "%.2f %.2f %s\n", $1 + $2, $3, out }' >>"$log"
rm -f "$tmp"
exit "$status"
