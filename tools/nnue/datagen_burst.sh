#!/usr/bin/env bash
# Self-play for the network's training data on every core for a fixed time (a borrowed machine).
#
#   tools/nnue/datagen_burst.sh DATAGEN OUT_DIR SECONDS SEED_BASE [NODES] [DATAGEN FLAGS...]
#
# Starts one outpost-datagen per core (seeds SEED_BASE+1 .. SEED_BASE+cores, each writing
# OUT_DIR/partN.txt), stops them all after SECONDS and prints the positions written. A process
# stopped mid-game loses only that game (positions are written a game at a time; the trainer
# skips a line cut short). OUT_DIR must hold no part files: a run never appends to an earlier
# run's (their positions would be counted and concatenated twice). Give each run a new SEED_BASE
# (docs/nnue.md lists the ones used), or the games repeat; the seeds are logged in
# OUT_DIR/datagen.log.
set -euo pipefail
if [[ $# -lt 4 ]]; then
    sed -n '2,12p' "$0" >&2
    exit 2
fi
datagen=$1 out=$2 seconds=$3 base=$4 nodes=${5:-5000}
shift $(( $# < 5 ? $# : 5 ))
extra=("$@")  # e.g. --network
mkdir -p "$out"
if compgen -G "$out/part*.txt" >/dev/null; then
    echo "$out already holds part files (an earlier run's): give a new OUT_DIR" >&2
    exit 2
fi
cores=$(nproc)
echo "$(date -Is) burst: seeds $((base + 1))..$((base + cores)), $seconds s, $nodes nodes," \
    "${extra[*]}" >>"$out/datagen.log"
for i in $(seq 1 "$cores"); do
    timeout "$seconds" "$datagen" --games 1000000 --nodes "$nodes" --random-plies 8 \
        --max-score 3000 --seed $((base + i)) --out "$out/part$i.txt" "${extra[@]}" \
        2>>"$out/datagen.log" &
done
wait || true
cat "$out"/part*.txt | wc -l | xargs echo "positions in $out:"
