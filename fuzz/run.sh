#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time from its seed corpus (fuzz/corpus_*, and for HTTP
# the examples of api/openapi.yaml via fuzz/openapi_seeds.py), copied to a scratch folder so new inputs never land in the
# repository. Exits non-zero when a target finds a
# failure (its reproducer is left in the scratch folder and named in the output).
#   fuzz/run.sh BUILD_DIR [SECONDS_PER_TARGET] [TARGET...]   (targets: fen http ws pgn)
# OUTPOST_FUZZ_JOBS=N runs N targets at a time (default 1): each libFuzzer run is one process on
# one core, so with N cores each target still gets its whole time. Reports print in target order.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${1:?usage: fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]}"
seconds="${2:-60}"
shift $(($# >= 2 ? 2 : $#))
targets=("$@")
[ "${#targets[@]}" -eq 0 ] && targets=(fen http ws pgn)
jobs="${OUTPOST_FUZZ_JOBS:-1}"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/outpost-fuzz.XXXXXX")"

# Runs one target; its report goes to $scratch/$target.report, its status to $scratch/$target.status.
run_target() {
    local target="$1" program corpus report
    program="$build/fuzz/outpost_${target}_fuzzer"
    corpus="$scratch/$target"
    report="$scratch/$target.report"
    mkdir -p "$corpus"
    cp fuzz/corpus_"$target"/* "$corpus"/
    # The HTTP target also starts from every operation's example in the API document.
    if [ "$target" = http ] && python3 -c 'import yaml' 2>/dev/null; then
        python3 fuzz/openapi_seeds.py api/openapi.yaml "$corpus" >>"$report"
    fi
    echo "--- $target: ${seconds}s from $(ls "$corpus" | wc -l) seeds" >>"$report"
    # Leaks: the scripted server context is torn down per input, so leak checks stay on.
    if ! ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$program" -max_total_time="$seconds" -max_len=4096 -timeout=30 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$scratch/$target-" "$corpus" 2>"$scratch/$target.log"; then
        { echo "--- $target: FAILED"; tail -n 60 "$scratch/$target.log"; } >>"$report"
        echo 1 >"$scratch/$target.status"
    else
        grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' \
            "$scratch/$target.log" >>"$report" || true
        grep -E '^#[0-9]+.*DONE' "$scratch/$target.log" | tail -n 1 >>"$report" || true
        echo 0 >"$scratch/$target.status"
    fi
}

running=0
for target in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
    run_target "$target" &
    running=$((running + 1))
done
wait
status=0
for target in "${targets[@]}"; do
    cat "$scratch/$target.report"
    [ "$(cat "$scratch/$target.status" 2>/dev/null || echo 1)" = 0 ] || status=1
done
[ "$status" -eq 0 ] && rm -rf "$scratch"
exit "$status"
