#!/usr/bin/env python3
"""The deployment topology without containers: redis-server, three outpost-server replicas and
nginx (with docker/outpost-proxy.conf, the rules the compose file ships) on loopback.

  1. A game is played through nginx; the requests land on different replicas.
  2. WebSocket subscribers through nginx (on every replica) see every move, also moves made
     through other replicas (Redis pub/sub).
  3. The replica running the engine's search is killed with SIGKILL mid-search: no acknowledged
     move is lost, the game goes on through the other replicas, and the subscriber that was on the
     dead replica reconnects and catches up.
  4. Everything (nginx, replicas, Redis) is killed and started again: the game is intact and
     playable.
  5. The embedded default: one outpost-server started with no store flags at all (so the SQLite
     file outpost-games.db in its working directory), killed with SIGKILL while moves are being
     played, restarted: every acknowledged move is there.

Only the Python standard library is used (a small RFC 6455 client is below). Run it through
scripts/topology_test.sh, which finds the programs. Exit status 0: passed, 1: failed, 77: skipped.
"""

import argparse
import base64
import http.client
import json
import os
import random
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

REPLICAS = 3
# The engine's replies in the game are quick; the search that gets killed is long enough to be
# found running and killed mid-way.
GAME_ENGINE_LIMITS = {"depth": 2}
LONG_SEARCH_MS = 20000
START_TIMEOUT_S = 20
KILL_AFTER_MOVES = 12  # SQLite scenario: acknowledged moves before the SIGKILL
# nginx's address towards the replicas (--trusted-proxies); clients are 127.0.0.1.
PROXY_ADDRESS = "127.0.0.2"


def log(message):
    print(f"[topology {time.strftime('%H:%M:%S')}] {message}", flush=True)


