#!/usr/bin/env python3
"""SPSA tuning of the search's margins and reductions over short matches (docs/search.md, "Tuning").

Needs a tunable build of the engine (cmake -DOUTPOST_TUNABLE=ON: each parameter of
engine/search/search_params.h is then a UCI spin option) and fastchess (scripts/match.sh). Each
iteration perturbs every tuned parameter by +c or -c at random, plays the "plus" values against
the "minus" values in pairs of games (same opening, colours swapped), and moves the parameters
along the perturbation by the result (wins minus losses of "plus"): simultaneous perturbation
stochastic approximation, with Fishtest's gain schedules (c_k = c / k^0.101, a_k = a / (A + k)^0.602,
A a tenth of the run, set from the step sizes wanted at the end, c_end and r_end).

  tools/spsa/spsa.py --engine build-tune/engine/outpost --book /tmp/UHO_4060_v2.epd \\
      --iterations 2000 --tc 5+0.05 --concurrency 2 --log /work/data/spsa/round1.jsonl \\
      [--params FutilityMargin,ReverseFutilityMargin] [--pairs 1]
  tools/spsa/spsa.py --log /work/data/spsa/round1.jsonl --print   # the values to bake in

Every iteration is appended to the log as one JSON line (the parameters, both sides' values and
the result); a run started again with the same log resumes after its last line. --print writes
the rounded values as C++ lines for search_params.h.
"""
import argparse
import json
import math
import os
import random
import re
import subprocess
import sys

ALPHA = 0.602
GAMMA = 0.101
# Options every build has; the rest of the spin options of a tunable build are search parameters.
STANDARD_OPTIONS = {"Hash", "Threads", "MultiPV", "Move Overhead", "Level", "UCI_Elo"}
HERE = os.path.dirname(os.path.abspath(__file__))
MATCH = os.path.join(HERE, "..", "..", "scripts", "match.sh")


def engine_params(engine):
    """The tunable parameters the engine announces: {name: (default, min, max)}."""
    out = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True,
                         timeout=30).stdout
    params = {}
    for line in out.splitlines():
        m = re.match(r"option name (\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)$", line)
        if m and m.group(1) not in STANDARD_OPTIONS:
            params[m.group(1)] = tuple(int(v) for v in m.groups()[1:])
    return params


class Schedule:
    """Fishtest's gains for a run of n iterations: the perturbation c_k of each parameter, and
    the learning rate a_k, set so that at the last iteration they are c_end and r_end * c_end^2."""

    def __init__(self, n, c_end, r_end):
        self.big_a = 0.1 * n
        self.c = {p: ce * n ** GAMMA for p, ce in c_end.items()}
        self.a = {p: r_end * ce ** 2 * (self.big_a + n) ** ALPHA for p, ce in c_end.items()}

    def c_k(self, p, k):
        return self.c[p] / k ** GAMMA

    def a_k(self, p, k):
        return self.a[p] / (self.big_a + k) ** ALPHA


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def step(theta, ranges, schedule, k, play, rng):
    """One SPSA iteration: returns (new theta, record). `play(plus, minus)` gives wins minus
    losses of the plus values (integers) against the minus values."""
    delta = {p: rng.choice((-1, 1)) for p in theta}
    plus, minus = {}, {}
    for p, v in theta.items():
        lo, hi = ranges[p]
        c = schedule.c_k(p, k)
        plus[p] = int(round(clamp(v + c * delta[p], lo, hi)))
        minus[p] = int(round(clamp(v - c * delta[p], lo, hi)))
    result = play(plus, minus)
    new = {}
    for p, v in theta.items():
        lo, hi = ranges[p]
        c = schedule.c_k(p, k)
        new[p] = clamp(v + schedule.a_k(p, k) * result * delta[p] / c, lo, hi)
    return new, {"iteration": k, "plus": plus, "minus": minus, "result": result, "theta": new}


