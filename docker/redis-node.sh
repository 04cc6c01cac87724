#!/bin/sh
# A Redis data node of the Sentinel deployment (docker/compose.yaml, docker/k8s/redis.yaml): a
# primary and two replicas, so that after one failover the new primary still has a replica.
# It starts as a replica of the primary a majority of the sentinels names; when none does (the
# very first start, or the sentinels down) it starts as the primary if it is the first node, else
# as the first node's replica. Asking first matters: a node that was the primary, died and was
# replaced by a failover must come back as a replica of the new primary (Sentinel would demote
# it too, but only after it accepted connections as a second primary for some seconds), and a
# node must never start as a replica of a stale primary and throw away newer data.
# A node that the sentinels still name as the primary (it came back within their down-after) but
# whose data folder is empty (its volume lost or replaced) must not start as the primary either:
# its replicas would sync from it and drop every game. It waits until the sentinels promote one
# of the replicas they know, then starts as its replica (tests/deploy/redis_node_test.py).
#   OUTPOST_REDIS_SELF       this node's name, as the others and the servers reach it
#   OUTPOST_REDIS_FIRST      the first node's name (the primary of the very first start)
#   OUTPOST_REDIS_SENTINELS  the sentinels, "host:port host:port ..."
#   OUTPOST_REDIS_MASTER     the name the sentinels monitor the primary by (default outpost)
#   OUTPOST_SENTINEL_PASSWORD  the sentinels' password, if they ask one
#   OUTPOST_REDIS_MIN_REPLICAS        the write guard: replicas in sync a write needs (default 1)
#   OUTPOST_REDIS_MIN_REPLICAS_LAG_S  ... in sync: acknowledged within this many s (default 10)
#   OUTPOST_REDIS_ALLOW_EMPTY_PRIMARY  "yes": start as the primary with an empty data folder
#                            anyway (every node's data is lost and the sentinels remember them)
#   OUTPOST_REDIS_PORT, OUTPOST_REDIS_DIR  the port (6379) and data folder (/data); the node's
#                            arguments are passed on to redis-server (the test runs nodes on
#                            loopback this way)
set -eu
port="${OUTPOST_REDIS_PORT:-6379}"
dir="${OUTPOST_REDIS_DIR:-/data}"
master="${OUTPOST_REDIS_MASTER:-outpost}"
self="$OUTPOST_REDIS_SELF:$port"
first="$OUTPOST_REDIS_FIRST"
case "$first" in *:*) ;; *) first="$first:$port" ;; esac

# One command to the sentinel "host:port" given first; its answer's lines, or nothing.
ask_sentinel() {
    sentinel="$1"
    shift
    REDISCLI_AUTH="${OUTPOST_SENTINEL_PASSWORD:-}" timeout 3 redis-cli \
        -h "${sentinel%:*}" -p "${sentinel##*:}" --raw "$@" 2>/dev/null || true
}

# The primary ("host:port") a majority of the sentinels names; nothing when none does.
named_primary() {
    asked=0
    answers=""
    for sentinel in $OUTPOST_REDIS_SENTINELS; do
        asked=$((asked + 1))
        answer="$(ask_sentinel "$sentinel" SENTINEL get-master-addr-by-name "$master" |
            head -n 2 | paste -sd: -)"
        case "$answer" in ?*:?*) answers="$answers$answer
" ;; esac
    done
    printf '%s' "$answers" | sort | uniq -c |
        awk -v need=$((asked / 2 + 1)) '$1 >= need { print $2; exit }'
}

# Whether this node has data of its own (an append-only file, or a snapshot).
has_data() {
    [ -e "$dir/appendonlydir" ] || [ -e "$dir/appendonly.aof" ] || [ -e "$dir/dump.rdb" ]
}

# Whether a sentinel knows a replica of the primary (so it can promote one).
replicas_known() {
    for sentinel in $OUTPOST_REDIS_SENTINELS; do
        ask_sentinel "$sentinel" SENTINEL replicas "$master" | grep -qx name && return 0
    done
    return 1
}

primary="$(named_primary)"
if [ "$primary" = "$self" ] && ! has_data && [ "${OUTPOST_REDIS_ALLOW_EMPTY_PRIMARY:-}" != yes ] &&
    replicas_known; then
    echo "redis-node: $self is the primary the sentinels name, but $dir holds no data (lost):" \
        "waiting for them to promote a replica (OUTPOST_REDIS_ALLOW_EMPTY_PRIMARY=yes starts it" \
        "empty)"
    while [ -z "$primary" ] || [ "$primary" = "$self" ]; do
        sleep 1
        primary="$(named_primary)"
    done
fi
[ -n "$primary" ] || primary="$first"
echo "redis-node: $self starts; the primary is $primary"
# Append-only file fsynced at every write: an acknowledged move is on disk (and, with WAIT, on
# a replica) before the server answers. The write guard: a primary with fewer replicas in sync
# than min-replicas-to-write refuses writes (NOREPLICAS) before making them, so a primary cut
# off from its replicas takes no write that a failover would drop (Redis applies it only while
# the node is the primary: every node has it, for the day it is promoted).
set -- redis-server --port "$port" --appendonly yes --appendfsync always --save "" \
    --min-replicas-to-write "${OUTPOST_REDIS_MIN_REPLICAS:-1}" \
    --min-replicas-max-lag "${OUTPOST_REDIS_MIN_REPLICAS_LAG_S:-10}" \
    --replica-announce-ip "$OUTPOST_REDIS_SELF" --dir "$dir" "$@"
if [ "$primary" != "$self" ]; then
    set -- "$@" --replicaof "${primary%:*}" "${primary##*:}"
fi
exec "$@"
