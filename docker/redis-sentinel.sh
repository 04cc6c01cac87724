#!/bin/sh
# A Redis Sentinel of the deployment (docker/compose.yaml, docker/k8s/redis.yaml): monitors the
# primary under the name `outpost`, with two sentinels of three needed to agree it is down. Its
# configuration is written once on its volume; Sentinel rewrites it as it learns (the current
# primary, the replicas, the other sentinels), so a restarted sentinel knows where things are.
#   OUTPOST_SENTINEL_SELF   this sentinel's name, as the other sentinels reach it
#   OUTPOST_REDIS_FIRST     the first primary's name (the sentinels follow it from there)
#   OUTPOST_SENTINEL_DOWN_AFTER_MS  silence after which the primary is down (default 5000)
#   OUTPOST_SENTINEL_PASSWORD  if set, the password the sentinels ask (of the servers, of the
#                              data nodes' start script and of each other)
set -eu
conf=/data/sentinel.conf
auth=""
if [ -n "${OUTPOST_SENTINEL_PASSWORD:-}" ]; then
    auth="requirepass $OUTPOST_SENTINEL_PASSWORD
sentinel sentinel-pass $OUTPOST_SENTINEL_PASSWORD"
fi
if [ ! -f "$conf" ]; then
    cat > "$conf" <<CONF
port 26379
dir /data
$auth
sentinel resolve-hostnames yes
sentinel announce-hostnames yes
sentinel announce-ip $OUTPOST_SENTINEL_SELF
sentinel monitor outpost $OUTPOST_REDIS_FIRST 6379 2
sentinel down-after-milliseconds outpost ${OUTPOST_SENTINEL_DOWN_AFTER_MS:-5000}
sentinel failover-timeout outpost 60000
sentinel parallel-syncs outpost 1
CONF
fi
exec redis-server "$conf" --sentinel
