#!/usr/bin/env python3
"""Redis failover under play, without containers: a Redis primary and two replicas, three
sentinels (redis-server --sentinel, with a password), three outpost-server replicas configured
through Sentinel, and nginx (docker/outpost-proxy.conf) on loopback. The Redis nodes run with
the write guard of docker/compose.yaml (min-replicas-to-write 1).

Scenarios (--scenario, repeatable; --runs N repeats each):

  in-sync (the default): the replicas are in sync.
    1. Simulated players play games between people (with clocks) through nginx, one against the
       engine, each game watched by WebSocket subscribers through nginx; one more game's clock is
       left to run out during the failover.
    2. The primary is killed with SIGKILL mid-game. The sentinels promote a replica; the servers
       follow it (a majority of the sentinels names it). The test measures the time from the kill
       to the first acknowledged move sent after it.
    3. Checks: no acknowledged move is lost (every 200 answer's moves are a prefix of the game's
       final moves); moves are acknowledged again within 10 s; every subscriber sees every move
       acknowledged after the failover and ends at the game's final version; the flag that fell
       during the switch fell once, on time (late by no more than the switch); the engine's owed
       reply is made; each server counted the primary change in /metrics; the old primary,
       restarted, rejoins as a replica of the new one.

  first-sync: the primary holds back its replicas' first sync (a diskless sync's delay). The
    servers say not ready; players try to create games and move; the primary is killed before
    the sync. Checks: no write was acknowledged that the promoted replica lacks (before issue 34
    the primary acknowledged them alone, and the failover lost them), and writes are
    acknowledged again once the new primary has a replica in sync.

  partition: players play; both replicas are cut off (SIGSTOP) for longer than the primary's
    repl-timeout, so the primary drops them, while the players keep moving; then the primary is
    killed and the replicas come back. Checks: nothing was acknowledged during the partition
    (moves made on the primary were answered 503 write_unconfirmed, and their subscribers saw
    them; later ones were refused unwritten, 503 store_unavailable), no acknowledged move is
    lost, and moves are acknowledged again within 10 s of the kill.

One JSON line `FAILOVER_RESULT {...}` per run gives the figures (docs/deployment.md). Run it
through scripts/failover_test.sh. Exit status 0: passed, 1: failed, 77: skipped.
"""

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import socket
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import topology_test as topo  # noqa: E402  (the processes, HTTP and WebSocket clients)

from topology_test import TestFailure, check, free_port, http_request, log  # noqa: E402

MASTER_NAME = "outpost"
SENTINELS = 3
QUORUM = 2
REDIS_REPLICAS = 2
SENTINEL_PASSWORD = "sentinel-secret"
# The write guard (docker/compose.yaml sets the same on every node): a write needs a replica that
# acknowledged within MAX_LAG_S, and the primary drops a silent replica after REPL_TIMEOUT_S
# (short here, so that the partition scenario is short).
MAX_LAG_S = 2
REPL_TIMEOUT_S = 3
# first-sync: how long the primary holds its replicas' first sync back (longer than the scenario
# runs before the kill), and how long the players try meanwhile.
HELD_SYNC_S = 60
FIRST_SYNC_PLAY_S = 2.0
# The promise: moves acknowledged again within this long of the kill.
BACK_WITHIN_S = 10.0
# Short, so the test is short: the primary is declared down after a second of silence.
DOWN_AFTER_MS = 1000
FAILOVER_TIMEOUT_MS = 4000
PEOPLE_GAMES = 4
SUBSCRIBERS_PER_GAME = 2
MOVE_PAUSE_S = 0.1  # between a player's moves
PLAY_BEFORE_KILL_S = 3.0
ACKS_AFTER_FAILOVER = 8  # acknowledged moves per game after the kill before the players stop
FLAG_CLOCK_MS = 3000  # the clock of the game whose flag falls during the switch
PLAYER_CLOCK_MS = 600000
RECOVERY_TIMEOUT_S = 30
REJOIN_TIMEOUT_S = 40


