#!/usr/bin/env bash
# The one build recipe: scripts/run.sh, scripts/test.sh, .ci/run and the Dockerfile all call it.
#
#   scripts/build.sh                      everything: engine, server, tests, tools and the page
#   scripts/build.sh TARGET... [page]     only those CMake targets (and what they link), and the
#                                         page when `page` is listed; e.g. scripts/run.sh builds
#                                         `outpost-server outpost page`
#
# The page (web/: npm ci && npm run build) is built in the background while CMake compiles, so
# its download and bundling overlap the C++ build; its log is shown when it fails.
#
# Environment (all optional):
#   OUTPOST_BUILD_DIR   build folder (default: build)
#   OUTPOST_BUILD_TYPE  CMake build type (default: Release)
#   OUTPOST_ARCH        -march value (default: native; the Dockerfile uses x86-64-v2)
#   OUTPOST_JOBS        parallel build jobs (default: 2)
#   OUTPOST_WITH_TESTS  1 (default): configure the tests and tools too (needs Catch2);
#                       0: only the engine, the server and their libraries (scripts/run.sh, the
#                       Dockerfile), so the test packages need not be installed
#   OUTPOST_CMAKE_ARGS  extra CMake arguments (e.g. -DOUTPOST_SANITIZE=thread)
#   OUTPOST_SKIP_WEB=1  do not build the page (even when no target list is given)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_type="${OUTPOST_BUILD_TYPE:-Release}"
arch="${OUTPOST_ARCH:-native}"
jobs="${OUTPOST_JOBS:-2}"
read -r -a extra_args <<<"${OUTPOST_CMAKE_ARGS:-}"

# The target list: CMake targets, and `page` for the board page.
want_page=0
targets=()
if [ "$#" -eq 0 ]; then
    want_page=1
else
    for target in "$@"; do
        if [ "$target" = page ]; then want_page=1; else targets+=("$target"); fi
    done
fi
if [ "${OUTPOST_SKIP_WEB:-0}" = 1 ] || ! outpost_has_web; then want_page=0; fi

# Tests and tools are switched explicitly both ways, so one build folder can serve run.sh and
# test.sh in turn (a reconfigure; nothing already compiled is rebuilt).
if [ "${OUTPOST_WITH_TESTS:-1}" = 0 ]; then
    with_tests=(-DOUTPOST_BUILD_TESTS=OFF -DOUTPOST_BUILD_TOOLS=OFF)
else
    with_tests=(-DOUTPOST_BUILD_TESTS=ON -DOUTPOST_BUILD_TOOLS=ON)
fi

started=$(date +%s)
page_log=""
page_pid=""
if [ "$want_page" = 1 ]; then
    page_log="$(mktemp "${TMPDIR:-/tmp}/outpost-page.XXXXXX")"
    echo "outpost: building the board page (web/) in the background" >&2
    (
        cd "$OUTPOST_ROOT/web"
        if [ -f package-lock.json ]; then
            # npm ci wipes node_modules; only do it when the lockfile changed since the last one.
            if [ ! -f node_modules/.package-lock.json ] ||
                [ package-lock.json -nt node_modules/.package-lock.json ]; then
                npm ci --no-audit --no-fund
            fi
        else
            npm install --no-audit --no-fund
        fi
        npm run build
    ) >"$page_log" 2>&1 &
    page_pid=$!
fi
# Stops the page's build if the C++ build fails.
stop_page() { if [ -n "$page_pid" ]; then kill "$page_pid" 2>/dev/null || true; fi; }
trap stop_page EXIT

cmake -S "$OUTPOST_ROOT" -B "$OUTPOST_BUILD_DIR" -DCMAKE_BUILD_TYPE="$build_type" \
    -DOUTPOST_ARCH="$arch" "${with_tests[@]}" "${extra_args[@]}"
if [ "$#" -eq 0 ] || [ "${#targets[@]}" -gt 0 ]; then
    target_args=()
    if [ "${#targets[@]}" -gt 0 ]; then target_args=(--target "${targets[@]}"); fi
    cmake --build "$OUTPOST_BUILD_DIR" -j"$jobs" "${target_args[@]}"
fi
echo "outpost: C++ build done in $(($(date +%s) - started)) s" >&2

if [ -n "$page_pid" ]; then
    page_status=0
    wait "$page_pid" || page_status=$?
    page_pid=""
    if [ "$page_status" -ne 0 ]; then
        cat "$page_log" >&2
        echo "outpost: the page's build failed" >&2
        rm -f "$page_log"
        exit "$page_status"
    fi
    tail -n 5 "$page_log" >&2
    rm -f "$page_log"
    echo "outpost: page built (web/dist) at $(($(date +%s) - started)) s" >&2
fi
