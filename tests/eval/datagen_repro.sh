#!/bin/sh
# outpost-datagen is reproducible (docs/nnue.md): the same seed writes the same file with one
# worker or two (game i's opening depends only on the seed and i, and games are written in order),
# and another seed writes other games.
#   datagen_repro.sh DATAGEN
set -eu
datagen=$1
rm -f repro_c1.txt repro_c2.txt repro_s2.txt
run() { "$datagen" --games 6 --nodes 300 --random-plies 8 --max-score 3000 "$@" 2>/dev/null; }
run --concurrency 1 --seed 11 --out repro_c1.txt
run --concurrency 2 --seed 11 --out repro_c2.txt
run --concurrency 2 --seed 12 --out repro_s2.txt
lines=$(wc -l < repro_c1.txt)
[ "$lines" -gt 50 ] || { echo "datagen wrote only $lines positions"; exit 1; }
cmp repro_c1.txt repro_c2.txt ||
  { echo "seed 11 gave different games with concurrency 1 and 2"; exit 1; }
if cmp -s repro_c1.txt repro_s2.txt; then echo "seeds 11 and 12 gave the same games"; exit 1; fi
echo "datagen reproducible: $lines positions, the same with 1 and 2 workers"
