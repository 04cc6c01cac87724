#!/usr/bin/env python3
"""The overhead of a 100 ms analysis over HTTP against the same search in the UCI program.

Runs N searches of `movetime` ms from the start position each way and compares the mean time
from sending the request to having the best move: UCI `go movetime` on the `outpost` program's
stdin/stdout, and POST /api/v1/analysis on a keep-alive HTTP connection.
Usage: uci_vs_http.py <outpost binary> <server port> [runs] [movetime]
"""
import http.client
import json
import statistics
import subprocess
import sys
import time


def uci_times(engine, runs, movetime):
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            bufsize=1)

    def send(line):
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def wait_for(prefix):
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    times = []
    for _ in range(runs):
        send("ucinewgame")
        send("position startpos")
        send("isready")
        wait_for("readyok")
        start = time.perf_counter()
        send(f"go movetime {movetime}")
        wait_for("bestmove")
        times.append((time.perf_counter() - start) * 1000)
    send("quit")
    proc.wait(timeout=5)
    return times


def http_times(port, runs, movetime):
    conn = http.client.HTTPConnection("127.0.0.1", port)
    body = json.dumps({"limits": {"movetime": movetime}})
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        conn.request("POST", "/api/v1/analysis", body, {"Content-Type": "application/json"})
        response = conn.getresponse()
        payload = response.read()
        times.append((time.perf_counter() - start) * 1000)
        if response.status != 200:
            raise RuntimeError(payload)
    return times


def main():
    engine, port = sys.argv[1], int(sys.argv[2])
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    movetime = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    uci = uci_times(engine, runs, movetime)
    http = http_times(port, runs, movetime)
    uci_mean, http_mean = statistics.mean(uci), statistics.mean(http)
    print(f"movetime {movetime} ms, {runs} runs each")
    print(f"UCI  : mean {uci_mean:.1f} ms, min {min(uci):.1f}, max {max(uci):.1f}")
    print(f"HTTP : mean {http_mean:.1f} ms, min {min(http):.1f}, max {max(http):.1f}")
    print(f"overhead: {http_mean - uci_mean:+.1f} ms ({(http_mean / uci_mean - 1) * 100:+.2f}%)")


if __name__ == "__main__":
    main()