class TestFailure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise TestFailure(message)
    log(f"ok: {message}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------------------------------------
# HTTP and WebSocket clients


def http_request(port, method, path, body=None, token=None, timeout=30, debug=True, extra=None):
    """Returns (status, headers dict with lower-case names, parsed JSON or text). `debug` asks
    nginx which replica answered (X-Outpost-Debug: 1; nginx answers it only on loopback)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Accept": "application/json"}
    if debug:
        headers["X-Outpost-Debug"] = "1"
    headers.update(extra or {})
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
        response_headers = {k.lower(): v for k, v in response.getheaders()}
    finally:
        conn.close()
    try:
        payload = json.loads(raw) if raw else None
    except ValueError:
        payload = raw.decode(errors="replace")
    return response.status, response_headers, payload


class WebSocket:
    """A minimal client: handshake, masked text frames out, text/ping/close frames in."""

    def __init__(self, port, path="/api/v1/ws", timeout=10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
            "X-Outpost-Debug: 1\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the WebSocket handshake")
            head += chunk
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        lines = head.decode(errors="replace").split("\r\n")
        if " 101 " not in lines[0] + " ":
            raise ConnectionError(f"WebSocket handshake refused: {lines[0]}")
        self.headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()
        self.upstream = upstream_of(self.headers)

    def send(self, message):
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def _read_exact(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("WebSocket closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send_control(self, opcode, payload):
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def receive(self, timeout):
        """Returns the next JSON message; raises ConnectionError when the connection ends and
        socket.timeout when nothing arrives in time."""
        self.sock.settimeout(timeout)
        message = b""
        while True:
            first, second = self._read_exact(2)
            opcode = first & 0x0F
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read_exact(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read_exact(8))[0]
            payload = self._read_exact(length)
            if opcode == 0x8:
                raise ConnectionError("WebSocket closed by the server")
            if opcode == 0x9:
                self._send_control(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if first & 0x80:
                return json.loads(message)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


class Subscriber:
    """Watches one game over a WebSocket through nginx, on a thread; reconnects (through nginx,
    so to a live replica) when its connection dies, and resubscribes."""

    def __init__(self, nginx_port, game_id, name):
        self.nginx_port = nginx_port
        self.game_id = game_id
        self.name = name
        self.lock = threading.Lock()
        self.versions = []  # versions of the gameFull and gameState messages seen, in order
        self.games = {}  # version -> moves
        self.upstreams = []  # replica of each connection, in order
        self.reconnects = 0
        self.stopping = False
        self.ws = self._connect()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _connect(self):
        ws = WebSocket(self.nginx_port)
        ws.send({"type": "subscribe", "gameId": self.game_id})
        with self.lock:
            self.upstreams.append(ws.upstream)
        return ws

    def _run(self):
        while not self.stopping:
            try:
                message = self.ws.receive(timeout=1.0)
            except socket.timeout:
                continue
            except (ConnectionError, OSError, ValueError):
                if self.stopping:
                    return
                self.ws.close()
                while not self.stopping:
                    try:
                        self.ws = self._connect()
                        with self.lock:
                            self.reconnects += 1
                        log(f"{self.name}: reconnected through nginx to {self.ws.upstream}")
                        break
                    except (ConnectionError, OSError):
                        time.sleep(0.2)
                continue
            if message.get("type") == "gameFull":
                game = message.get("game", {})
                with self.lock:
                    self.versions.append(game.get("version"))
                    self.games[game.get("version")] = list(game.get("moves", []))
            elif message.get("type") == "gameState":
                # A change: the state after it (the move list is in gameFull and GET only).
                with self.lock:
                    self.versions.append(message.get("version"))

    def latest_version(self):
        with self.lock:
            return max(self.versions) if self.versions else 0

    def wait_for_version(self, version, timeout=15):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.latest_version() >= version:
                return True
            time.sleep(0.05)
        return False

    def stop(self):
        self.stopping = True
        self.ws.close()
        self.thread.join(timeout=5)


# ---------------------------------------------------------------------------------------------
# The processes


class Topology:
    def __init__(self, args, workdir):
        self.args = args
        self.workdir = workdir
        self.redis_port = free_port()
        self.replica_ports = [free_port() for _ in range(REPLICAS)]
        self.nginx_port = free_port()
        self.redis = None
        self.replicas = [None] * REPLICAS
        self.nginx = None
        self.logs = []

    def _spawn(self, name, argv):
        path = os.path.join(self.workdir, f"{name}.log")
        handle = open(path, "ab")
        self.logs.append(path)
        # A session of its own, so SIGKILL reaches the whole process group (nginx's workers
        # would otherwise outlive their master and keep the port).
        return subprocess.Popen(argv, stdout=handle, stderr=subprocess.STDOUT, cwd=self.workdir,
                                start_new_session=True)

    def start_redis(self):
        data = os.path.join(self.workdir, "redis")
        os.makedirs(data, exist_ok=True)
        # Append-only file fsynced at every write, as in docker/compose.yaml: an acknowledged
        # move is on disk before the replica answers.
        self.redis = self._spawn("redis", [
            self.args.redis, "--port", str(self.redis_port), "--bind", "127.0.0.1",
            "--dir", data, "--save", "", "--appendonly", "yes", "--appendfsync", "always"])
        self._wait(lambda: self._redis_ping(), "redis-server")

    def _redis_ping(self):
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def replica_command(self, index, port):
        """How replica `index` is started (tests/deploy/image_test.py runs it from the image)."""
        return [
            self.args.server, "--bind", "127.0.0.1", "--port", str(port),
            "--store", "redis", "--redis-url", f"redis://127.0.0.1:{self.redis_port}",
            "--threads", "1", "--hash", "16", "--trusted-proxies", PROXY_ADDRESS,
            "--web-root", self.args.web_root]

    def start_replica(self, index):
        port = self.replica_ports[index]
        self.replicas[index] = self._spawn(f"replica-{index + 1}",
                                           self.replica_command(index, port))
        self._wait(lambda: self._ready(port), f"replica {index + 1} (port {port})")

    def _ready(self, port):
        try:
            status, _, _ = http_request(port, "GET", "/readyz", timeout=2)
            return status == 200
        except OSError:
            return False

    def start_nginx(self):
        conf = os.path.join(self.workdir, "nginx.conf")
        servers = "\n".join(
            f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in self.replica_ports)
        user = "user root;\n" if os.geteuid() == 0 else ""
        with open(conf, "w") as f:
            f.write(f"""{user}worker_processes 1;
daemon off;
pid {self.workdir}/nginx.pid;
error_log {self.workdir}/nginx-error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log {self.workdir}/nginx-access.log;
    client_body_temp_path {self.workdir}/nginx-body;
    proxy_temp_path {self.workdir}/nginx-proxy;
    fastcgi_temp_path {self.workdir}/nginx-fastcgi;
    uwsgi_temp_path {self.workdir}/nginx-uwsgi;
    scgi_temp_path {self.workdir}/nginx-scgi;
    include {self.args.http_conf};
    # nginx reaches the replicas from an address of its own, as in compose, so that the
    # replicas can tell it from the clients (which connect from 127.0.0.1 here).
    proxy_bind {PROXY_ADDRESS};
    upstream outpost {{
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{self.nginx_port};
        include {self.args.proxy_conf};
    }}
}}
""")
        self.nginx = self._spawn("nginx", [self.args.nginx, "-p", self.workdir, "-c", conf])
        self._wait(lambda: self._ready(self.nginx_port), f"nginx (port {self.nginx_port})")

    def start_all(self):
        self.start_redis()
        for i in range(REPLICAS):
            self.start_replica(i)
        self.start_nginx()

    def _wait(self, condition, what):
        deadline = time.time() + START_TIMEOUT_S
        while time.time() < deadline:
            if condition():
                return
            time.sleep(0.1)
        raise TestFailure(f"{what} did not start within {START_TIMEOUT_S} s")

    @staticmethod
    def _kill(process):
        if process and process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def kill_replica(self, index):
        self._kill(self.replicas[index])
        self.replicas[index] = None

    def kill_all(self):
        self._kill(self.nginx)
        for i in range(REPLICAS):
            self.kill_replica(i)
        self._kill(self.redis)

    def dump_logs(self):
        for path in self.logs + [os.path.join(self.workdir, "nginx-error.log")]:
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    lines = f.readlines()[-40:]
                print(f"----- {os.path.basename(path)} (last {len(lines)} lines)")
                sys.stdout.writelines(lines)


def upstream_of(headers):
    """The replica that answered: nginx lists every replica it tried, the last one answered."""
    return (headers.get("x-outpost-upstream") or "?").split(",")[-1].strip()


def searches_running(port):
    try:
        status, _, text = http_request(port, "GET", "/metrics", timeout=2,
                                       extra={"Accept": "text/plain"})
    except OSError:
        return 0
    if status != 200 or not isinstance(text, str):
        return 0
    for line in text.splitlines():
        if line.startswith("outpost_searches_running"):
            return float(line.split()[-1])
    return 0


# ---------------------------------------------------------------------------------------------
# The scenario


def play(topology):
    nginx = topology.nginx_port
    upstreams = set()
    acknowledged = []  # the moves the server acknowledged, in order (ours and the engine's)

    status, headers, game = http_request(
        nginx, "POST", "/api/v1/games", {"engine": {"side": "black", "limits": GAME_ENGINE_LIMITS}})
    check(status == 201, f"game created through nginx (status {status})")
    upstreams.add(upstream_of(headers))
    game_id, token = game["id"], game["playerToken"]

    # Subscribers until every replica holds one, so one of them is on whichever replica dies.
    subscribers = []
    for attempt in range(3 * REPLICAS):
        subscribers.append(Subscriber(nginx, game_id, f"subscriber-{attempt + 1}"))
        if len({s.upstreams[0] for s in subscribers}) == REPLICAS:
            break
    check(len({s.upstreams[0] for s in subscribers}) == REPLICAS,
          f"WebSocket subscribers through nginx on all {REPLICAS} replicas")
    for s in subscribers:
        check(s.wait_for_version(game["version"]), f"{s.name} got the game on subscribing")

    def move(uci):
        nonlocal game
        status, headers, body = http_request(
            nginx, "POST", f"/api/v1/games/{game_id}/moves",
            {"move": uci, "version": game["version"], "wait": True}, token=token)
        check(status == 200, f"move {uci} accepted through {upstream_of(headers)}")
        upstreams.add(upstream_of(headers))
        game = body
        acknowledged[:] = list(game["moves"])

    for uci in ["e2e4", "g1f3", "f1c4"]:
        if uci in game.get("legalMoves", [uci]):
            move(uci)
        else:
            move(game["legalMoves"][0])
    check(len(upstreams) >= 2, f"requests landed on different replicas: {sorted(upstreams)}")
    for s in subscribers:
        check(s.wait_for_version(game["version"]),
              f"{s.name} (on {s.upstreams[0]}) saw every move, whichever replica made it")

    # A long engine search (the engine plays White's move here), then SIGKILL its replica.
    result = {}

    def long_search():
        try:
            result["response"] = http_request(
                nginx, "POST", f"/api/v1/games/{game_id}/engine-move",
                {"limits": {"movetime": LONG_SEARCH_MS}}, token=token, timeout=60)
        except OSError as error:
            result["error"] = error

    searcher = threading.Thread(target=long_search)
    searcher.start()
    victim = None
    deadline = time.time() + 10
    while victim is None and time.time() < deadline:
        for i, port in enumerate(topology.replica_ports):
            if searches_running(port) > 0:
                victim = i
                break
        time.sleep(0.05)
    check(victim is not None, "found the replica running the engine search")
    victim_address = f"127.0.0.1:{topology.replica_ports[victim]}"
    topology.kill_replica(victim)
    log(f"killed replica {victim + 1} ({victim_address}) with SIGKILL mid-search")
    searcher.join(timeout=60)
    status = result.get("response", (None,))[0]
    check(status != 200, f"the interrupted engine move was not acknowledged (status {status})")

    status, headers, stored = http_request(nginx, "GET", f"/api/v1/games/{game_id}")
    check(status == 200, f"the game is served by a surviving replica ({upstream_of(headers)})")
    check(stored["moves"] == acknowledged,
          f"no acknowledged move lost: {len(acknowledged)} moves, version {stored['version']}")
    game = stored

    # The game goes on: the engine move again (quick this time), then a move of ours.
    status, headers, body = http_request(
        nginx, "POST", f"/api/v1/games/{game_id}/engine-move", {"limits": {"depth": 2}}, token=token)
    check(status == 200, f"engine move retried on {upstream_of(headers)}")
    check(upstream_of(headers) != victim_address, "the dead replica was not used")
    game = body
    acknowledged[:] = list(game["moves"])
    if game.get("turn") == "black":
        # The engine played White's move on request; Black is the engine's side in this game.
        status, headers, body = http_request(
            nginx, "POST", f"/api/v1/games/{game_id}/engine-move", {}, token=token)
        check(status == 200, f"engine replied as Black on {upstream_of(headers)}")
        game = body
        acknowledged[:] = list(game["moves"])
    move(game["legalMoves"][0])

    orphaned = [s for s in subscribers if s.upstreams[0] == victim_address]
    check(orphaned, "a subscriber was connected to the killed replica")
    for s in subscribers:
        check(s.wait_for_version(game["version"], timeout=20),
              f"{s.name} is up to date (version {game['version']}, reconnects: {s.reconnects})")
    for s in orphaned:
        check(s.reconnects >= 1 and s.upstreams[-1] != victim_address,
              f"{s.name} reconnected to {s.upstreams[-1]}")
    for s in subscribers:
        s.stop()

    proxy_rules(topology, game_id)

    # Restart everything, hard.
    topology.kill_all()
    log("killed nginx, every replica and redis-server with SIGKILL; starting them again")
    topology.start_all()
    status, _, restored = http_request(nginx, "GET", f"/api/v1/games/{game_id}")
    check(status == 200, "the game is there after the restart")
    check(restored["moves"] == game["moves"] and restored["version"] == game["version"],
          f"the game is intact: {len(restored['moves'])} moves, version {restored['version']}")
    game = restored
    move(game["legalMoves"][0])
    check(len(game["moves"]) > len(restored["moves"]), "and it can be played on")


def proxy_rules(topology, game_id):
    """What the shipped proxy rules hide and limit (docs/security.md)."""
    nginx = topology.nginx_port
    status, headers, _ = http_request(nginx, "GET", f"/api/v1/games/{game_id}", debug=False)
    check(status == 200 and "x-outpost-upstream" not in headers,
          "X-Outpost-Upstream only for a loopback client that asks for it")
    status, _, _ = http_request(nginx, "GET", "/metrics")
    check(status == 404, f"/metrics is not served through nginx (status {status})")
    status, _, text = http_request(topology.replica_ports[0] if topology.replicas[0] else
                                   topology.replica_ports[1], "GET", "/metrics")
    check(status == 200 and "outpost_http_requests_total" in text,
          "a replica serves /metrics directly (what Prometheus scrapes)")

    # Invented first hops of X-Forwarded-For: nginx appends the address it saw, the replicas key
    # on that one, so every request below counts against 127.0.0.1 alone.
    status, headers, _ = http_request(nginx, "GET", "/healthz?probe=xff",
                                      extra={"X-Forwarded-For": "198.51.100.1, 198.51.100.2"})
    check(status == 200, "a request with an invented X-Forwarded-For is served")
    replica = topology.replica_ports.index(int(upstream_of(headers).rsplit(":", 1)[1]))
    clients = []
    deadline = time.time() + 5
    while not clients and time.time() < deadline:
        with open(os.path.join(topology.workdir, f"replica-{replica + 1}.log"), errors="replace") as f:
            for line in f:
                if '"target":"/healthz?probe=xff"' in line:
                    clients.append(json.loads(line).get("client"))
        time.sleep(0.05)
    check(clients == ["127.0.0.1"],
          f"the replica keyed it on the address nginx saw, not an invented hop: {clients}")

    # A burst far beyond the request rate: nginx answers 429 with Retry-After and a JSON error.
    statuses = []
    limited = None
    for _ in range(120):
        status, headers, body = http_request(nginx, "GET", "/healthz", debug=False)
        statuses.append(status)
        if status == 429 and limited is None:
            limited = (headers, body)
    check(statuses.count(200) >= 20, f"the burst allowance is served ({statuses.count(200)} x 200)")
    check(limited is not None and limited[0].get("retry-after") == "1"
          and isinstance(limited[1], dict) and limited[1]["error"]["code"] == "rate_limited",
          f"beyond it: 429 rate_limited with Retry-After ({statuses.count(429)} x 429)")
    time.sleep(3)  # the bucket refills (20 per second) before the scenario goes on


DEFAULT_SQLITE_FILE = "outpost-games.db"  # the server's default --sqlite-path


def sqlite_kill9(args, workdir):
    """One server with the default store: SIGKILL while a client plays moves, then restart.
    No store flag is given (nor OUTPOST_STORE / OUTPOST_SQLITE_PATH), so this is what a plain
    `outpost-server` does."""
    port = free_port()
    serverdir = os.path.join(workdir, "default-store")
    os.makedirs(serverdir, exist_ok=True)
    db = os.path.join(serverdir, DEFAULT_SQLITE_FILE)
    argv = [args.server, "--bind", "127.0.0.1", "--port", str(port), "--threads", "1",
            "--hash", "16"]
    env = {k: v for k, v in os.environ.items()
           if k not in ("OUTPOST_STORE", "OUTPOST_SQLITE_PATH", "OUTPOST_REDIS_URL")}
    log_path = os.path.join(workdir, "sqlite-server.log")

    def start():
        handle = open(log_path, "ab")
        process = subprocess.Popen(argv, stdout=handle, stderr=subprocess.STDOUT, cwd=serverdir,
                                   env=env)
        deadline = time.time() + START_TIMEOUT_S
        while time.time() < deadline:
            try:
                if http_request(port, "GET", "/readyz", timeout=2)[0] == 200:
                    return process
            except OSError:
                pass
            time.sleep(0.1)
        raise TestFailure("outpost-server --store sqlite did not start")

    server = start()
    try:
        check(os.path.exists(db), f"default store: the server created {DEFAULT_SQLITE_FILE}")
        with open(log_path, errors="replace") as f:
            check('"store":"sqlite:' + DEFAULT_SQLITE_FILE + '"' in f.read(),
                  "default store: the server logged the SQLite store")
        # No engine: the client plays both sides, as fast as it can, from a thread.
        status, _, game = http_request(port, "POST", "/api/v1/games", {"engine": {"side": "none"}})
        check(status == 201, "sqlite: game created")
        # Between people each side has its token: White's is the creator's, Black's the invite.
        game_id, tokens = game["id"], {"white": game["playerToken"], "black": game["inviteToken"]}
        acked = {"moves": [], "version": game["version"]}
        stop = threading.Event()

        chooser = random.Random(7)  # random legal moves: a game long enough to kill mid-way

        def play_moves():
            current = game
            while not stop.is_set() and current["status"] == "ongoing":
                try:
                    status, _, body = http_request(
                        port, "POST", f"/api/v1/games/{game_id}/moves",
                        {"move": chooser.choice(current["legalMoves"]), "version": current["version"]},
                        token=tokens[current["turn"]], timeout=5)
                except OSError:
                    return  # the server died under us: this move was not acknowledged
                if status != 200:
                    return
                current = body
                acked["moves"], acked["version"] = list(body["moves"]), body["version"]

        player = threading.Thread(target=play_moves)
        player.start()
        deadline = time.time() + 10
        while len(acked["moves"]) < KILL_AFTER_MOVES and time.time() < deadline:
            time.sleep(0.01)
        server.send_signal(signal.SIGKILL)
        server.wait()
        stop.set()
        player.join(timeout=10)
        check(len(acked["moves"]) >= KILL_AFTER_MOVES,
              f"sqlite: killed with SIGKILL after {len(acked['moves'])} acknowledged moves")
        server = start()
        status, _, stored = http_request(port, "GET", f"/api/v1/games/{game_id}")
        check(status == 200, "sqlite: the game is there after the restart")
        check(stored["moves"][:len(acked["moves"])] == acked["moves"],
              f"sqlite: every acknowledged move survived ({len(stored['moves'])} stored, "
              f"{len(acked['moves'])} acknowledged)")
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGKILL)
            server.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--server", required=True)
    parser.add_argument("--redis", required=True)
    parser.add_argument("--nginx", required=True)
    parser.add_argument("--proxy-conf", required=True)
    parser.add_argument("--http-conf", default="",
                        help="the http-block rules (default: outpost-http.conf beside --proxy-conf)")
    parser.add_argument("--web-root", default="")
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    args.proxy_conf = os.path.abspath(args.proxy_conf)
    args.http_conf = os.path.abspath(
        args.http_conf or os.path.join(os.path.dirname(args.proxy_conf), "outpost-http.conf"))

    workdir = tempfile.mkdtemp(prefix="outpost-topology-")
    os.chmod(workdir, 0o755)
    if not args.web_root:
        args.web_root = workdir
    topology = Topology(args, workdir)
    started = time.time()
    try:
        topology.start_all()
        play(topology)
        topology.kill_all()
        sqlite_kill9(args, workdir)
        log(f"PASSED in {time.time() - started:.1f} s")
        return 0
    except (TestFailure, OSError, KeyError, ValueError) as error:
        log(f"FAILED: {error!r}")
        topology.dump_logs()
        return 1
    finally:
        topology.kill_all()
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
        else:
            log(f"work folder kept: {workdir}")


if __name__ == "__main__":
    sys.exit(main())