def client_request(source, port, method, path, body=None, token=None, timeout=10):
    """topology_test's http_request from the loopback address `source`: each simulated player
    is a client of its own for nginx's per-address request limit (20/s), as real players are."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout,
                                      source_address=(source, 0))
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, body=data, headers=headers)
        response = conn.getresponse()
        raw = response.read()
    finally:
        conn.close()
    try:
        payload = json.loads(raw) if raw else None
    except ValueError:
        payload = raw.decode(errors="replace")
    return response.status, payload


# ---------------------------------------------------------------------------------------------
# A tiny RESP client (redis-cli need not be installed)


def _encode(args):
    out = f"*{len(args)}\r\n".encode()
    for arg in args:
        data = str(arg).encode()
        out += f"${len(data)}\r\n".encode() + data + b"\r\n"
    return out


def redis_command(port, *args, timeout=2.0, password=None):
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        reader = s.makefile("rb")
        if password:
            s.sendall(_encode(["AUTH", password]))
            _read_reply(reader)
        s.sendall(_encode(args))
        return _read_reply(reader)


def sentinel_command(port, *args, timeout=2.0):
    return redis_command(port, *args, timeout=timeout, password=SENTINEL_PASSWORD)


def _read_reply(reader):
    line = reader.readline()
    if not line:
        raise ConnectionError("Redis closed the connection")
    kind, rest = line[:1], line[1:-2].decode(errors="replace")
    if kind == b"+":
        return rest
    if kind == b"-":
        return RuntimeError(rest)
    if kind == b":":
        return int(rest)
    if kind == b"$":
        size = int(rest)
        if size < 0:
            return None
        data = reader.read(size + 2)[:-2]
        return data.decode(errors="replace")
    if kind == b"*":
        size = int(rest)
        return None if size < 0 else [_read_reply(reader) for _ in range(size)]
    raise ValueError(f"unexpected RESP reply {line!r}")


def info_fields(port, section="replication"):
    text = redis_command(port, "INFO", section)
    fields = {}
    for line in text.splitlines():
        name, _, value = line.partition(":")
        fields[name.strip()] = value.strip()
    return fields


# ---------------------------------------------------------------------------------------------
# The processes


class FailoverTopology(topo.Topology):
    """topology_test's Topology (replicas, nginx) with a primary, two replicas and sentinels in
    place of the one redis-server. `held_sync`: the primary holds its replicas' first sync back
    (and the servers are not expected to be ready)."""

    def __init__(self, args, workdir, held_sync=False):
        super().__init__(args, workdir)
        self.held_sync = held_sync
        self.redis_ports = [self.redis_port] + [free_port() for _ in range(REDIS_REPLICAS)]
        self.redis_nodes = [None] * len(self.redis_ports)
        self.sentinel_ports = [free_port() for _ in range(SENTINELS)]
        self.sentinels = [None] * SENTINELS

    def redis_node_command(self, index, replica_of=None):
        data = os.path.join(self.workdir, f"redis-{index}")
        os.makedirs(data, exist_ok=True)
        # The first primary of first-sync holds the snapshot back; every other node sends it at
        # once (a replica re-pointed after the failover syncs without waiting).
        delay = HELD_SYNC_S if self.held_sync and index == 0 else 0
        argv = [self.args.redis, "--port", str(self.redis_ports[index]), "--bind", "127.0.0.1",
                "--dir", data, "--save", "", "--appendonly", "yes", "--appendfsync", "always",
                "--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", str(delay),
                "--repl-timeout", str(REPL_TIMEOUT_S),
                "--min-replicas-to-write", "1", "--min-replicas-max-lag", str(MAX_LAG_S)]
        if replica_of is not None:
            argv += ["--replicaof", "127.0.0.1", str(replica_of)]
        return argv

    def start_redis_node(self, index, replica_of=None):
        self.redis_nodes[index] = self._spawn(f"redis-{index}",
                                              self.redis_node_command(index, replica_of))
        port = self.redis_ports[index]
        self._wait(lambda: self._redis_up(port), f"redis-server {index} (port {port})")

    @staticmethod
    def _redis_up(port):
        try:
            return redis_command(port, "PING", timeout=1) == "PONG"
        except OSError:
            return False

    def start_redis(self):
        primary = self.redis_ports[0]
        self.start_redis_node(0)
        for index in range(1, len(self.redis_ports)):
            self.start_redis_node(index, replica_of=primary)
        if not self.held_sync:
            for port in self.redis_ports[1:]:
                self._wait(lambda p=port: info_fields(p).get("master_link_status") == "up",
                           f"the replica's link to the primary (port {port})")
        for i, port in enumerate(self.sentinel_ports):
            conf = os.path.join(self.workdir, f"sentinel-{i}.conf")
            with open(conf, "w") as f:
                f.write(f"""port {port}
