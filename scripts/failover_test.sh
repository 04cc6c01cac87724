#!/usr/bin/env bash
# Redis failover under play (tests/deploy/failover_test.py): a Redis primary and replica, three
# sentinels (`redis-server --sentinel`), three outpost-server replicas configured through
# Sentinel and nginx on loopback; the primary is killed with SIGKILL mid-game. Registered in
# CTest as `deploy: failover` (label deploy;slow); run alone: scripts/failover_test.sh [--keep]
# [--min-replica-acks N]. Exit status 77 (CTest: skipped) when outpost-server is not built yet.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

server="$(outpost_find_program outpost-server)"
if [ -z "$server" ]; then
    echo "failover test skipped: outpost-server is not built (in $OUTPOST_BUILD_DIR)"
    exit 77
fi
missing=()
redis="$(command -v redis-server || true)"
[ -n "$redis" ] || missing+=(redis-server)
nginx="$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true)"
[ -n "$nginx" ] || missing+=(nginx-light)
python="$(command -v python3 || true)"
[ -n "$python" ] || missing+=(python3)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "failover test: missing ${missing[*]} (scripts/test.sh installs them)" >&2
    exit 1
fi
web_root="$OUTPOST_ROOT/web/dist"
[ -d "$web_root" ] || web_root=""
exec "$python" "$OUTPOST_ROOT/tests/deploy/failover_test.py" --server "$server" --redis "$redis" \
    --nginx "$nginx" --proxy-conf "$OUTPOST_ROOT/docker/outpost-proxy.conf" \
    --http-conf "$OUTPOST_ROOT/docker/outpost-http.conf" \
    ${web_root:+--web-root "$web_root"} "$@"
