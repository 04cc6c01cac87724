#!/usr/bin/env bash
# Nodes and time to the bench depth with each search technique switched off, one at a time (one
# thread, 16 MB, the bench positions), as a Markdown table for docs/search.md.
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
echo "| technique | default | nodes with it flipped | vs default | time (ms) |"
echo "|---|---|---:|---:|---:|"
echo "| (defaults) | | $base_nodes | 1.00 | $base_ms |"
for entry in "${switches[@]}"; do
  read -r name default <<<"$entry"
  flipped=false; [[ "$default" == false ]] && flipped=true
  read -r nodes ms < <(run "$name=$flipped")
  ratio=$(awk -v a="$nodes" -v b="$base_nodes" 'BEGIN { printf "%.2f", a / b }')
  echo "| $name | $default | $nodes | $ratio | $ms |"
done
