#!/usr/bin/env python3
"""Scores UCI engines on the Strategic Test Suite (STS 1-15, 1,500 positions in 15 themes of 100):
one fresh search of fixed time per position, one thread, 16 MB hash. Each position names up to
five moves with points (the best 10); an engine's score is the sum of the points of the moves it
plays, at most 15,000. The suite's file is not part of this repository: it is the EPD whose
operations c8 (the points) and c9 (the moves in UCI notation) go together, as in
STS1-STS15_LAN_v3.epd (github.com/fsmosca/STS-Rating).

  scripts/sts.py --suite STS1-STS15_LAN_v3.epd --movetime 100 \\
      --engine outpost=build/engine/outpost --engine ethereal=/usr/games/ethereal-chess

Several engines run side by side, one process each (give the machine a core per engine).
"""

import argparse
import sys
import threading

from uci_engine import UciEngine, parse_epd_line


def parse_suite(path):
    """[(theme, fen, {uci move: points})] and {theme: its name}; the theme is the id's
    "STS(vN.N)" (one id in the published file spells its theme's name differently; the first
    spelling names it)."""
    positions, names = [], {}
    with open(path) as suite:
        for number, raw in enumerate(suite, 1):
            parsed = parse_epd_line(raw)
            if parsed is None:
                continue
            fen, ops = parsed
            moves, points = ops.get("c9", "").split(), ops.get("c8", "").split()
            if not moves or len(moves) != len(points):
                raise SystemExit(f"{path}:{number}: needs c9 (UCI moves) and c8 (their points)")
            ident = ops.get("id", "?").rsplit(".", 1)[0]
            theme = ident.split(")", 1)[0] + ")"
            names.setdefault(theme, ident)
            positions.append((theme, fen, dict(zip(moves, map(int, points)))))
    return positions, names


def run(command, options, positions, movetime, scores):
    engine = UciEngine(command, options)
    for theme, fen, points in positions:
        move = engine.best_move(fen, movetime)
        scores[theme] = scores.get(theme, 0) + points.get(move, 0)
    engine.quit()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", action="append", required=True, metavar="NAME=COMMAND")
    parser.add_argument("--suite", required=True)
    parser.add_argument("--movetime", type=int, default=100, help="milliseconds per position")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="UCI option for every engine")
    args = parser.parse_args()

    positions, names_of = parse_suite(args.suite)
    themes = list(names_of)
    engines = [spec.partition("=")[::2] for spec in args.engine]
    results = {name: {} for name, _ in engines}
    threads = [threading.Thread(target=run, args=(command, args.option, positions, args.movetime,
                                                  results[name]))
               for name, command in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    names = [name for name, _ in engines]
    print(f"STS, {len(positions)} positions, {args.movetime} ms per position")
    print("| theme | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for theme in themes:
        print(f"| {names_of.get(theme, theme)} | " + " | ".join(str(results[n].get(theme, 0)) for n in names) + " |")
    maximum = 10 * len(positions)
    print("| **total** (of %d) | " % maximum
          + " | ".join(f"**{sum(results[n].values())}** "
                       f"({100.0 * sum(results[n].values()) / maximum:.1f}%)" for n in names)
          + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
