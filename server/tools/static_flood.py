#!/usr/bin/env python3
"""Does a flood of static GETs slow the moves? (issue 34, "Static files never wait behind moves")

Starts outpost-server (memory store) with a web root of its own (an index.html and one hashed
asset of --asset-kb), then plays moves in games between people over REST, one at a time, and
times each answer: first on a quiet server, then while --flood processes GET the asset and the
page as fast as they can over keep-alive connections. Prints the move latency percentiles of
both phases and the static requests served. A benchmark, not a test: the numbers depend on the
machine and its load.

    server/tools/static_flood.py build/server/outpost-server [--moves 300] [--flood 4]
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


def flood(port, stop, counter):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    served = 0
    while not stop.is_set():
        for target in ("/" + ASSET, "/"):
            connection.request("GET", target, headers={"Accept-Encoding": "gzip"})
            connection.getresponse().read()
            served += 1
    with counter.get_lock():
        counter.value += served


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


def summary(latencies):
    ordered = sorted(latencies)
    def at(q):
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
    return (f"{len(ordered)} moves: median {statistics.median(ordered):.2f} ms, p90 {at(0.90):.2f}, "
            f"p99 {at(0.99):.2f}, max {ordered[-1]:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("server")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--flood", type=int, default=4, help="flooding processes")
    parser.add_argument("--asset-kb", type=int, default=300)
    parser.add_argument("--io-threads", type=int, default=2)
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
        server = subprocess.Popen(
            [args.server, "--port", str(port), "--bind", "127.0.0.1", "--store", "memory",
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
            flooders = [multiprocessing.Process(target=flood, args=(port, stop, counter))
                        for _ in range(args.flood)]
            for process in flooders:
                process.start()
            time.sleep(1.0)
            started = time.monotonic()
            flooded = play(port, args.moves)
            elapsed = time.monotonic() - started
            stop.set()
            for process in flooders:
                process.join()
        finally:
            server.terminate()
            server.wait(timeout=10)

    print(f"quiet:   {summary(quiet)}")
    print(f"flooded: {summary(flooded)}")
    print(f"static:  {counter.value} GETs by {args.flood} processes "
          f"(about {counter.value / (elapsed + 1.0):.0f}/s), asset {args.asset_kb} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
