#!/usr/bin/env bash
# Finds where outpost's perft disagrees with Stockfish's: compares the `go perft` divides, then
# follows the first root move whose count differs one ply deeper, until depth 1 shows the missing
# or extra move. Usage: scripts/perft_divide_diff.sh DEPTH "FEN" [moves...]
set -euo pipefail
OUTPOST=${OUTPOST:-build/engine/outpost}
STOCKFISH=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
depth=$1; fen=$2; shift 2; moves="$*"
divide() {
    printf 'position fen %s moves %s\ngo perft %s\nquit\n' "$fen" "$moves" "$depth" | "$1" 2>/dev/null |
        grep -E '^[a-h][1-8][a-h][1-8][qrbn]?: ' | sort
}
while :; do
    echo "== depth $depth after moves: ${moves:-(none)}"
    if diff <(divide "$OUTPOST") <(divide "$STOCKFISH"); then
        echo "same divide"; exit 0
    fi
    [[ $depth -gt 1 ]] || exit 1
    culprit=$(diff <(divide "$OUTPOST") <(divide "$STOCKFISH") | grep -E '^[<>] ' | head -1 | cut -c3- | cut -d: -f1)
    moves="$moves $culprit"; depth=$((depth - 1))
done
