#!/usr/bin/env python3
"""One engine's result over the complete pairs of a fastchess PGN (-repeat: both games of an
opening share a [Round] number), with the Elo's 95% error bar from the pentanomial counts.

For a match stopped before its end (a fixed time on a borrowed machine): fastchess prints no
summary for the games finished after its last rating interval, and a pair cut off at the end
must not count as half a pair.

  scripts/pgn_pentanomial.py MATCH.pgn [MORE.pgn ...] ENGINE_NAME

Several PGNs (runs of one match with different seeds) are pooled: each file's pairs are its own
(two files' equal [Round] numbers are different openings).
"""
import collections, math, re, sys

from match_summary import elo  # the score -> Elo of the fastchess logs' summary


def games_by_round(text, name):
    """{[Round]: [(score of `name`, opening)]}: the opening is the game's [FEN] or [Opening] tag."""
    rounds = collections.defaultdict(list)
    for game in text.split("[Event ")[1:]:
        round_tag = re.search(r'\[Round "([^"]+)"', game)
        white = re.search(r'\[White "([^"]+)"', game)
        result = re.search(r'\[Result "([^"]+)"', game)
        if not (round_tag and white and result):
            continue
        opening = re.search(r'\[(?:FEN|Opening) "([^"]*)"', game)
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result.group(1))
        if score is not None:
            rounds[round_tag.group(1)].append((score if white.group(1) == name else 1 - score,
                                               opening.group(1) if opening else ""))
    return rounds


def pairs_of(text, name):
    return [[s for s, _ in games] for games in games_by_round(text, name).values()
            if len(games) == 2]


def summary(pairs):
    counts = [0] * 5
    for a, b in pairs:
        counts[int(round((a + b) * 2))] += 1
    n = sum(counts)
    if n == 0:
        return "no complete pair"
    values = [0, 0.25, 0.5, 0.75, 1]
    mean = sum(c * v for c, v in zip(counts, values)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values)) / n
    se = math.sqrt(var / n)
    low, high = elo(mean - 1.96 * se), elo(mean + 1.96 * se)
    los = 0.5 * (1 + math.erf((mean - 0.5) / (se * math.sqrt(2)))) if se > 0 else float(mean > 0.5)
    games = [s for p in pairs for s in p]
    w, d, l = games.count(1.0), games.count(0.5), games.count(0.0)
    return (f"{2 * n} games ({n} pairs): +{w} ={d} -{l}, {mean * 100:.2f}%, "
            f"Elo {elo(mean):+.1f} +/- {(high - low) / 2:.1f}, LOS {los * 100:.1f}%, "
            f"pentanomial {counts}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    name = sys.argv[-1]
    pooled = []
    for path in sys.argv[1:-1]:
        pooled += pairs_of(open(path, encoding="utf-8", errors="replace").read(), name)
    print(summary(pooled))
