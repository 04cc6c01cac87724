#!/usr/bin/env bash
# Nodes and time to the bench depth with each search technique switched off, one at a time (one
# thread, 16 MB, the bench positions), as a Markdown table for docs/search-measurements.md. Times
# are wall-clock and given as a ratio to the default run; the default runs once more at the end, so
# the last row shows how much two identical runs differ on this machine right now.
#
#   scripts/bench_techniques.sh [path/to/outpost] [depth]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/engine/outpost}
depth=${2:-}

# The switches are the check options the engine announces, minus the non-technique ones.
mapfile -t switches < <(echo uci | "$bin" | sed -n 's/^option name \([A-Za-z]*\) type check default \(true\|false\)$/\1 \2/p' |
  grep -v -e '^Ponder ')

run() {  # run ARGS... -> "nodes time_ms"
  local out
  out=$("$bin" bench $depth "$@")
  echo "$(sed -n 's/^Nodes searched *: *//p' <<<"$out") $(sed -n 's/^Total time (ms) *: *//p' <<<"$out")"
}

read -r base_nodes base_ms < <(run)
echo "| technique | default | nodes with it flipped | nodes vs default | time (ms) | time vs default |"
echo "|---|---|---:|---:|---:|---:|"
echo "| (defaults) | | $base_nodes | 1.00 | $base_ms | 1.00 |"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
for entry in "${switches[@]}"; do
  read -r name default <<<"$entry"
  flipped=false; [[ "$default" == false ]] && flipped=true
  read -r nodes ms < <(run "$name=$flipped")
  echo "| $name | $default | $nodes | $(ratio "$nodes" "$base_nodes") | $ms | $(ratio "$ms" "$base_ms") |"
done
read -r nodes ms < <(run)
echo "| (defaults, again) | | $nodes | $(ratio "$nodes" "$base_nodes") | $ms | $(ratio "$ms" "$base_ms") |"
