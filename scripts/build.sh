#!/usr/bin/env bash
# Configures and builds Outpost (engine, server, tests) and the board page if web/ exists.
# The one build recipe: scripts/run.sh, scripts/test.sh, .ci/run and the Dockerfile all call it.
#
# Environment (all optional):
#   OUTPOST_BUILD_DIR   build folder (default: build)
#   OUTPOST_BUILD_TYPE  CMake build type (default: Release)
#   OUTPOST_ARCH        -march value (default: native; the Dockerfile uses x86-64-v2)
#   OUTPOST_JOBS        parallel build jobs (default: 2)
#   OUTPOST_CMAKE_ARGS  extra CMake arguments (e.g. -DOUTPOST_SANITIZE=thread)
#   OUTPOST_SKIP_WEB=1  do not build the page
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_type="${OUTPOST_BUILD_TYPE:-Release}"
arch="${OUTPOST_ARCH:-native}"
jobs="${OUTPOST_JOBS:-2}"
read -r -a extra_args <<<"${OUTPOST_CMAKE_ARGS:-}"

cmake -S "$OUTPOST_ROOT" -B "$OUTPOST_BUILD_DIR" -DCMAKE_BUILD_TYPE="$build_type" \
    -DOUTPOST_ARCH="$arch" "${extra_args[@]}"
cmake --build "$OUTPOST_BUILD_DIR" -j"$jobs"

if outpost_has_web && [ "${OUTPOST_SKIP_WEB:-0}" != 1 ]; then
    echo "outpost: building the board page (web/)" >&2
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
    )
fi
