#!/usr/bin/env python3
"""How much of its clock each engine of a fastchess PGN used: per game, the sum of its moves'
times (the move comments' "score/depth time") against the time the game made available to it
(base + increment x its moves); printed as the mean over the games, with the longest move.

  scripts/clock_use.py games.pgn
"""

import re
import sys
from collections import defaultdict

from pgn_games import games

MOVE_TIME = re.compile(r'\{[^}]*?(\d+\.\d+)s[^}]*\}')


def main():
    shares, longest, counted = defaultdict(list), defaultdict(float), 0
    for path in sys.argv[1:]:
        for tags, text in games(path):
            times = [float(t) for t in MOVE_TIME.findall(text)]
            first = 0 if " w " in tags.get("FEN", " w ") else 1  # who made the first move
            sides = [tags["White"], tags["Black"]]
            for index, side in enumerate(sides):
                # fastchess writes WhiteTimeControl/BlackTimeControl when the two differ
                control = tags.get(("White", "Black")[index] + "TimeControl",
                                   tags.get("TimeControl", "0+0"))
                base, _, inc = control.partition("+")
                base, inc = float(base.split("/")[-1]), float(inc or 0)
                own = times[(index - first) % 2::2]
                if not own or base <= 0:
                    continue
                shares[side].append(sum(own) / (base + inc * len(own)))
                longest[side] = max(longest[side], max(own))
            counted += 1
    print(f"{counted} games")
    for side, values in sorted(shares.items()):
        mean = 100.0 * sum(values) / len(values)
        over80 = sum(1 for v in values if v > 0.8)
        print(f"{side}: {mean:.1f}% of the clock on average, longest move {longest[side]:.2f} s, "
              f"over 80% in {over80} of {len(values)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
