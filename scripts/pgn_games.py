"""The games of a PGN file as (tags, movetext) pairs, for the match scripts (clock_use.py,
anchor_ratings.py)."""

import re

TAG = re.compile(r'^\[(\w+) "(.*)"\]')


def games(path):
    tags, moves = {}, []
    with open(path) as pgn:
        for line in pgn:
            match = TAG.match(line)
            if match:
                if moves:
                    yield tags, " ".join(moves)
                    tags, moves = {}, []
                tags[match.group(1)] = match.group(2)
            elif line.strip():
                moves.append(line.strip())
    if tags:
        yield tags, " ".join(moves)
