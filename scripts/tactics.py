#!/usr/bin/env python3
"""Runs an EPD tactical suite (with `bmuci`/`amuci` operations, see epd_san_to_uci.py) against a
UCI engine: one search of fixed time per position, one thread, 16 MB hash. A position is solved
when the engine's bestmove is one of its best moves (and none of its avoid moves).

  scripts/tactics.py --engine build/engine/outpost --suite tests/uci/data/wac.epd --movetime 1000
"""

import argparse
import sys

from uci_engine import UciEngine, parse_epd_line


def parse_suite(path):
    positions = []
    with open(path) as suite:
        for raw in suite:
            parsed = parse_epd_line(raw)
            if parsed is None:
                continue
            fen, ops = parsed
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

    engine = UciEngine(args.engine, args.option)
    positions = parse_suite(args.suite)
    solved = []
    for ident, fen, best, avoid in positions:
        move = engine.best_move(fen, args.movetime)
        ok = (not best or move in best) and move not in avoid
        if ok:
            solved.append(ident)
        if args.verbose:
            print(f"{ident}: {move} {'ok' if ok else 'missed (best ' + ' '.join(best) + ')'}",
                  flush=True)
    engine.quit()
    print(f"solved {len(solved)} / {len(positions)} at {args.movetime} ms per position")
    return 0


if __name__ == "__main__":
    sys.exit(main())
