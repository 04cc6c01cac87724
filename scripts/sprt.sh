#!/usr/bin/env bash
# A sequential probability ratio test of a change: engine 1 (new) against engine 2 (base), until
# fastchess accepts H1 (the change gains at least elo1 normalised Elo) or H0 (at most elo0), with
# alpha = beta = 0.05. Same arguments as match.sh; -games is the cap.
#
#   scripts/sprt.sh -1 build-new/engine/outpost -2 build-base/engine/outpost -tc 8+0.08 \
#       -book /work/tools/books/UHO_4060_v2.epd [-bounds "0 5"] [-games 20000]
#
# For a switch, one binary twice: -1 build/engine/outpost -2 build/engine/outpost -o2 "see=false".
set -euo pipefail
bounds="0 5"
rest=()
games=20000
while [[ $# -gt 0 ]]; do
  case "$1" in
    -bounds) bounds=$2; shift 2 ;;
    -games) games=$2; shift 2 ;;
    *) rest+=("$1"); shift ;;
  esac
done
exec "$(dirname "$0")/match.sh" "${rest[@]}" -games "$games" -sprt "$bounds"
