#!/bin/sh
# outpost-datagen's game records (--binary, tools/nnue/game_record.h) hold the same training
# positions as its text lines: the same seed written both ways, read back by the trainer, gives
# the same samples in the same order, in a file several times smaller.
#   datagen_binary.sh DATAGEN TRAINER
set -eu
datagen=$1 trainer=$2
rm -f records_text.txt records.bin
run() { "$datagen" --games 4 --nodes 300 --random-plies 8 --max-score 3000 --seed 21 "$@" 2>/dev/null; }
run --out records_text.txt
run --binary --out records.bin
# The first line is the reader's summary (the text format guesses game boundaries); then samples.
"$trainer" --dump --holdout 0 records_text.txt | tail -n +2 > samples_text.txt
"$trainer" --dump --holdout 0 records.bin | tail -n +2 > samples_bin.txt
positions=$(wc -l < samples_text.txt)
[ "$positions" -gt 50 ] || { echo "datagen wrote only $positions positions"; exit 1; }
cmp samples_text.txt samples_bin.txt ||
  { echo "the game records do not replay to the text lines' samples"; exit 1; }
text_bytes=$(wc -c < records_text.txt) bin_bytes=$(wc -c < records.bin)
[ $((bin_bytes * 4)) -lt "$text_bytes" ] ||
  { echo "records take $bin_bytes bytes against $text_bytes for the text"; exit 1; }
echo "$positions positions: $text_bytes bytes as text, $bin_bytes as game records"
