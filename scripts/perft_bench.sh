#!/usr/bin/env bash
# Full-depth perft benchmark.
#   1. Runs the standard suite at its full depths with `outpost perft` and checks every count.
#   2. Measures perft speed side by side with Stockfish (`go perft`, Debian's stockfish 15.1):
#      start position d6 and Kiwipete d5, each engine RUNS times, alternating; the best time of
#      each counts. Process start-up (Stockfish loads its network) is measured with a depth-1
#      run and subtracted. Times are CPU seconds (user+sys) of the process, so other load on a
#      shared machine disturbs the ratio less than wall-clock time would.
# Usage: scripts/perft_bench.sh [--speed-only]   (env: OUTPOST, STOCKFISH, RUNS)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUTPOST=${OUTPOST:-build/engine/outpost}
STOCKFISH=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
RUNS=${RUNS:-3}
[[ -x $OUTPOST ]] || { echo "build outpost first ($OUTPOST)"; exit 1; }

START="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWI="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
SUITE=(
  "start;6;119060324;$START"
  "kiwipete;5;193690690;$KIWI"
  "pos3;7;178633661;8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
  "pos4;6;706045033;r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
  "pos5;5;89941194;rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
  "pos6;5;164075551;r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
)

# cpu_run CMD... : runs CMD with stdin from $INPUT, prints "cpu_seconds nodes" (bash's own
# `time`, so no extra package is needed).
cpu_run() {
    local tmp timing nodes cpu
    tmp=$(mktemp)
    timing=$( { TIMEFORMAT='TIME %U %S'; time "$@" <<<"$INPUT" >"$tmp" 2>/dev/null; } 2>&1 )
    nodes=$(grep -o 'Nodes searched: [0-9]*' "$tmp" | awk '{print $3}')
    rm -f "$tmp"
    cpu=$(awk '/^TIME/ {printf "%.4f", $2 + $3}' <<<"$timing")
    echo "$cpu ${nodes:-0}"
}
outpost_run() { INPUT=$(printf 'position fen %s\ngo perft %s\nquit\n' "$1" "$2") cpu_run "$OUTPOST"; }
stockfish_run() { INPUT=$(printf 'position fen %s\ngo perft %s\nquit\n' "$1" "$2") cpu_run "$STOCKFISH"; }

fail=0
if [[ ${1:-} != --speed-only ]]; then
    echo "== Full-depth perft (outpost)"
    printf '%-10s %5s %12s %12s %8s %10s\n' position depth nodes expected cpu_s Mnps
    for entry in "${SUITE[@]}"; do
        IFS=';' read -r name depth expected fen <<<"$entry"
        read -r cpu nodes < <(outpost_run "$fen" "$depth")
        status=ok; [[ $nodes == "$expected" ]] || { status=WRONG; fail=1; }
        printf '%-10s %5s %12s %12s %8s %10.1f %s\n' "$name" "$depth" "$nodes" "$expected" "$cpu" \
            "$(awk -v n="$nodes" -v t="$cpu" 'BEGIN {print (t > 0 ? n / t / 1e6 : 0)}')" "$status"
    done
fi

echo "== Speed against $("$STOCKFISH" <<<quit | head -1 | cut -d" " -f1-2) (best of $RUNS, CPU seconds, start-up subtracted)"
best() { sort -n | head -1; }
o_base=$(for _ in $(seq "$RUNS"); do outpost_run "$START" 1 | cut -d' ' -f1; done | best)
s_base=$(for _ in $(seq "$RUNS"); do stockfish_run "$START" 1 | cut -d' ' -f1; done | best)
printf '%-10s %5s %12s %12s %12s %8s\n' position depth nodes outpost_Mnps stockfish_Mnps ratio
for entry in "${SUITE[@]:0:2}"; do
    IFS=';' read -r name depth expected fen <<<"$entry"
    o_times=(); s_times=()
    for _ in $(seq "$RUNS"); do
        read -r t n < <(outpost_run "$fen" "$depth"); o_times+=("$t"); [[ $n == "$expected" ]] || fail=1
        read -r t n < <(stockfish_run "$fen" "$depth"); s_times+=("$t"); [[ $n == "$expected" ]] || fail=1
    done
    o=$(printf '%s\n' "${o_times[@]}" | best); s=$(printf '%s\n' "${s_times[@]}" | best)
    awk -v name="$name" -v d="$depth" -v n="$expected" -v o="$o" -v s="$s" -v ob="$o_base" -v sb="$s_base" 'BEGIN {
        ot = o - ob; st = s - sb; if (ot <= 0) ot = 0.0001; if (st <= 0) st = 0.0001;
        printf "%-10s %5s %12s %12.1f %14.1f %8.2f\n", name, d, n, n / ot / 1e6, n / st / 1e6, st / ot }'
done
exit "$fail"
