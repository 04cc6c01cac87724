#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), builds what it runs (outpost-server, the UCI
# engine `outpost` and the board page) and starts outpost-server with its page on
# http://localhost:8080 (OUTPOST_PORT to change it).
# Extra arguments are passed to the program (e.g. scripts/run.sh --threads 4).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Only what running needs: no test packages, no test binaries, no tools (scripts/test.sh builds
# those). The page is built alongside the C++ (scripts/build.sh).
outpost_ensure_packages "${OUTPOST_BUILD_PACKAGES[@]}"
if outpost_has_web; then outpost_ensure_node; fi
OUTPOST_WITH_TESTS=0 "$OUTPOST_ROOT/scripts/build.sh" outpost-server outpost page

server="$(outpost_find_program outpost-server)"
if [ -z "$server" ]; then
    echo "outpost: outpost-server was not built" >&2
    exit 1
fi
# The server reads OUTPOST_<FLAG> variables; command-line flags override them.
export OUTPOST_PORT="${OUTPOST_PORT:-8080}"
export OUTPOST_WEB_ROOT="${OUTPOST_WEB_ROOT:-$OUTPOST_ROOT/web/dist}"
# Games in the server's default store, an SQLite file, so they survive restarts; here in
# data/ of the checkout (the server creates the folder) rather than the working directory.
export OUTPOST_SQLITE_PATH="${OUTPOST_SQLITE_PATH:-$OUTPOST_ROOT/data/games.db}"
echo "outpost: starting $server on http://localhost:$OUTPOST_PORT" >&2
exec "$server" "$@"
