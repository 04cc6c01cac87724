#!/usr/bin/env python3
"""Does a flood of static GETs slow the moves? (issue 34, "Static files never wait behind moves")

Starts outpost-server (memory store, or SQLite with --store sqlite) with a web root of its own
(an index.html and one hashed asset of --asset-kb), then plays moves in games between people over
REST, one at a time, and times each answer: first on a quiet server, then while --flood processes
GET the asset and the page over keep-alive connections, as fast as they can or at --rate GETs/s
in all (a fixed rate compares two servers under the same load). Prints the move latency
percentiles of both phases, and the static GETs' latencies and rate. A benchmark, not a test: the
numbers depend on the machine and its load.

    server/tools/static_flood.py build/server/outpost-server [--moves 300] [--flood 4] [--rate R]
"""
import argparse
import http.client
import json
import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

# Seven plies per game (the eighth would repeat the start position a third time).
PLIES = ["Nf3", "Nf6", "Ng1", "Ng8", "Nc3", "Nc6", "Nb1"]
ASSET = "assets/index-Ab3dE5fG.js"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def request(connection, method, target, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, target, body=json.dumps(body) if body is not None else None,
                       headers=headers)
    response = connection.getresponse()
    payload = response.read()
    return response.status, payload


def flood(port, stop, counter, interval, latencies):
    """GETs the asset and the page in turn; `interval` > 0: one GET per interval (seconds).
    Puts its GETs' latencies (ms) on the `latencies` queue at the end."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    served = 0
    timed = []
    due = time.perf_counter()
    while not stop.is_set():
        for target in ("/" + ASSET, "/"):
            if interval > 0:
                due += interval
                wait = due - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
            start = time.perf_counter()
            connection.request("GET", target, headers={"Accept-Encoding": "gzip"})
            connection.getresponse().read()
            timed.append((time.perf_counter() - start) * 1000)
            served += 1
    with counter.get_lock():
        counter.value += served
    latencies.put(timed)


def play(port, moves):
    """Latencies (ms) of `moves` moves, a new game every len(PLIES) plies."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    latencies = []
    while len(latencies) < moves:
        status, payload = request(connection, "POST", "/api/v1/games", {"engine": {"side": "none"}})
        if status != 201:
            raise RuntimeError(f"creating a game: {status} {payload[:200]!r}")
        game = json.loads(payload)
        tokens = [game["playerToken"], game["inviteToken"]]
        for ply, move in enumerate(PLIES):
            if len(latencies) == moves:
                break
            start = time.perf_counter()
            status, payload = request(connection, "POST", f"/api/v1/games/{game['id']}/moves",
                                      {"move": move}, tokens[ply % 2])
            latencies.append((time.perf_counter() - start) * 1000)
            if status != 200:
                raise RuntimeError(f"move {move}: {status} {payload[:200]!r}")
    return latencies


def summary(latencies, what="moves"):
    ordered = sorted(latencies)
    def at(q):
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return (f"{len(ordered)} {what}: median {statistics.median(ordered):.2f} ms, p90 {at(0.90):.2f}, "
            f"p99 {at(0.99):.2f}, max {ordered[-1]:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("server")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--flood", type=int, default=4, help="flooding processes")
    parser.add_argument("--asset-kb", type=int, default=300)
    parser.add_argument("--io-threads", type=int, default=2)
    parser.add_argument("--store", choices=["memory", "sqlite"], default="memory",
                        help="sqlite: every move waits for an fsync on the store threads")
    parser.add_argument("--rate", type=float, default=0,
                        help="static GETs per second of all processes together (0: as fast as "
                             "they can); a fixed rate compares two servers under the same load")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="outpost-static-flood-") as root:
        os.makedirs(os.path.join(root, "assets"))
        with open(os.path.join(root, "index.html"), "w") as f:
            f.write(f'<!doctype html><html><head><script src="/{ASSET}"></script></head>'
                    "<body>board</body></html>\n")
        with open(os.path.join(root, ASSET), "w") as f:
            line = "export const board = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';\n"
            f.write(line * (args.asset_kb * 1024 // len(line)))
        port = free_port()
        store = ["--store", args.store]
        if args.store == "sqlite":
            store += ["--sqlite-path", os.path.join(root, "games.db")]
        server = subprocess.Popen(
            [args.server, "--port", str(port), "--bind", "127.0.0.1", *store,
             "--web-root", root, "--io-threads", str(args.io_threads),
             "--client-games-per-minute", "100000", "--client-connections", "100000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    if request(connection, "GET", "/readyz")[0] == 200:
                        break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("the server did not become ready")
                time.sleep(0.05)
            request(http.client.HTTPConnection("127.0.0.1", port), "GET", "/")  # loads the page
            play(port, 20)  # warm-up
            quiet = play(port, args.moves)

            stop = multiprocessing.Event()
            counter = multiprocessing.Value("q", 0)
            static_latencies = multiprocessing.Queue()
            interval = args.flood / args.rate if args.rate > 0 else 0
            flooders = [multiprocessing.Process(target=flood,
                                                args=(port, stop, counter, interval,
                                                      static_latencies))
                        for _ in range(args.flood)]
            for process in flooders:
                process.start()
            time.sleep(1.0)
            started = time.monotonic()
            flooded = play(port, args.moves)
            elapsed = time.monotonic() - started
            stop.set()
            static_timed = []
            for _ in flooders:
                static_timed += static_latencies.get(timeout=60)
            for process in flooders:
                process.join()
        finally:
            server.terminate()
            server.wait(timeout=10)

    print(f"quiet:   {summary(quiet)}")
    print(f"flooded: {summary(flooded)}")
    print(f"statics: {summary(static_timed, 'static GETs')}")
    print(f"static:  {counter.value} GETs by {args.flood} processes "
          f"(about {counter.value / (elapsed + 1.0):.0f}/s), asset {args.asset_kb} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
