#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time from its seed corpus (fuzz/corpus_*, and for HTTP
# the examples of api/openapi.yaml via fuzz/openapi_seeds.py), copied to a scratch folder so new inputs never land in the repository. Exits non-zero when a target finds a
# failure (its reproducer is left in the scratch folder and named in the output).
#   fuzz/run.sh BUILD_DIR [SECONDS_PER_TARGET] [TARGET...]   (targets: fen http ws pgn)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${1:?usage: fuzz/run.sh BUILD_DIR [SECONDS] [TARGET...]}"
seconds="${2:-60}"
shift $(($# >= 2 ? 2 : $#))
targets=("$@")
[ "${#targets[@]}" -eq 0 ] && targets=(fen http ws pgn)
scratch="$(mktemp -d "${TMPDIR:-/tmp}/outpost-fuzz.XXXXXX")"
status=0
for target in "${targets[@]}"; do
    program="$build/fuzz/outpost_${target}_fuzzer"
    corpus="$scratch/$target"
    mkdir -p "$corpus"
    cp fuzz/corpus_"$target"/* "$corpus"/
    # The HTTP target also starts from every operation's example in the API document.
    if [ "$target" = http ] && python3 -c 'import yaml' 2>/dev/null; then
        python3 fuzz/openapi_seeds.py api/openapi.yaml "$corpus"
    fi
    echo "--- $target: ${seconds}s from $(ls "$corpus" | wc -l) seeds"
    # Leaks: the scripted server context is torn down per input, so leak checks stay on.
    if ! ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$program" -max_total_time="$seconds" -max_len=4096 -timeout=30 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$scratch/$target-" "$corpus" 2>"$scratch/$target.log"; then
        echo "--- $target: FAILED"
        tail -n 60 "$scratch/$target.log"
        status=1
    else
        grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)' \
            "$scratch/$target.log" || true
        grep -E '^#[0-9]+.*DONE' "$scratch/$target.log" | tail -n 1 || true
    fi
done
[ "$status" -eq 0 ] && rm -rf "$scratch"
exit "$status"
