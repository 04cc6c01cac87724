# shellcheck shell=bash
# Runs one of the loopback deployment tests (tests/deploy/*_test.py: redis-server, outpost-server
# replicas and nginx with the shipped proxy rules, all on loopback). Sourced by
# scripts/topology_test.sh and scripts/failover_test.sh, which share everything but the test.
#
#   outpost_run_loopback_test NAME TEST_PY [TEST ARGS...]
#
# Exit status 77 (CTest: skipped) when outpost-server is not built yet; 1 when a program the
# test needs is missing (scripts/test.sh installs them).
outpost_run_loopback_test() {
    local name="$1" test_py="$2"
    shift 2
    local server redis nginx python web_root missing=()
    server="$(outpost_find_program outpost-server)"
    if [ -z "$server" ]; then
        echo "$name test skipped: outpost-server is not built (in $OUTPOST_BUILD_DIR)"
        exit 77
    fi
    redis="$(command -v redis-server || true)"
    [ -n "$redis" ] || missing+=(redis-server)
    nginx="$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true)"
    [ -n "$nginx" ] || missing+=(nginx-light)
    python="$(command -v python3 || true)"
    [ -n "$python" ] || missing+=(python3)
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "$name test: missing ${missing[*]} (scripts/test.sh installs them)" >&2
        exit 1
    fi
    web_root="$OUTPOST_ROOT/web/dist"
    [ -d "$web_root" ] || web_root=""
    exec "$python" "$test_py" --server "$server" --redis "$redis" \
        --nginx "$nginx" --proxy-conf "$OUTPOST_ROOT/docker/outpost-proxy.conf" \
        --http-conf "$OUTPOST_ROOT/docker/outpost-http.conf" \
        ${web_root:+--web-root "$web_root"} "$@"
}
