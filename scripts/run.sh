#!/usr/bin/env bash
# Installs what is missing (Debian 12, as root), builds, and starts Outpost:
# outpost-server with its board page on http://localhost:8080 (OUTPOST_PORT to change it).
# Before the server exists in the tree, it starts the UCI engine `outpost` instead.
# Extra arguments are passed to the program (e.g. scripts/run.sh --threads 4).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

outpost_ensure_packages "${OUTPOST_BUILD_PACKAGES[@]}"
if outpost_has_web; then outpost_ensure_node; fi
"$OUTPOST_ROOT/scripts/build.sh"

server="$(outpost_find_program outpost-server)"
if [ -n "$server" ]; then
    # The server reads OUTPOST_<FLAG> variables; command-line flags override them.
    export OUTPOST_PORT="${OUTPOST_PORT:-8080}"
    export OUTPOST_WEB_ROOT="${OUTPOST_WEB_ROOT:-$OUTPOST_ROOT/web/dist}"
    # Games in the server's default store, an SQLite file, so they survive restarts; here in
    # data/ of the checkout (the server creates the folder) rather than the working directory.
    export OUTPOST_SQLITE_PATH="${OUTPOST_SQLITE_PATH:-$OUTPOST_ROOT/data/games.db}"
    echo "outpost: starting $server on http://localhost:$OUTPOST_PORT" >&2
    exec "$server" "$@"
fi

engine="$(outpost_find_program outpost)"
if [ -z "$engine" ]; then
    echo "outpost: neither outpost-server nor outpost was built" >&2
    exit 1
fi
echo "outpost: no server in this tree yet; starting the UCI engine $engine (type 'quit' to leave)" >&2
exec "$engine" "$@"
