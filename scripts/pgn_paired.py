#!/usr/bin/env python3
"""Two engines' runs against one opponent from the same openings (the same book and -srand, so
each [Round] is the same opening in both): the difference of their pair scores, opening by
opening, with its 95% error bar. Pairing removes the openings' own spread, so this is the test of
"A scored more than B here"; two runs' separate error bars overstate the noise of the difference.

  scripts/pgn_paired.py A.pgn NAME_A B.pgn NAME_B

Only openings where both runs have a complete pair count; a round whose [FEN] or [Opening] tags
differ between the runs means the runs did not share openings, and nothing is printed.
"""
import math, sys

from pgn_pentanomial import games_by_round


def complete_pairs(text, name):
    return {r: (sum(s for s, _ in g), g[0][1]) for r, g in games_by_round(text, name).items()
            if len(g) == 2}


def paired(a, b):
    """a, b: {round: (pair score, opening)}. The comparison's text, or an error (ValueError)."""
    common = sorted(set(a) & set(b), key=lambda r: (len(r), r))
    for r in common:
        if a[r][1] != b[r][1]:
            raise ValueError(f"round {r}: the runs' openings differ ({a[r][1]!r}, {b[r][1]!r})")
    n = len(common)
    if n < 2:
        return "fewer than two openings in common"
    diffs = [a[r][0] - b[r][0] for r in common]
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    better = sum(d > 0 for d in diffs)
    worse = sum(d < 0 for d in diffs)
    return (f"{n} openings in both: A {sum(a[r][0] for r in common):g}, "
            f"B {sum(b[r][0] for r in common):g} points of {2 * n}; A - B per game "
            f"{mean / 2 * 100:+.2f}% +/- {1.96 * se / 2 * 100:.2f}% (95%); "
            f"A better on {better} openings, worse on {worse}")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    runs = [complete_pairs(open(path, encoding="utf-8", errors="replace").read(), name)
            for path, name in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4]))]
    try:
        print(paired(*runs))
    except ValueError as error:
        sys.exit(f"pgn_paired.py: {error}")
