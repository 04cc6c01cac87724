#!/usr/bin/env bash
# Server load benchmarks for docs/performance.md (Server section). Starts outpost-server on a
# free port, then: wrk on GET /healthz and on depth-1 analyses, a WebSocket load client with 4x
# more concurrent movetime=100 ms analyses than searcher threads, 2,000 idle WebSockets and the
# server's memory, and a 100 ms analysis over HTTP against the same search in the UCI program.
# Usage: server/tools/bench.sh [build dir]   (env: PORT, THREADS, DURATION)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build="$(cd "${1:-build}" && pwd)"
port="${PORT:-18080}"
threads="${THREADS:-2}"
duration="${DURATION:-10}"
server="$build/server/outpost-server"
load="$build/server/outpost-server-load"
engine="$build/engine/outpost"

ulimit -n 16384 2>/dev/null || true
# Games in memory: the benchmark measures the server, not the disk (docs/performance.md). Every
# load client connects from one address: no per-address quotas (docs/security.md).
"$server" --port "$port" --threads "$threads" --io-threads 2 --log-requests false --store memory \
    --queue-size 4096 --client-searches 100000 --client-connections 0 --client-websockets 0 \
    --client-subscriptions 0 --client-streams 0 --client-games-per-minute 0 \
    >/tmp/outpost-bench-server.log 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
    sleep 0.1
done
echo "server pid $pid, $threads searcher threads, $(nproc) cores"

echo; echo "== wrk: GET /healthz (2 threads, 64 connections, ${duration}s)"
wrk -t2 -c64 -d"${duration}s" "http://127.0.0.1:$port/healthz"

echo; echo "== wrk: POST /api/v1/analysis depth 1 (2 threads, 16 connections, ${duration}s)"
wrk -t2 -c16 -d"${duration}s" -s "$here/analysis_depth1.lua" "http://127.0.0.1:$port/api/v1/analysis"

echo; echo "== WebSocket: $((threads * 4)) clients x 5 analyses of movetime 100 ms ($threads searchers)"
"$load" --mode analysis --port "$port" --connections $((threads * 4)) --per-client 5 \
    --movetime 100 --slack 25 || echo "(some results missed the 25 ms slack)"

echo; echo "== 2,000 idle WebSockets"
"$load" --mode idle --port "$port" --connections 2000 --hold 3 --pid "$pid"

if [ -x "$engine" ]; then
    echo; echo "== 100 ms analysis: HTTP vs UCI"
    python3 "$here/uci_vs_http.py" "$engine" "$port" 20 100
fi
