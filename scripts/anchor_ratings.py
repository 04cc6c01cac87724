#!/usr/bin/env python3
"""Ratings of engines measured against anchors of known rating, from fastchess PGNs.

An anchor is a player whose name carries its rating (by default "sf1700": Stockfish with
UCI_LimitStrength at UCI_Elo 1700); every other player gets the rating that best explains all of
its games against the anchors (maximum likelihood under the Elo model, each game a win, draw or
loss scored 1, 1/2 or 0), with the 95% interval where the log-likelihood is within 1.92 of its
maximum. A player that won or lost every game has only a bound on one side.

  scripts/anchor_ratings.py level*.pgn
"""

import argparse
import math
import re
import sys
from collections import defaultdict

from pgn_games import games

def log_likelihood(rating, results):
    total = 0.0
    for anchor, score in results:
        expected = 1.0 / (1.0 + 10.0 ** ((anchor - rating) / 400.0))
        expected = min(max(expected, 1e-12), 1 - 1e-12)
        total += score * math.log(expected) + (1 - score) * math.log(1 - expected)
    return total


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pgn", nargs="+")
    parser.add_argument("--anchor", default=r"sf(\d+)", help="regex; group 1 is the rating")
    args = parser.parse_args()
    anchor = re.compile(args.anchor)
    points = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
    results = defaultdict(list)  # player -> [(anchor rating, player's score)]
    for tags, _ in (game for path in args.pgn for game in games(path)):
        if tags.get("Result") not in points:
            continue
        white, black = tags["White"], tags["Black"]
        score_white, score_black = points[tags["Result"]]
        for player, other, score in ((white, black, score_white), (black, white, score_black)):
            found = anchor.fullmatch(other)
            if found and not anchor.fullmatch(player):
                results[player].append((int(found.group(1)), score))

    grid = range(-1000, 5001)
    print("| player | games | score | anchors | rating (95%) |")
    print("|---|---:|---:|---|---|")
    for player in sorted(results, key=lambda p: (len(p), p)):
        res = results[player]
        curve = [log_likelihood(r, res) for r in grid]
        best = max(range(len(curve)), key=curve.__getitem__)
        inside = [grid[i] for i, value in enumerate(curve) if curve[best] - value <= 1.92]
        low, high = inside[0], inside[-1]
        score = sum(s for _, s in res)
        anchors = ", ".join(f"{a}: {sum(s for x, s in res if x == a):g}/{sum(1 for x, _ in res if x == a)}"
                            for a in sorted({a for a, _ in res}))
        low_text = "…" if low == grid[0] else str(low)
        high_text = "…" if high == grid[-1] else str(high)
        rating = f"{grid[best]}" if grid[0] < grid[best] < grid[-1] else "unbounded"
        print(f"| {player} | {len(res)} | {score:g} | {anchors} | {rating} [{low_text}, {high_text}] |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
