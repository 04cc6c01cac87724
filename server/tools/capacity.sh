#!/usr/bin/env bash
# Capacity of one replica in simulated browser players (docs/performance.md, "Players per
# replica"): ramps `outpost-server-load --mode players` over a list of player counts and prints
# one JSON line per step (players, engine replies/s, p50/p90/p99 of reply time minus search time,
# creations refused by admission, failures, server CPU and RSS).
#
#   server/tools/capacity.sh [build dir]
#
# Environment:
#   TOPOLOGY  single (one replica, games in memory; default), redis (one replica on Redis), or
#             three (redis-server, three replicas and nginx on loopback, players through nginx)
#   PLAYERS   the ramp, e.g. "5 10 20 40" (default)
#   DURATION  seconds per step (default 60)
#   THREADS   searcher threads per replica (default 2; three: 1 each)
#   ADMIT     --admit-game-wait in ms (default 50; 0 turns this signal off)
#   MAX_GAMES --max-engine-games per replica (default 0: the server's default, threads x 3;
#             a large number with ADMIT=0 turns admission off, to find the knee and the collapse)
#   THINK     "min max" think time in ms (default "2000 6000")
# Loopback only. Each step starts a fresh server, so games of one step do not load the next.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
topology="${TOPOLOGY:-single}"
ramp="${PLAYERS:-5 10 20 40}"
duration="${DURATION:-60}"
admit="${ADMIT:-50}"
max_games="${MAX_GAMES:-0}"
read -r think_min think_max <<<"${THINK:-2000 6000}"
server="$build/server/outpost-server"
load="$build/server/outpost-server-load"
work="$(mktemp -d /tmp/outpost-capacity.XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap 'cleanup; rm -rf "$work"' EXIT
ulimit -n 65536 2>/dev/null || ulimit -n 16384 2>/dev/null || true

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_ready() {
    for _ in $(seq 200); do
        curl -sf "http://127.0.0.1:$1/readyz" >/dev/null && return 0
        sleep 0.05
    done
    echo "port $1 did not become ready" >&2
    return 1
}
# Every player connects from 127.0.0.1: no per-address quotas (docs/security.md); admission of
# new games stays on (ADMIT).
common_flags=(--io-threads 2 --log-requests false --hash 16 --admit-game-wait "$admit"
    --max-engine-games "$max_games"
    --client-searches 100000 --client-connections 0 --client-websockets 0
    --client-subscriptions 0 --client-streams 0 --client-games-per-minute 0
    --client-engine-games 1000000)

start_single() {  # $1: store flags...
    local port; port="$(free_port)"
    "$server" --port "$port" --threads "${THREADS:-2}" "${common_flags[@]}" "$@" \
        >>"$work/server.log" 2>&1 &
    server_pid=$!
    pids+=("$server_pid")
    wait_ready "$port"
    target_port="$port"
}

start_redis() {
    redis_port="$(free_port)"
    redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no \
        >>"$work/redis.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && return 0; sleep 0.05; done
    echo "redis-server did not start" >&2
    return 1
}

start_three() {
    start_redis
    local ports=() port
    for i in 1 2 3; do
        port="$(free_port)"
        "$server" --bind 127.0.0.1 --port "$port" --threads "${THREADS:-1}" "${common_flags[@]}" \
            --store redis --redis-url "redis://127.0.0.1:$redis_port" --trusted-proxies 127.0.0.2 \
            >>"$work/replica-$i.log" 2>&1 &
        pids+=($!)
        ports+=("$port")
    done
    for port in "${ports[@]}"; do wait_ready "$port"; done
    target_port="$(free_port)"
    mkdir -p "$work/nginx"
    # The proxy rules the image ships (docker/outpost-*.conf) without their per-address
    # limit_req/limit_conn lines: every player here is 127.0.0.1.
    sed '/limit_/d' "$root/docker/outpost-proxy.conf" >"$work/proxy.conf"
    cat >"$work/nginx.conf" <<EOF
$( [ "$(id -u)" = 0 ] && echo "user root;" )
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 16384; }
http {
    access_log off;
    client_body_temp_path $work/nginx;
    proxy_temp_path $work/nginx;
    fastcgi_temp_path $work/nginx;
    uwsgi_temp_path $work/nginx;
    scgi_temp_path $work/nginx;
    include $root/docker/outpost-http.conf;
    proxy_bind 127.0.0.2;
    upstream outpost {
        server 127.0.0.1:${ports[0]};
        server 127.0.0.1:${ports[1]};
        server 127.0.0.1:${ports[2]};
        keepalive 32;
    }
    server {
        listen 127.0.0.1:$target_port;
        include $work/proxy.conf;
    }
}
EOF
    nginx -p "$work" -c "$work/nginx.conf" >>"$work/nginx.log" 2>&1 &
    pids+=($!)
    wait_ready "$target_port"
    server_pid=0
}

echo "# topology $topology, $(nproc) cores, admission ${admit} ms / ${max_games} games, think ${think_min}-${think_max} ms, ${duration} s per step" >&2
for players in $ramp; do
    case "$topology" in
        single) start_single --store memory ;;
        redis) start_redis; start_single --store redis --redis-url "redis://127.0.0.1:$redis_port" ;;
        three) start_three ;;
        *) echo "TOPOLOGY must be single, redis or three" >&2; exit 2 ;;
    esac
    "$load" --mode players --port "$target_port" --players "$players" --duration "$duration" \
        --think-min "$think_min" --think-max "$think_max" --pid "$server_pid" --json 1 || true
    cleanup
    pids=()
done
