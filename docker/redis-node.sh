#!/bin/sh
# A Redis data node of the Sentinel deployment (docker/compose.yaml, docker/k8s/redis.yaml).
# It starts as a replica of the primary the sentinels name; when no sentinel answers (the very
# first start, or every sentinel down) it starts as the primary if it is the first node, else as
# the first node's replica. Asking first matters: a node that was the primary, died and was
# replaced by a failover must come back as a replica of the new primary (Sentinel would demote
# it too, but only after it accepted connections as a second primary for some seconds), and a
# node must never start as a replica of a stale primary and throw away newer data.
#   OUTPOST_REDIS_SELF       this node's name, as the others and the servers reach it
#   OUTPOST_REDIS_FIRST      the first node's name (the primary of the very first start)
#   OUTPOST_REDIS_SENTINELS  the sentinels, "host:port host:port ..."
#   OUTPOST_REDIS_MASTER     the name the sentinels monitor the primary by (default outpost)
set -eu
self="$OUTPOST_REDIS_SELF"
master="${OUTPOST_REDIS_MASTER:-outpost}"
primary=""
for sentinel in $OUTPOST_REDIS_SENTINELS; do
    primary="$(timeout 3 redis-cli -h "${sentinel%:*}" -p "${sentinel##*:}" --raw \
        SENTINEL get-master-addr-by-name "$master" 2>/dev/null | head -n 1)" || primary=""
    [ -n "$primary" ] && break
done
[ -n "$primary" ] || primary="$OUTPOST_REDIS_FIRST"
echo "redis-node: $self starts; the primary is $primary"
# Append-only file fsynced at every write: an acknowledged move is on disk (and, with WAIT, on
# a replica) before the server answers.
set -- redis-server --appendonly yes --appendfsync always --save "" \
    --replica-announce-ip "$self" --dir /data
if [ "$primary" != "$self" ]; then
    set -- "$@" --replicaof "$primary" 6379
fi
exec "$@"