bind 127.0.0.1
dir {self.workdir}
requirepass {SENTINEL_PASSWORD}
sentinel sentinel-pass {SENTINEL_PASSWORD}
sentinel monitor {MASTER_NAME} 127.0.0.1 {primary} {QUORUM}
sentinel down-after-milliseconds {MASTER_NAME} {DOWN_AFTER_MS}
sentinel failover-timeout {MASTER_NAME} {FAILOVER_TIMEOUT_MS}
sentinel parallel-syncs {MASTER_NAME} 1
""")
            self.sentinels[i] = self._spawn(f"sentinel-{i}", [self.args.redis, conf, "--sentinel"])
        # Before any failover can happen, every sentinel must know the replicas and the others
        # (they find each other through hello messages on the primary, every 2 s).
        for port in self.sentinel_ports:
            self._wait(lambda p=port: self._sentinel_ready(p), f"sentinel on port {port}")

    def _sentinel_ready(self, port):
        try:
            reply = sentinel_command(port, "SENTINEL", "master", MASTER_NAME, timeout=1)
        except OSError:
            return False
        if not isinstance(reply, list):
            return False
        fields = dict(zip(reply[::2], reply[1::2]))
        return (fields.get("num-slaves") == str(REDIS_REPLICAS)
                and fields.get("num-other-sentinels") == str(SENTINELS - 1))

    def sentinel_primary(self):
        """The port a majority of the sentinels names, else None."""
        votes = {}
        for port in self.sentinel_ports:
            try:
                reply = sentinel_command(port, "SENTINEL", "get-master-addr-by-name",
                                         MASTER_NAME, timeout=1)
                if isinstance(reply, list):
                    votes[int(reply[1])] = votes.get(int(reply[1]), 0) + 1
            except OSError:
                continue
        named = [p for p, n in votes.items() if 2 * n > SENTINELS]
        return named[0] if named else None

    def replica_command(self, index, port):
        sentinels = ",".join(f"127.0.0.1:{p}" for p in self.sentinel_ports)
        argv = [
            self.args.server, "--bind", "127.0.0.1", "--port", str(port),
            "--store", "redis", "--redis-url", "redis://127.0.0.1:6379",
            "--redis-sentinels", sentinels, "--redis-master-name", MASTER_NAME,
            "--redis-sentinel-password", SENTINEL_PASSWORD,
            "--redis-replica-max-lag", str(MAX_LAG_S),
            "--threads", "1", "--hash", "16", "--trusted-proxies", topo.PROXY_ADDRESS,
            "--web-root", self.args.web_root]
        if self.args.min_replica_acks is not None:
            argv += ["--redis-min-replica-acks", str(self.args.min_replica_acks)]
            if self.args.min_replica_acks == 0:
                argv += ["--redis-allow-unreplicated-writes", "true"]
        return argv

    def _ready(self, port):
        if not self.held_sync:
            return super()._ready(port)
        # Up, and rightly not ready: no replica is in sync.
        try:
            status, _, body = http_request(port, "GET", "/readyz", timeout=2, debug=False)
            return status == 503 and isinstance(body, dict) and body.get("status") == "not_ready"
        except OSError:
            return False

    def signal_redis_node(self, index, sig):
        os.kill(self.redis_nodes[index].pid, sig)

    def kill_redis_node(self, index):
        node = self.redis_nodes[index]
        if node and node.poll() is None:
            os.kill(node.pid, signal.SIGCONT)  # a stopped node dies at once too
        self._kill(node)
        self.redis_nodes[index] = None

    def kill_all(self):
        self._kill(self.nginx)
        for i in range(topo.REPLICAS):
            self.kill_replica(i)
        for i in range(SENTINELS):
            self._kill(self.sentinels[i])
        for i in range(len(self.redis_nodes)):
            self.kill_redis_node(i)


# ---------------------------------------------------------------------------------------------
# Subscribers and players


def error_code(body):
    """The code of an API error answer {"error":{"code":...}}, else None."""
    error = body.get("error") if isinstance(body, dict) else None
    return error.get("code") if isinstance(error, dict) else None


def message_state(message):
    """(version, status) of an event that carries the game's state: {"type":"game"|"gameFull",
    "game":{...}} or {"type":"gameState","version",...}; None for other messages."""
    kind = message.get("type")
    if kind in ("game", "gameFull"):
        game = message.get("game") or {}
        return game.get("version"), game.get("status")
    if kind == "gameState":
        return message.get("version"), message.get("status")
    return None


def bus_resync_versions(topology, game_id):
    """The versions at which a replica sent game_id as stored after its bus came back (the
    replicas' bus_resync log events)."""
    versions = set()
    for path in topology.logs:
        try:
            with open(path, errors="replace") as f:
                for line in f:
                    if '"bus_resync"' not in line:
                        continue
                    try:
                        event = json.loads(line)
                    except ValueError:
                        continue
                    if event.get("event") == "bus_resync" and event.get("game") == game_id:
                        versions.add(event.get("version"))
        except OSError:
            continue
    return versions


def covered_by_resync(version, seen, resyncs):
    """Whether a subscriber that missed `version` got the game as stored by a resync instead:
    the first version it saw after `version` is one a replica resent after its bus came back."""
    after = [v for v in seen if v > version]
    return bool(after) and min(after) in resyncs


class Subscriber(threading.Thread):
    """One WebSocket through nginx following a game; reconnects (and resubscribes) when its
    connection dies. Records every state it sees with the time it came."""

    def __init__(self, nginx_port, game_id, name):
        super().__init__(daemon=True)
        self.nginx_port = nginx_port
        self.game_id = game_id
        self.name = name
        self.lock = threading.Lock()
        self.seen = []  # (time, version, status)
        self.stopping = False
        self.ws = self._connect()
        self.start()

    def _connect(self):
        ws = topo.WebSocket(self.nginx_port)
        ws.send({"type": "subscribe", "gameId": self.game_id})
        return ws

    def run(self):
        while not self.stopping:
            try:
                message = self.ws.receive(timeout=1.0)
            except socket.timeout:
                continue
            except (ConnectionError, OSError, ValueError):
                self.ws.close()
                while not self.stopping:
                    try:
                        self.ws = self._connect()
                        break
                    except (ConnectionError, OSError):
                        time.sleep(0.2)
                continue
            state = message_state(message)
            if state and state[0] is not None:
                with self.lock:
                    self.seen.append((time.time(), state[0], state[1]))

    def versions(self):
        with self.lock:
            return {version for _, version, _ in self.seen}

    def wait_for_version(self, version, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if any(v >= version for v in self.versions()):
                return True
            time.sleep(0.05)
        return False

    def stop(self):
        self.stopping = True
        self.ws.close()
        self.join(timeout=5)


class Player(threading.Thread):
    """Plays one game through nginx: a random legal move at a time, with the game's version.
    After anything but 200 it reads the game (its version says whether the move was kept) and
    goes on from there. Records every acknowledged answer."""

    def __init__(self, nginx_port, game, tokens, seed, engine_side=None):
        super().__init__(daemon=True)
        self.nginx_port = nginx_port
        self.source = f"127.0.1.{seed + 1}"
        self.game = game
        self.tokens = tokens  # side -> token
        self.engine_side = engine_side
        self.random = random.Random(seed)
        self.acks = []  # (sent, answered, version, moves)
        self.failures = []  # (sent, status, error code, the version the move was sent at)
        self.reads = []  # when the game was read back whole (200)
        self.stop_event = threading.Event()

    def _reload(self):
        while not self.stop_event.is_set():
            try:
                status, body = client_request(self.source, self.nginx_port, "GET",
                                              f"/api/v1/games/{self.game['id']}", timeout=5)
                if status == 200:
                    self.game = body
                    self.reads.append(time.time())
                    return
            except OSError:
                pass
            time.sleep(0.1)

    def run(self):
        while not self.stop_event.is_set() and self.game["status"] == "ongoing":
            turn = self.game["turn"]
            if turn == self.engine_side:
                # The engine owes the reply: wait for it (made on any replica).
                time.sleep(MOVE_PAUSE_S)
                self._reload()
                continue
            legal = self.game.get("legalMoves") or []
            if not legal:
                self._reload()
                continue
            sent = time.time()
            try:
                status, body = client_request(
                    self.source, self.nginx_port, "POST", f"/api/v1/games/{self.game['id']}/moves",
                    {"move": self.random.choice(legal), "version": self.game["version"]},
                    token=self.tokens[turn], timeout=10)
            except OSError:
                status, body = None, None
            if status == 200:
                self.acks.append((sent, time.time(), body["version"], list(body["moves"])))
                self.game = body
            else:
                code = error_code(body)
                self.failures.append((sent, status, code, self.game["version"]))
                self._reload()
            time.sleep(MOVE_PAUSE_S)

    def acks_after(self, moment):
        return [a for a in self.acks if a[0] > moment]


# ---------------------------------------------------------------------------------------------
# The scenario


def create_game(nginx, body):
    status, _, game = http_request(nginx, "POST", "/api/v1/games", body)
    check(status == 201, f"game created ({json.dumps(body)})")
    return game


def metric(port, name):
    try:
        status, _, text = http_request(port, "GET", "/metrics", timeout=2,
                                       extra={"Accept": "text/plain"})
    except OSError:
        return None
    if status != 200 or not isinstance(text, str):
        return None
    for line in text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.split()[-1])
    return None


def scenario_in_sync(topology, args):
    nginx = topology.nginx_port
    result = {"scenario": "in-sync",
              "minReplicaAcks": args.min_replica_acks if args.min_replica_acks is not None else 1}

    people = []
    for i in range(PEOPLE_GAMES):
        game = create_game(nginx, {"engine": {"side": "none"},
                                   "clock": {"initial": PLAYER_CLOCK_MS, "increment": 0}})
        people.append(Player(nginx, game, {"white": game["playerToken"],
                                           "black": game["inviteToken"]}, seed=i))
    engine_game = create_game(nginx, {"engine": {"side": "black", "level": 1}})
    engine_player = Player(nginx, engine_game, {"white": engine_game["playerToken"]}, seed=99,
                           engine_side="black")
    players = people + [engine_player]

    subscribers = []
    for player in players:
        for j in range(SUBSCRIBERS_PER_GAME):
            subscribers.append(Subscriber(nginx, player.game["id"], f"{player.game['id']}/{j}"))
    for s in subscribers:
        check(s.wait_for_version(1, timeout=10), f"subscriber {s.name} got the game")

    for player in players:
        player.start()
    time.sleep(PLAY_BEFORE_KILL_S / 2)

    # The game whose flag falls during the switch: both sides move once, then White never again.
    flag_game = create_game(nginx, {"engine": {"side": "none"},
                                    "clock": {"initial": FLAG_CLOCK_MS, "increment": 0}})
    flag_tokens = {"white": flag_game["playerToken"], "black": flag_game["inviteToken"]}
    flag_watchers = [Subscriber(nginx, flag_game["id"], f"flag/{j}")
                     for j in range(SUBSCRIBERS_PER_GAME)]
    for s in flag_watchers:
        check(s.wait_for_version(1, timeout=10), f"subscriber {s.name} got the flag game")
    for uci, side in (("e2e4", "white"), ("e7e5", "black")):
        status, _, flag_game = http_request(
            nginx, "POST", f"/api/v1/games/{flag_game['id']}/moves",
            {"move": uci, "version": flag_game["version"]}, token=flag_tokens[side])
        check(status == 200, f"flag game: {uci}")
    # White's clock runs from Black's move: the flag falls FLAG_CLOCK_MS later at the latest.
    flag_deadline = time.time() + FLAG_CLOCK_MS / 1000
    flag_version = flag_game["version"]

    time.sleep(PLAY_BEFORE_KILL_S / 2)
    before = {p.game["id"]: len(p.acks) for p in players}
    check(all(n >= 3 for n in before.values()), f"moves acknowledged before the kill: {before}")

    primary_port = topology.redis_ports[0]
    check(topology.sentinel_primary() == primary_port, "the sentinels name the first primary")
    killed_at = time.time()
    topology.kill_redis_node(0)
    # A game that ended before the kill (a random mover meets a mate) has nothing left to play.
    playing = [p for p in players if p.game["status"] == "ongoing"]
    check(len(playing) >= PEOPLE_GAMES, f"{len(playing)} games going on at the kill")
    log(f"killed the Redis primary (port {primary_port}) with SIGKILL; flag due in "
        f"{flag_deadline - killed_at:.1f} s")

    # Play on until each game has its share of acknowledged moves after the kill.
    deadline = killed_at + RECOVERY_TIMEOUT_S
    while time.time() < deadline:
        if all(len(p.acks_after(killed_at)) >= ACKS_AFTER_FAILOVER or p.game["status"] != "ongoing"
               for p in playing):
            break
        time.sleep(0.1)
    for p in players:
        p.stop_event.set()
    for p in players:
        p.join(timeout=15)

    firsts = [p.acks_after(killed_at)[0][1] for p in playing if p.acks_after(killed_at)]
    check(firsts, "a move was acknowledged after the kill")
    window = min(firsts) - killed_at
    result["unavailableS"] = round(window, 3)
    result["lastGameBackS"] = round(max(firsts) - killed_at, 3)
    # A game that ended by the engine's reply made just before the kill (the random mover was
    # mated), read back whole from the new primary, has no move of its player to acknowledge.
    ended = [p for p in playing if not p.acks_after(killed_at) and p.game["status"] != "ongoing"
             and any(t > killed_at for t in p.reads)]
    for p in ended:
        log(f"game {p.game['id']} read back after the kill, ended: {p.game['status']} "
            f"({p.game.get('result')}, {len(p.game.get('moves', []))} plies)")
    check(len(firsts) + len(ended) == len(playing),
          "every game going on was played again (or read back ended) after the kill")
    log(f"first acknowledged move {window:.2f} s after the kill; every game back after "
        f"{max(firsts) - killed_at:.2f} s")
    check(window <= BACK_WITHIN_S, f"moves acknowledged again within {BACK_WITHIN_S:.0f} s of "
                                   f"the kill ({window:.2f} s)")
    new_primary = topology.sentinel_primary()
    check(new_primary in topology.redis_ports[1:],
          f"the sentinels promoted a replica (port {new_primary})")

    # Move latency before the kill (the cost of WAIT is in it).
    latencies = sorted(a[1] - a[0] for p in people for a in p.acks if a[1] < killed_at)
    result["moveLatencyMs"] = {
        "median": round(1000 * statistics.median(latencies), 2),
        "p90": round(1000 * latencies[int(0.9 * (len(latencies) - 1))], 2),
        "moves": len(latencies)}

    # No acknowledged move lost.
    lost = []
    finals = {}
    for p in players:
        status, _, final = http_request(nginx, "GET", f"/api/v1/games/{p.game['id']}")
        check(status == 200, f"game {p.game['id']} read after the failover")
        finals[p.game["id"]] = final
        for _, _, version, moves in p.acks:
            if final["moves"][:len(moves)] != moves:
                lost.append((p.game["id"], version))
    acked = sum(len(p.acks) for p in players)
    result["acknowledgedMoves"] = acked
    result["lostAcknowledged"] = len(lost)
    if args.min_replica_acks == 0:
        log(f"without WAIT: {len(lost)} acknowledged moves lost of {acked} (not checked)")
    else:
        check(not lost, f"no acknowledged move lost ({acked} acknowledged): {lost[:5]}")

    # Every subscriber sees every move acknowledged after the failover, and the final state.
    # One exception is the contract's (docs/events.md): a move published while a replica's bus
    # was still moving to the new primary reaches that replica's subscribers inside the game
    # as stored, which the replica sends when its bus is back (logged as bus_resync); the
    # subscriber sees the version jump over it and a client reads the game again.
    for p in players:
        final = finals[p.game["id"]]
        later = {a[2] for a in p.acks_after(killed_at)}
        resyncs = bus_resync_versions(topology, p.game["id"])
        for s in (s for s in subscribers if s.game_id == p.game["id"]):
            check(s.wait_for_version(final["version"], timeout=10),
                  f"{s.name} reached the final version {final['version']}")
            seen = s.versions()
            missing = sorted(later - seen)
            unexplained = [v for v in missing if not covered_by_resync(v, seen, resyncs)]
            check(not unexplained,
                  f"{s.name} saw the {len(later)} moves acknowledged after the kill, or the "
                  f"resync that carried them (missing: {missing}; bus_resync versions: "
                  f"{sorted(resyncs)}; not explained by one: {unexplained})")

    # The engine's reply owed when the players stopped is made.
    engine_id = engine_player.game["id"]
    deadline = time.time() + 15
    while time.time() < deadline:
        status, _, game = http_request(nginx, "GET", f"/api/v1/games/{engine_id}")
        if status == 200 and (game["turn"] == "white" or game["status"] != "ongoing"):
            break
        time.sleep(0.2)
    check(game["turn"] == "white" or game["status"] != "ongoing",
          f"the engine replied in its game ({len(game['moves'])} moves)")

    # The flag that fell during the switch fell once, on time.
    deadline = max(flag_deadline, time.time()) + 15
    while time.time() < deadline:
        status, _, flagged = http_request(nginx, "GET", f"/api/v1/games/{flag_game['id']}")
        if status == 200 and flagged["status"] != "ongoing":
            break
        time.sleep(0.2)
    check(flagged["status"] == "timeout" and flagged.get("winner") == "black",
          f"the flag fell: status {flagged['status']}, result {flagged.get('result')}")
    check(flagged["moves"] == ["e2e4", "e7e5"] and flagged["version"] == flag_version + 1,
          f"once: one write after the last move (version {flagged['version']})")
    for s in flag_watchers:
        check(s.wait_for_version(flagged["version"], timeout=10), f"{s.name} saw the flag fall")
        with s.lock:
            ends = sorted({v for _, v, st in s.seen if st not in (None, "ongoing")})
            seen_at = min((t for t, v, st in s.seen if st == "timeout"), default=None)
        check(ends == [flagged["version"]], f"{s.name} saw one end of the game: {ends}")
    late = seen_at - flag_deadline
    result["flagLateS"] = round(late, 3)
    result["flagDueAfterKillS"] = round(flag_deadline - killed_at, 3)
    check(late <= max(window, 0) + 3.0,
          f"the flag fell {late:.2f} s after its deadline (the switch took {window:.2f} s)")

    # Each server followed the primary change and says so.
    for port in topology.replica_ports:
        changes = metric(port, "outpost_redis_primary_changes_total")
        check(changes is not None and changes >= 1,
              f"replica on port {port}: outpost_redis_primary_changes_total {changes}")

    for s in subscribers + flag_watchers:
        s.stop()

    # The old primary, restarted as it was (no replicaof), is made a replica of the new one by
    # the sentinels.
    restarted_at = time.time()
    topology.start_redis_node(0)
    deadline = restarted_at + REJOIN_TIMEOUT_S
    fields = {}
    while time.time() < deadline:
        try:
            fields = info_fields(primary_port)
        except OSError:
            fields = {}
        if (fields.get("role") == "slave" and fields.get("master_port") == str(new_primary)
                and fields.get("master_link_status") == "up"):
            break
        time.sleep(0.25)
    check(fields.get("role") == "slave" and fields.get("master_link_status") == "up",
          f"the old primary rejoined as a replica of port {new_primary} "
          f"({time.time() - restarted_at:.1f} s after its restart)")
    result["rejoinS"] = round(time.time() - restarted_at, 3)
    return result




def lost_writes(nginx, acked_games):
    """The acknowledged states missing from the games as stored now: acked_games maps a game id
    to the moves lists of its acknowledged writes (its creation: [])."""
    lost = []
    for game_id, acks in acked_games.items():
        status, _, final = http_request(nginx, "GET", f"/api/v1/games/{game_id}")
        if status != 200:
            lost.append((game_id, "game", status))
            continue
        lost += [(game_id, len(moves)) for moves in acks if final["moves"][:len(moves)] != moves]
    return lost


def scenario_first_sync(topology, args):
    """Writes while the replicas are in their first sync, then the primary dies."""
    nginx = topology.nginx_port
    result = {"scenario": "first-sync"}
    for port in topology.replica_ports:
        status, _, body = http_request(port, "GET", "/readyz", debug=False)
        check(status == 503 and body.get("status") == "not_ready",
              f"replica on port {port} is not ready while no Redis replica is in sync ({status})")
    check(all(info_fields(p).get("master_link_status") != "up"
              for p in topology.redis_ports[1:]), "the replicas are still in their first sync")

    # Players try to create games and move, as right after a cluster starts.
    acked = {}  # game id -> moves of each acknowledged write
    refusals = {}
    tries = 0

    def attempt():
        nonlocal tries
        tries += 1
        # A client address of its own for each try: nginx limits creations per address.
        source = f"127.0.2.{tries % 250 + 1}"
        status, body = client_request(source, nginx, "POST", "/api/v1/games", {
            "engine": {"side": "none"}, "clock": {"initial": PLAYER_CLOCK_MS, "increment": 0}})
        if status != 201:
            code = f"{status} {error_code(body)}"
            refusals[code] = refusals.get(code, 0) + 1
            return None
        acked[body["id"]] = [[]]
        tokens = {"white": body["playerToken"], "black": body["inviteToken"]}
        for uci in ("e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"):
            status, moved = client_request(
                source, nginx, "POST", f"/api/v1/games/{body['id']}/moves",
                {"move": uci, "version": body["version"]}, token=tokens[body["turn"]])
            if status != 200:
                code = f"{status} {error_code(moved)}"
                refusals[code] = refusals.get(code, 0) + 1
                break
            body = moved
            acked[body["id"]].append(list(body["moves"]))
        return time.time()

    until = time.time() + FIRST_SYNC_PLAY_S
    while time.time() < until:
        attempt()
        time.sleep(0.1)
    result["triesBeforeKill"] = tries
    result["acknowledgedBeforeKill"] = sum(len(a) for a in acked.values())
    result["refusals"] = refusals
    log(f"during the first sync: {tries} games tried, {result['acknowledgedBeforeKill']} writes "
        f"acknowledged, refusals {refusals}")
    check(all(code.startswith("503 ") for code in refusals),
          f"writes refused with 503 while no replica is in sync: {refusals}")

    check(topology.sentinel_primary() == topology.redis_ports[0], "the sentinels name the primary")
    killed_at = time.time()
    topology.kill_redis_node(0)
    log("killed the Redis primary during its replicas' first sync")

    # Writes come back once a replica is promoted and the other has synced from it.
    back_at = None
    while time.time() < killed_at + RECOVERY_TIMEOUT_S:
        try:
            before = len(acked)
            done = attempt()
            if len(acked) > before and done:
                back_at = done
                break
        except OSError:
            pass
        time.sleep(0.1)
    check(back_at is not None, f"writes acknowledged again within {RECOVERY_TIMEOUT_S} s")
    result["writesBackS"] = round(back_at - killed_at, 3)
    log(f"writes acknowledged again {back_at - killed_at:.2f} s after the kill")
    check(topology.sentinel_primary() in topology.redis_ports[1:], "a replica was promoted")

    lost = lost_writes(nginx, acked)
    result["acknowledgedWrites"] = sum(len(a) for a in acked.values())
    result["lostAcknowledged"] = len(lost)
    check(not lost, f"no acknowledged write lost ({result['acknowledgedWrites']}): {lost[:5]}")
    return result


def scenario_partition(topology, args):
    """Both replicas cut off for longer than repl-timeout while the players move; then the
    primary dies and the replicas come back."""
    nginx = topology.nginx_port
    result = {"scenario": "partition"}
    players = []
    for i in range(PEOPLE_GAMES):
        game = create_game(nginx, {"engine": {"side": "none"},
                                   "clock": {"initial": PLAYER_CLOCK_MS, "increment": 0}})
        players.append(Player(nginx, game, {"white": game["playerToken"],
                                            "black": game["inviteToken"]}, seed=i))
    subscribers = [Subscriber(nginx, p.game["id"], f"{p.game['id']}/0") for p in players]
    for s in subscribers:
        check(s.wait_for_version(1, timeout=10), f"subscriber {s.name} got the game")
    for p in players:
        p.start()
    time.sleep(PLAY_BEFORE_KILL_S / 2)
    check(all(len(p.acks) >= 2 for p in players), "moves acknowledged before the partition")

    primary = topology.redis_ports[0]
    cut_at = time.time()
    for index in range(1, len(topology.redis_ports)):
        topology.signal_redis_node(index, signal.SIGSTOP)
    log("both Redis replicas stopped (cut off from the primary)")
    dropped_at = None
    while time.time() < cut_at + REPL_TIMEOUT_S + 10:
        if info_fields(primary).get("connected_slaves") == "0":
            dropped_at = time.time()
            break
        time.sleep(0.1)
    check(dropped_at is not None, "the primary dropped its silent replicas (repl-timeout)")
    # Play on past the drop: before issue 34 these moves were acknowledged by the primary alone.
    time.sleep(1.5)
    result["partitionS"] = round(time.time() - cut_at, 3)
    result["droppedAfterS"] = round(dropped_at - cut_at, 3)

    killed_at = time.time()
    topology.kill_redis_node(0)
    for index in range(1, len(topology.redis_ports)):
        topology.signal_redis_node(index, signal.SIGCONT)
    log(f"killed the primary {killed_at - cut_at:.1f} s into the partition; replicas back")

    during = [a for p in players for a in p.acks if cut_at < a[0] and a[1] < killed_at]
    failures = [f for p in players for f in p.failures if cut_at < f[0] < killed_at]
    codes = {}
    for f in failures:
        codes[f"{f[1]} {f[2]}"] = codes.get(f"{f[1]} {f[2]}", 0) + 1
    result["acknowledgedDuringPartition"] = len(during)
    result["refusedDuringPartition"] = codes
    log(f"during the partition: {len(during)} moves acknowledged, refused {codes}")
    check(not during, f"no move acknowledged while no replica had it: {len(during)}")
    check(codes.get("503 store_unavailable", 0) > 0,
          f"moves refused unwritten once the replicas fell behind: {codes}")

    # Unconfirmed moves were on the primary: their subscribers saw them.
    unconfirmed = [(p, f) for p in players for f in p.failures
                   if cut_at < f[0] < killed_at and f[2] == "write_unconfirmed"]
    result["unconfirmedDuringPartition"] = len(unconfirmed)
    for p, f in unconfirmed:
        s = next(s for s in subscribers if s.game_id == p.game["id"])
        check(f[3] + 1 in s.versions(),
              f"{s.name} saw the unconfirmed move (version {f[3] + 1})")

    deadline = killed_at + RECOVERY_TIMEOUT_S
    while time.time() < deadline:
        if all(len(p.acks_after(killed_at)) >= ACKS_AFTER_FAILOVER or p.game["status"] != "ongoing"
               for p in players):
            break
        time.sleep(0.1)
    for p in players:
        p.stop_event.set()
    for p in players:
        p.join(timeout=15)
    for s in subscribers:
        s.stop()
    firsts = [p.acks_after(killed_at)[0][1] for p in players if p.acks_after(killed_at)]
    check(firsts, "a move was acknowledged after the kill")
    window = min(firsts) - killed_at
    result["unavailableS"] = round(window, 3)
    result["lastGameBackS"] = round(max(firsts) - killed_at, 3)
    log(f"first acknowledged move {window:.2f} s after the kill")
    check(window <= BACK_WITHIN_S, f"moves acknowledged again within {BACK_WITHIN_S:.0f} s of "
                                   f"the kill ({window:.2f} s)")
    check(topology.sentinel_primary() in topology.redis_ports[1:], "a replica was promoted")

    acked = {p.game["id"]: [[]] + [a[3] for a in p.acks] for p in players}
    lost = lost_writes(nginx, acked)
    result["acknowledgedMoves"] = sum(len(p.acks) for p in players)
    result["lostAcknowledged"] = len(lost)
    check(not lost, f"no acknowledged move lost ({result['acknowledgedMoves']}): {lost[:5]}")
    return result


SCENARIOS = {"in-sync": scenario_in_sync, "first-sync": scenario_first_sync,
             "partition": scenario_partition}


def run_once(args, name):
    workdir = tempfile.mkdtemp(prefix=f"outpost-failover-{name}-")
    os.chmod(workdir, 0o755)
    args = argparse.Namespace(**vars(args))
    if not args.web_root:
        args.web_root = workdir
    topology = FailoverTopology(args, workdir, held_sync=(name == "first-sync"))
    started = time.time()
    try:
        topology.start_all()
        result = SCENARIOS[name](topology, args)
        result["testS"] = round(time.time() - started, 1)
        print("FAILOVER_RESULT " + json.dumps(result), flush=True)
        log(f"{name}: PASSED in {time.time() - started:.1f} s")
        return True
    except (TestFailure, OSError, KeyError, ValueError) as error:
        log(f"{name}: FAILED: {error!r}")
        topology.dump_logs()
        return False
    finally:
        topology.kill_all()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            log(f"work folder kept: {workdir}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--server", required=True)
    parser.add_argument("--redis", required=True)
    parser.add_argument("--nginx", required=True)
    parser.add_argument("--proxy-conf", required=True)
    parser.add_argument("--http-conf", default="")
    parser.add_argument("--web-root", default="")
    parser.add_argument("--min-replica-acks", type=int, default=None,
                        help="passed to the servers (default: theirs, 1 with Sentinel; 0 runs "
                             "them in the unreplicated mode)")
    parser.add_argument("--scenario", action="append", choices=sorted(SCENARIOS),
                        help="in-sync (the default), first-sync or partition; repeatable")
    parser.add_argument("--runs", type=int, default=1, help="runs of each scenario")
    parser.add_argument("--keep", action="store_true", help="keep the work folders")
    args = parser.parse_args()
    args.proxy_conf = os.path.abspath(args.proxy_conf)
    args.http_conf = os.path.abspath(
        args.http_conf or os.path.join(os.path.dirname(args.proxy_conf), "outpost-http.conf"))
    failed = 0
    for name in args.scenario or ["in-sync"]:
        for run in range(args.runs):
            log(f"scenario {name}, run {run + 1} of {args.runs}")
            if not run_once(args, name):
                failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    sys.exit(main())
