#!/usr/bin/env python3
"""Runs an EPD tactical suite (with `bmuci`/`amuci` operations, see epd_san_to_uci.py) against a
UCI engine: one search of fixed time per position, one thread, 16 MB hash. A position is solved
when the engine's bestmove is one of its best moves (and none of its avoid moves).

  scripts/tactics.py --engine build/engine/outpost --suite tests/uci/data/wac.epd --movetime 1000
"""

import argparse
import shlex
import subprocess
import sys


def parse_suite(path):
    positions = []
    with open(path) as suite:
        for raw in suite:
            raw = raw.strip()
            if not raw:
                continue
            fields = raw.split()
            fen = " ".join(fields[:4]) + " 0 1"
            ops = {}
            for op in " ".join(fields[4:]).split(";"):
                name, _, value = op.strip().partition(" ")
                if name:
                    ops[name] = value.strip().strip('"')
            positions.append((ops.get("id", "?"), fen, ops.get("bmuci", "").split(),
                              ops.get("amuci", "").split()))
    return positions


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", required=True, help="engine command (with arguments)")
    parser.add_argument("--suite", required=True)
    parser.add_argument("--movetime", type=int, default=1000, help="milliseconds per position")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE UCI option")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    engine = subprocess.Popen(shlex.split(args.engine), stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              bufsize=1)

    def send(text):
        engine.stdin.write(text + "\n")
        engine.stdin.flush()

    def wait_for(prefix):
        for line in engine.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise SystemExit(f"engine exited while waiting for {prefix}")

    send("uci")
    wait_for("uciok")
    for option in ["Threads=1", "Hash=16"] + args.option:
        name, _, value = option.partition("=")
        send(f"setoption name {name} value {value}")
    positions = parse_suite(args.suite)
    solved = []
    for ident, fen, best, avoid in positions:
        send("ucinewgame")
        send("isready")
        wait_for("readyok")
        send(f"position fen {fen}")
        send(f"go movetime {args.movetime}")
        move = wait_for("bestmove").split()[1]
        ok = (not best or move in best) and move not in avoid
        if ok:
            solved.append(ident)
        if args.verbose:
            print(f"{ident}: {move} {'ok' if ok else 'missed (best ' + ' '.join(best) + ')'}",
                  flush=True)
    send("quit")
    engine.wait(timeout=10)
    print(f"solved {len(solved)} / {len(positions)} at {args.movetime} ms per position")
    return 0


if __name__ == "__main__":
    sys.exit(main())