def fastchess_play(args, pairs):
    """A play function over scripts/match.sh: `pairs` pairs of games, colours swapped."""
    def play(plus, minus):
        opts = lambda vals: " ".join(f"{p}={v}" for p, v in sorted(vals.items()))
        cmd = ["bash", MATCH, "-1", args.engine, "-n1", "plus", "-o1", opts(plus),
               "-2", args.engine, "-n2", "minus", "-o2", opts(minus), "-tc", args.tc,
               "-games", str(2 * pairs), "-c", str(args.concurrency),
               "-srand", str(random.randrange(1, 2 ** 31))]
        if args.book:
            cmd += ["-book", args.book]
        if args.nodes:
            cmd += ["-nodes", str(args.nodes)]
        if args.adjudicate:
            cmd += ["-adjudicate"]
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        score = 0
        for line in out.splitlines():
            m = re.match(r"Finished game \d+ \((\S+) vs (\S+)\): (\S+) ", line)
            if not m or m.group(3) == "1/2-1/2":
                continue
            white_won = m.group(3) == "1-0"
            score += 1 if white_won == (m.group(1) == "plus") else -1
        return score
    return play


def read_log(path):
    records = []
    if path and os.path.exists(path):
        with open(path) as f:
            records = [json.loads(line) for line in f if line.strip()]
    return records


def print_values(records):
    if not records:
        sys.exit("the log holds no iteration")
    theta = records[-1]["theta"]
    print(f"// SPSA: {len(records)} iterations")
    for p, v in sorted(theta.items()):
        print(f"{p} = {int(round(v))};")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", help="a tunable build of outpost (-DOUTPOST_TUNABLE=ON)")
    ap.add_argument("--params", help="comma-separated names (default: every parameter)")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--pairs", type=int, default=1, help="game pairs per iteration")
    ap.add_argument("--tc", default="5+0.05")
    ap.add_argument("--book")
    ap.add_argument("--nodes", type=int, help="a node limit per move instead of the clock (--tc)")
    ap.add_argument("--adjudicate", action="store_true",
                    help="end decided and dead-drawn games early (scripts/match.sh -adjudicate)")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--c-end", type=float, default=0.05,
                    help="perturbation at the end, as a fraction of each parameter's range")
    ap.add_argument("--r-end", type=float, default=0.002)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--log", required=True, help="JSON lines, one per iteration (resumable)")
    ap.add_argument("--print", action="store_true", help="print the log's last values and stop")
    args = ap.parse_args()

    records = read_log(args.log)
    if args.print:
        print_values(records)
        return
    if not args.engine:
        sys.exit("--engine is required")
    specs = engine_params(args.engine)
    if not specs:
        sys.exit(f"{args.engine} announces no search parameters: build it with -DOUTPOST_TUNABLE=ON")
    names = args.params.split(",") if args.params else sorted(specs)
    unknown = [p for p in names if p not in specs]
    if unknown:
        sys.exit(f"unknown parameters: {', '.join(unknown)}")
    ranges = {p: (specs[p][1], specs[p][2]) for p in names}
    c_end = {p: max(0.5, args.c_end * (hi - lo)) for p, (lo, hi) in ranges.items()}
    schedule = Schedule(args.iterations, c_end, args.r_end)
    theta = dict(records[-1]["theta"]) if records else {p: float(specs[p][0]) for p in names}
    rng = random.Random(args.seed + len(records))
    play = fastchess_play(args, args.pairs)
    with open(args.log, "a") as log:
        for k in range(len(records) + 1, args.iterations + 1):
            theta, record = step(theta, ranges, schedule, k, play, rng)
            log.write(json.dumps(record) + "\n")
            log.flush()
            print(f"iteration {k}: result {record['result']:+d}, " +
                  ", ".join(f"{p} {v:.1f}" for p, v in sorted(theta.items())), flush=True)


if __name__ == "__main__":
    main()
