#!/usr/bin/env python3
"""scripts/pgn_pentanomial.py on a small fastchess-style PGN: pairs by [Round], colours
swapped within a pair, a pair cut off at the end left out, and the error bar fastchess prints
for the same pentanomial counts."""
import os, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import pgn_pentanomial as p


def game(round_no, white, black, result):
    return (f'[Event "Fastchess Tournament"]\n[Round "{round_no}"]\n[White "{white}"]\n'
            f'[Black "{black}"]\n[Result "{result}"]\n\n1. e4 e5 {result}\n\n')


pgn = (game(1, "a", "b", "1-0") + game(1, "b", "a", "1-0")        # 1 + 0: a pair drawn
       + game(2, "a", "b", "1/2-1/2") + game(2, "b", "a", "0-1")  # 0.5 + 1
       + game(3, "b", "a", "1-0"))                                # cut off: no pair
pairs = p.pairs_of(pgn, "a")
assert sorted(map(sorted, pairs)) == [[0.0, 1.0], [0.5, 1.0]], pairs
text = p.summary(pairs)
assert text.startswith("4 games (2 pairs): +2 =1 -1") and "[0, 0, 1, 1, 0]" in text, text

# fastchess 1.x printed -2.67 +/- 21.34, LOS 40.29% for these counts (a 390-game match).
counts = [5, 53, 85, 44, 8]
synthetic = [pair for c, pair in zip(counts, [(0, 0), (0, .5), (.5, .5), (1, .5), (1, 1)])
             for _ in range(c)]
text = p.summary(synthetic)
assert "Elo -2.7 +/- 21.3, LOS 40.3%" in text, text
assert p.summary([]) == "no complete pair"

# Two files pooled on the command line: equal [Round] numbers in different files are different
# pairs (the first file's two pairs and the second's one, not three games under round 1).
script = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "pgn_pentanomial.py")
with tempfile.TemporaryDirectory() as folder:
    first, second = os.path.join(folder, "1.pgn"), os.path.join(folder, "2.pgn")
    open(first, "w").write(pgn)
    open(second, "w").write(game(1, "a", "b", "1-0") + game(1, "b", "a", "0-1"))  # 1 + 1
    out = subprocess.run([sys.executable, script, first, second, "a"], capture_output=True,
                         text=True, check=True).stdout
    assert out.startswith("6 games (3 pairs): +4 =1 -1") and "[0, 0, 1, 1, 1]" in out, out
print("ok")
