#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), builds Release, and runs the whole test suite:
# the CTest suite (engine, server, deployment topology, stores) and, once they exist, the
# browser tests of the board page (tests/web/run.sh).
#
# Environment: OUTPOST_BUILD_DIR (default build), OUTPOST_JOBS (default 2),
# OUTPOST_CTEST_ARGS (extra ctest arguments, e.g. "-R perft").
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

outpost_ensure_packages "${OUTPOST_BUILD_PACKAGES[@]}" "${OUTPOST_TEST_PACKAGES[@]}"
if outpost_has_web; then outpost_ensure_node; fi

# Everything: the programs, every test binary, the tools and the page.
OUTPOST_BUILD_TYPE=Release OUTPOST_WITH_TESTS=1 "$OUTPOST_ROOT/scripts/build.sh"

jobs="${OUTPOST_JOBS:-2}"
read -r -a ctest_args <<<"${OUTPOST_CTEST_ARGS:-}"
echo "outpost: running the CTest suite" >&2
(cd "$OUTPOST_BUILD_DIR" && ctest --output-on-failure -j"$jobs" --timeout 900 "${ctest_args[@]}")

if [ -x "$OUTPOST_ROOT/tests/web/run.sh" ] || [ -f "$OUTPOST_ROOT/tests/web/run.sh" ]; then
    if [ -n "$(outpost_find_program outpost-server)" ]; then
        echo "outpost: running the browser tests (tests/web/run.sh)" >&2
        OUTPOST_SERVER_BIN="$(outpost_find_program outpost-server)" \
            OUTPOST_BUILD_DIR="$OUTPOST_BUILD_DIR" bash "$OUTPOST_ROOT/tests/web/run.sh"
    else
        echo "outpost: tests/web exists but outpost-server is not built; browser tests skipped" >&2
    fi
fi
echo "outpost: all tests passed" >&2
