#!/usr/bin/env python3
"""scripts/pgn_paired.py on small fastchess-style PGNs: openings matched by [Round], a pair cut
off in either run left out, the difference and its error bar, and runs whose openings differ
refused."""
import os, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
import pgn_paired as p


def game(round_no, white, black, result, opening):
    return (f'[Event "Fastchess Tournament"]\n[Round "{round_no}"]\n[White "{white}"]\n'
            f'[Black "{black}"]\n[Result "{result}"]\n[Opening "{opening}"]\n\n'
            f'1. e4 e5 {result}\n\n')


def run(engine, results, cut=None):
    """A run of `engine` against "sf": per round (white's result, black's result) when `engine`
    plays White first; `cut`: one more round with its first game only."""
    text = ""
    for i, (first, second) in enumerate(results, 1):
        text += game(i, engine, "sf", first, f"o{i}") + game(i, "sf", engine, second, f"o{i}")
    if cut:
        text += game(len(results) + 1, engine, "sf", cut, f"o{len(results) + 1}")
    return text


a = p.complete_pairs(run("a", [("1-0", "0-1"), ("1/2-1/2", "1-0"), ("0-1", "1-0")], "1-0"), "a")
b = p.complete_pairs(run("b", [("1/2-1/2", "1/2-1/2"), ("0-1", "1-0"), ("0-1", "1-0")]), "b")
assert a == {"1": (2.0, "o1"), "2": (0.5, "o2"), "3": (0.0, "o3")}, a
assert b == {"1": (1.0, "o1"), "2": (0.0, "o2"), "3": (0.0, "o3")}, b
# Differences 1, 0.5, 0: mean 0.5 a pair (+25% a game), sample sd 0.5, se 0.5 / sqrt(3).
text = p.paired(a, b)
assert text.startswith("3 openings in both: A 2.5, B 1 points of 6"), text
assert "A - B per game +25.00% +/- 28.29% (95%)" in text, text
assert text.endswith("A better on 2 openings, worse on 0"), text
assert p.paired(b, a).split("per game ")[1].startswith("-25.00%")
assert p.paired({"1": (1.0, "o1")}, {"1": (1.0, "o1")}) == "fewer than two openings in common"

# Runs from different openings are refused, on the command line with a non-zero exit.
other = run("b", [("1-0", "0-1"), ("1-0", "0-1")]).replace('"o2"', '"elsewhere"')
try:
    p.paired(a, p.complete_pairs(other, "b"))
    raise AssertionError("different openings accepted")
except ValueError as error:
    assert "round 2" in str(error), error

script = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "pgn_paired.py")
with tempfile.TemporaryDirectory() as folder:
    first, second, third = (os.path.join(folder, f"{i}.pgn") for i in range(3))
    open(first, "w").write(run("a", [("1-0", "0-1"), ("1/2-1/2", "1-0"), ("0-1", "1-0")]))
    open(second, "w").write(run("b", [("1/2-1/2", "1/2-1/2"), ("0-1", "1-0"), ("0-1", "1-0")]))
    open(third, "w").write(other)
    out = subprocess.run([sys.executable, script, first, "a", second, "b"], capture_output=True,
                         text=True, check=True).stdout
    assert "+25.00% +/- 28.29%" in out, out
    refused = subprocess.run([sys.executable, script, first, "a", third, "b"],
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "openings differ" in refused.stderr, refused
print("ok")
