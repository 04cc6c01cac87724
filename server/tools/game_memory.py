#!/usr/bin/env python3
"""Server memory per stored game (docs/performance.md, "Players per replica").

    server/tools/game_memory.py PORT PID [GAMES]

Creates GAMES games (default 5000) through POST /api/v1/games on one keep-alive connection, each a
game between people with a 40-ply opening already played (a typical game in progress), and
reports the server's RSS growth per game, read from /proc/PID/status. Run it against a server
with --store memory and --client-games-per-minute 0 (with Redis the games live in Redis, not in
the server).
"""

import http.client
import json
import sys

# A 40-ply Ruy Lopez line: the game record holds its moves, SAN and positions' metadata.
MOVES = ("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 "
         "Nbd2 Bb7 Bc2 Re8 Nf1 Bf8 Ng3 g6 a4 c5 d5 c4 Bg5 h6 Be3 Nc5 Qd2 h5 Bg5 Be7").split()


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def main():
    port, pid = int(sys.argv[1]), int(sys.argv[2])
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 5000
    connection = http.client.HTTPConnection("127.0.0.1", port)
    body = json.dumps({"moves": MOVES, "engine": {"side": "none"}})
    before = rss_kb(pid)
    for _ in range(games):
        connection.request("POST", "/api/v1/games", body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        response.read()
        if response.status != 201:
            sys.exit(f"create: HTTP {response.status}")
    after = rss_kb(pid)
    print(f"{games} games of {len(MOVES)} plies: RSS {before} -> {after} kB, "
          f"{(after - before) * 1024 / games:.0f} bytes per game")


if __name__ == "__main__":
    main()
