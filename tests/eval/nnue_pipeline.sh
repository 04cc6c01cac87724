#!/bin/sh
# The network's training pipeline end to end on a tiny sample (docs/nnue.md): self-play data from
# outpost-datagen, a few epochs of outpost-nnue-train, and the exported file read back by the
# engine's own loader and integer inference. Checks that every generated line is read, that the
# training error falls, that the engine accepts the net, and that K (--wdl-scale auto) is fitted
# where it should be: on positions whose results follow sigmoid(score / 200), it comes out ~200.
#   nnue_pipeline.sh DATAGEN TRAINER
set -eu
datagen=$1 trainer=$2
rm -f nnue_pipeline.txt nnue_pipeline.nnue
"$datagen" --games 6 --nodes 300 --random-plies 8 --max-score 3000 --concurrency 1 --seed 7 \
    --out nnue_pipeline.txt 2>/dev/null
lines=$(wc -l < nnue_pipeline.txt)
[ "$lines" -gt 50 ] || { echo "datagen wrote only $lines positions"; exit 1; }
"$trainer" --epochs 8 --batch 64 --lr 0.002 --threads 2 --holdout 0.2 --out nnue_pipeline.nnue \
    nnue_pipeline.txt > trainer.out 2>&1
cat trainer.out
grep -q "(0 lines skipped)" trainer.out || { echo "the trainer skipped lines of datagen's output"; exit 1; }
first=$(sed -n 's/^epoch 1 train error \([0-9.e-]*\).*/\1/p' trainer.out)
last=$(sed -n 's/^epoch 8 train error \([0-9.e-]*\).*/\1/p' trainer.out)
[ -n "$first" ] && [ -n "$last" ] || { echo "no error figures in the trainer's output"; exit 1; }
awk -v s="$first" -v f="$last" 'BEGIN { exit !(f < s) }' ||
  { echo "training error did not fall: $first -> $last"; exit 1; }
grep -q "^held-out error as the engine sees it: network [0-9]" trainer.out ||
  { echo "the engine did not load the exported net"; exit 1; }
"$trainer" --verify nnue_pipeline.nnue --holdout 0.2 nnue_pipeline.txt > verify.out 2>&1
cat verify.out
grep -q "^held-out error as the engine sees it" verify.out || { echo "--verify failed"; exit 1; }
# --init starts from a trained net: its weights come back exactly (a rate too small to move any
# weight by a quantisation step gives the same file), and a wrong path fails before any reading.
"$trainer" --init nnue_pipeline.nnue --epochs 1 --batch 64 --lr 1e-12 --lr-end 1e-12 \
    --holdout 0.2 --out nnue_init.nnue nnue_pipeline.txt > init.out 2>&1
grep -q "^starting from nnue_pipeline.nnue" init.out || { cat init.out; echo "--init not used"; exit 1; }
cmp -s nnue_init.nnue nnue_pipeline.nnue || { echo "--init did not start from the net's weights"; exit 1; }
if "$trainer" --init no-such.nnue --out nnue_init.nnue nnue_pipeline.txt > init.out 2>&1; then
  echo "--init accepted a missing file"; exit 1
fi
grep -q "cannot start from no-such.nnue" init.out || { cat init.out; exit 1; }
grep -q "^K (--wdl-scale) fitted to the results: [0-9.]* cp" trainer.out ||
  { echo "the trainer did not fit K"; exit 1; }

# K's fit: 20 games per score from -600 to +600, wins in proportion to sigmoid(score / 200).
awk 'BEGIN {
  fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
  for (s = -600; s <= 600; s += 50) {
    wins = int(20 / (1 + exp(s / 200)) + 0.5)   # the side to move is Black: White scores -s
    for (i = 0; i < 20; i++) printf "%s [%s] %d\n", fen, (i < wins ? "1.0" : "0.0"), -s
  }
}' > nnue_kfit.txt
"$trainer" --epochs 1 --batch 64 --holdout 0.1 --out nnue_kfit.nnue nnue_kfit.txt > kfit.out 2>&1
k=$(sed -n 's/^K (--wdl-scale) fitted to the results: \([0-9.]*\) cp/\1/p' kfit.out)
awk -v k="$k" 'BEGIN { exit !(k > 185 && k < 215) }' ||
  { cat kfit.out; echo "K fitted as '$k' on data made with K = 200"; exit 1; }
echo "K fit ok: $k on data made with 200"
echo "pipeline ok: $lines positions, train error $first -> $last"
