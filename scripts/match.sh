#!/usr/bin/env bash
# A match between two UCI engines under fastchess, one thread and 16 MB hash each by default.
#
#   scripts/match.sh -1 "build/engine/outpost" -2 "gnuchess --uci" -tc 10+0.1 -games 200 \
#       -book /work/tools/books/UHO_4060_v2.epd [-o1 "nullMove=false Level=3"] [-o2 "..."] \
#       [-n1 name] [-n2 name] [-c concurrency] [-pgn file.pgn] [-sprt "elo0 elo1"] \
#       [-nodes N] [-srand SEED] [-adjudicate] [-l1 LIMIT] [-l2 LIMIT]
#
# An engine is "COMMAND [ARGS...]"; options are NAME=VALUE words given to it as UCI options
# (names without spaces). The book is .epd or .pgn; games are played in pairs with colours swapped.
# -nodes N plays every move with a node limit instead of a clock (-tc is then ignored): the result
# does not depend on how busy the machine is. -srand picks the opening order (default 20261123; give
# a new seed to extend a match with fresh openings). -adjudicate ends games early: a resign when both
# engines agree one side is 600 cp down for 3 moves each, a draw after move 40 when both report
# |score| <= 10 cp for 8 moves each (for self-play, where both engines' scores can be trusted).
# -l1/-l2 give one engine its own limit in fastchess's words, in place of -tc/-nodes: "tc=1.25+0.0125"
# for time odds, "st=0.05" for a fixed time per move (the server's level times; give -margin 100 with
# it: the milliseconds a move may run over before it loses on time, 0 by default).
# FASTCHESS names the runner (default /work/tools/fastchess/fastchess; build it outside the
# repository). The summary (Elo with its error bar, pentanomial counts) is fastchess's own output.
set -euo pipefail

FASTCHESS=${FASTCHESS:-/work/tools/fastchess/fastchess}
engine1="" engine2="" name1="" name2="" opts1="" opts2=""
tc="10+0.1" games=200 book="" concurrency=1 pgn="" sprt="" hash=16 threads=1
nodes="" srand=20261123 adjudicate=0 limit1="" limit2="" margin=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    -1) engine1=$2; shift 2 ;;
    -2) engine2=$2; shift 2 ;;
    -n1) name1=$2; shift 2 ;;
    -n2) name2=$2; shift 2 ;;
    -o1) opts1=$2; shift 2 ;;
    -o2) opts2=$2; shift 2 ;;
    -tc) tc=$2; shift 2 ;;
    -games) games=$2; shift 2 ;;
    -book) book=$2; shift 2 ;;
    -c) concurrency=$2; shift 2 ;;
    -pgn) pgn=$2; shift 2 ;;
    -sprt) sprt=$2; shift 2 ;;
    -hash) hash=$2; shift 2 ;;
    -nodes) nodes=$2; shift 2 ;;
    -srand) srand=$2; shift 2 ;;
    -adjudicate) adjudicate=1; shift ;;
    -l1) limit1=$2; shift 2 ;;
    -l2) limit2=$2; shift 2 ;;
    -margin) margin=$2; shift 2 ;;
    *) echo "match.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[[ -n "$engine1" && -n "$engine2" ]] || { echo "match.sh: -1 and -2 are required" >&2; exit 2; }
[[ -x "$FASTCHESS" ]] || { echo "match.sh: fastchess not found at $FASTCHESS" >&2; exit 2; }

# engine_args SPEC NAME OPTIONS LIMIT -> fastchess -engine arguments
engine_args() {
  local spec=$1 name=$2 options=$3 limit=$4
  read -r -a words <<<"$spec"
  local cmd=${words[0]}
  [[ "$cmd" == */* ]] && cmd=$(realpath "$cmd")
  local out=(-engine "cmd=$cmd" "name=${name:-$(basename "${words[0]}")}")
  if [[ ${#words[@]} -gt 1 ]]; then out+=("args=${words[*]:1}"); fi
  for option in $options; do out+=("option.$option"); done
  out+=("$limit")
  printf '%s\0' "${out[@]}"
}

limit="tc=$tc"
[[ -n "$nodes" ]] && limit="nodes=$nodes"
args=()
while IFS= read -r -d '' word; do args+=("$word"); done < <(engine_args "$engine1" "$name1" "$opts1" "${limit1:-$limit}")
while IFS= read -r -d '' word; do args+=("$word"); done < <(engine_args "$engine2" "$name2" "$opts2" "${limit2:-$limit}")
# Engines that do not know Hash/Threads (fairymax through polyglot, gnuchess) ignore them.
args+=(-each "option.Hash=$hash" "option.Threads=$threads" "timemargin=$margin")
args+=(-rounds $(((games + 1) / 2)) -repeat -concurrency "$concurrency" -recover)
if [[ -n "$book" ]]; then
  format=epd; [[ "$book" == *.pgn ]] && format=pgn
  args+=(-openings "file=$book" "format=$format" order=random -srand "$srand")
fi
[[ -n "$pgn" ]] && args+=(-pgnout "file=$pgn")
if [[ -n "$sprt" ]]; then
  read -r elo0 elo1 <<<"$sprt"
  args+=(-sprt "elo0=$elo0" "elo1=$elo1" alpha=0.05 beta=0.05 model=normalized)
fi
if [[ $adjudicate -eq 1 ]]; then
  args+=(-resign movecount=3 score=600 twosided=true -draw movenumber=40 movecount=8 score=10)
fi
args+=(-ratinginterval 20)
echo "+ $FASTCHESS ${args[*]}" >&2
exec "$FASTCHESS" "${args[@]}"
