#!/usr/bin/env python3
"""Checks the SPSA driver (tools/spsa/spsa.py) without an engine or games: against a synthetic
match in which the side whose values lie nearer a hidden optimum wins more often, the tuned values
move toward the optimum; the engine's spin options are read back as parameters."""
import math
import os
import random
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spsa  # noqa: E402

OPTIMUM = {"FutilityMargin": 380.0, "DeltaMargin": 120.0}
RANGES = {"FutilityMargin": (100, 500), "DeltaMargin": (50, 400)}


def synthetic_play(rng):
    # Each game: plus wins with a probability that grows with how much nearer the optimum it is.
    def distance(values):
        return sum(abs(values[p] - OPTIMUM[p]) / (RANGES[p][1] - RANGES[p][0]) for p in values)

    def play(plus, minus):
        edge = distance(minus) - distance(plus)
        p_win = 1 / (1 + math.exp(-8 * edge))
        return sum(1 if rng.random() < p_win else -1 for _ in range(2))
    return play


def test_converges():
    rng = random.Random(7)
    n = 600
    c_end = {p: 0.05 * (hi - lo) for p, (lo, hi) in RANGES.items()}
    schedule = spsa.Schedule(n, c_end, 0.05)
    theta = {"FutilityMargin": 200.0, "DeltaMargin": 300.0}
    start = dict(theta)
    play = synthetic_play(rng)
    for k in range(1, n + 1):
        theta, record = spsa.step(theta, RANGES, schedule, k, play, rng)
        for p, (lo, hi) in RANGES.items():
            assert lo <= record["plus"][p] <= hi and lo <= record["minus"][p] <= hi
    for p in OPTIMUM:
        before, after = abs(start[p] - OPTIMUM[p]), abs(theta[p] - OPTIMUM[p])
        print(f"{p}: {start[p]:.0f} -> {theta[p]:.1f} (optimum {OPTIMUM[p]:.0f})")
        assert after < before / 2, f"{p} did not approach its optimum: {before} -> {after}"


def test_engine_params():
    with tempfile.TemporaryDirectory() as tmp:
        fake = os.path.join(tmp, "engine")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\ncat >/dev/null\n"
                    "echo 'option name Hash type spin default 16 min 1 max 32768'\n"
                    "echo 'option name nullMove type check default true'\n"
                    "echo 'option name FutilityMargin type spin default 300 min 100 max 500'\n"
                    "echo 'option name DeltaMargin type spin default 200 min 50 max 400'\n")
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IEXEC)
        params = spsa.engine_params(fake)
        assert params == {"FutilityMargin": (300, 100, 500), "DeltaMargin": (200, 50, 400)}, params


if __name__ == "__main__":
    test_converges()
    test_engine_params()
    print("spsa driver: ok")
