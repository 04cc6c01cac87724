#!/usr/bin/env bash
# Resumable background self-play for the network's training data.
#
#   nice -n 19 tools/nnue/datagen_loop.sh DATAGEN OUT_FILE [CONCURRENCY] [NODES] [DATAGEN FLAGS...]
#
# Runs outpost-datagen in chunks of 200 games, each chunk with a fresh seed (the time and the
# chunk number), appending to OUT_FILE (keep it outside the repository: data stays out of git).
# Each chunk's seed is logged in DIR/datagen.log before it starts ("chunk N seed S"): a chunk is
# reproducible from its seed (outpost-datagen --seed S --games 200 gives the same games).
# Stopping it loses at most the games in flight (and, with several workers, finished games that
# wait for an earlier one: games are written in order); starting it again continues the same file.
# A copy of DATAGEN is taken first, so rebuilding the tree does not change the program mid-run.
set -euo pipefail
datagen=$1 out=$2 concurrency=${3:-2} nodes=${4:-5000}
shift $(( $# < 4 ? $# : 4 ))
extra=("$@")  # e.g. --network: the games are played with the network evaluation
dir=$(dirname "$out")
mkdir -p "$dir"
copy="$dir/outpost-datagen.$$"
cp "$datagen" "$copy"
trap 'rm -f "$copy"' EXIT
chunk=0
while true; do
    seed=$(( $(date +%s) % 1000000 * 100 + chunk % 100 ))
    echo "$(date -Is) chunk $((chunk + 1)) seed $seed: $(basename "$datagen") $nodes nodes," \
        "concurrency $concurrency ${extra[*]}" >>"$dir/datagen.log"
    "$copy" --games 200 --nodes "$nodes" --random-plies 8 --max-score 3000 \
        --concurrency "$concurrency" --seed "$seed" --out "$out" "${extra[@]}" 2>>"$dir/datagen.log"
    chunk=$((chunk + 1))
    if [[ " ${extra[*]} " == *" --binary "* ]]; then size="$(wc -c <"$out") bytes of game records"
    else size="$(wc -l <"$out") positions"; fi
    echo "$(date -Is) chunk $chunk done, $size in $out" >>"$dir/datagen.log"
done
