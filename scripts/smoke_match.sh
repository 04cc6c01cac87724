#!/usr/bin/env bash
# CI smoke match: a short self-play match under the repository's own referee (no tournament runner
# needed). Fails on any illegal move, crash or time forfeit.
#
#   scripts/smoke_match.sh [path/to/outpost] [games] [base+increment seconds]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/engine/outpost}
games=${2:-10}
tc=${3:-2+0.05}
[[ -x "$bin" ]] || { echo "smoke_match.sh: no engine at $bin (build first)" >&2; exit 2; }
# A 200 ms margin: a loaded machine can stall a process that long; a real time-management bug
# oversteps by far more.
exec python3 "$root/scripts/referee.py" --engine1 "$bin" --games "$games" --tc "$tc" --margin-ms 200
