-- wrk script: depth-1 analyses of the start position (server/tools/bench.sh).
wrk.method = "POST"
wrk.body = '{"limits":{"depth":1}}'
wrk.headers["Content-Type"] = "application/json"
