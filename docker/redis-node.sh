#!/bin/sh
# A Redis data node of the Sentinel deployment (docker/compose.yaml, docker/k8s/redis.yaml): a
# primary and two replicas, so that after one failover the new primary still has a replica.
# It starts as a replica of the primary a majority of the sentinels names; when none does (the
# very first start, or the sentinels down) it starts as the primary if it is the first node, else
# as the first node's replica. Asking first matters: a node that was the primary, died and was
# replaced by a failover must come back as a replica of the new primary (Sentinel would demote
# it too, but only after it accepted connections as a second primary for some seconds), and a
# node must never start as a replica of a stale primary and throw away newer data.
#   OUTPOST_REDIS_SELF       this node's name, as the others and the servers reach it
#   OUTPOST_REDIS_FIRST      the first node's name (the primary of the very first start)
#   OUTPOST_REDIS_SENTINELS  the sentinels, "host:port host:port ..."
#   OUTPOST_REDIS_MASTER     the name the sentinels monitor the primary by (default outpost)
#   OUTPOST_SENTINEL_PASSWORD  the sentinels' password, if they ask one
#   OUTPOST_REDIS_MIN_REPLICAS        the write guard: replicas in sync a write needs (default 1)
#   OUTPOST_REDIS_MIN_REPLICAS_LAG_S  ... in sync: acknowledged within this many s (default 10)
set -eu
self="$OUTPOST_REDIS_SELF"
master="${OUTPOST_REDIS_MASTER:-outpost}"
asked=0
answers=""
for sentinel in $OUTPOST_REDIS_SENTINELS; do
    asked=$((asked + 1))
    answer="$(REDISCLI_AUTH="${OUTPOST_SENTINEL_PASSWORD:-}" timeout 3 redis-cli \
        -h "${sentinel%:*}" -p "${sentinel##*:}" --raw \
        SENTINEL get-master-addr-by-name "$master" 2>/dev/null | head -n 1)" || answer=""
    [ -n "$answer" ] && answers="$answers$answer
"
done
primary="$(printf '%s' "$answers" | sort | uniq -c |
    awk -v need=$((asked / 2 + 1)) '$1 >= need { print $2; exit }')"
[ -n "$primary" ] || primary="$OUTPOST_REDIS_FIRST"
echo "redis-node: $self starts; the primary is $primary"
# Append-only file fsynced at every write: an acknowledged move is on disk (and, with WAIT, on
# a replica) before the server answers. The write guard: a primary with fewer replicas in sync
# than min-replicas-to-write refuses writes (NOREPLICAS) before making them, so a primary cut
# off from its replicas takes no write that a failover would drop (Redis applies it only while
# the node is the primary: every node has it, for the day it is promoted).
set -- redis-server --appendonly yes --appendfsync always --save "" \
    --min-replicas-to-write "${OUTPOST_REDIS_MIN_REPLICAS:-1}" \
    --min-replicas-max-lag "${OUTPOST_REDIS_MIN_REPLICAS_LAG_S:-10}" \
    --replica-announce-ip "$self" --dir /data
if [ "$primary" != "$self" ]; then
    set -- "$@" --replicaof "$primary" 6379
fi
exec "$@"
