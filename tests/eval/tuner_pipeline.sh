#!/bin/sh
# The tuning pipeline end to end on a tiny sample: self-play data from outpost-datagen, then a few
# epochs of outpost-tuner on it. Checks that every generated line is read back, that the fit
# lowers the training error, and that the rewritten weight table keeps the source file's shape.
#   tuner_pipeline.sh DATAGEN TUNER WEIGHT_VALUES_H
set -eu
datagen=$1 tuner=$2 source_table=$3
"$datagen" --games 6 --nodes 300 --random-plies 8 --concurrency 1 --seed 7 --out pipeline.epd
lines=$(wc -l < pipeline.epd)
[ "$lines" -gt 50 ] || { echo "datagen wrote only $lines positions"; exit 1; }
"$tuner" --epochs 20 --lr 1 --reg 0.0001 --out pipeline_weights.h pipeline.epd > tuner.out 2>&1
cat tuner.out
grep -q "(0 lines skipped)" tuner.out || { echo "the tuner skipped lines of datagen's output"; exit 1; }
start=$(sed -n 's/.*starting error \([0-9.e-]*\).*/\1/p' tuner.out)
final=$(sed -n 's/^epoch [0-9]* error \([0-9.e-]*\).*/\1/p' tuner.out | tail -n 1)
[ -n "$start" ] && [ -n "$final" ] || { echo "no error figures in the tuner's output"; exit 1; }
awk -v s="$start" -v f="$final" 'BEGIN { exit !(f < s) }' ||
  { echo "training error did not fall: $start -> $final"; exit 1; }
[ "$(wc -l < pipeline_weights.h)" -eq "$(wc -l < "$source_table")" ] ||
  { echo "the written table has a different shape from $source_table"; exit 1; }
! cmp -s pipeline_weights.h "$source_table" || { echo "the fit changed no weight"; exit 1; }
echo "pipeline ok: $lines positions, error $start -> $final"
