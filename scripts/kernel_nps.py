#!/usr/bin/env python3
"""Nodes per second of each evaluation kernel and slider method, for one or more builds, measured
in one run (docs/performance.md, "One portable binary").

    scripts/kernel_nps.py [--rounds N] [--depth D] [--kernels LIST] [--sliders LIST]
                          NAME=PATH/TO/outpost [NAME=PATH ...]

Every build runs `outpost bench` once per kernel (scalar, sse2, avx2, avx512; OUTPOST_KERNEL)
that this CPU runs, with the build's own slider choice; once per slider method (magic, pext;
OUTPOST_SLIDERS) with its own kernel; and once with its own choice of both (each combination
once). A build from before the choice at start (no "CPU paths" line) runs once. The runs are interleaved round by round (every configuration once per round, the order rotated)
so load from other jobs on a shared machine falls on all of them alike. nps is counted on the
process's CPU time (user + sys), which other load disturbs less than wall time; each figure is
also given as a ratio to the reference (the first build's own choice) in the same round, and the
table shows the median over the rounds. The node count must be the same for every run.
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys

KERNELS = ["scalar", "sse2", "avx2", "avx512"]
SLIDERS = ["magic", "pext"]


def run_bench(binary, depth, kernel, sliders):
    env = dict(os.environ)
    env.pop("OUTPOST_KERNEL", None)
    env.pop("OUTPOST_SLIDERS", None)
    if kernel:
        env["OUTPOST_KERNEL"] = kernel
    if sliders:
        env["OUTPOST_SLIDERS"] = sliders
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [binary, "bench"] + ([str(depth)] if depth else [])
    proc = subprocess.run(command, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        return None, proc.stderr.strip()
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    nodes = int(re.search(r"^Nodes searched\s*:\s*(\d+)", proc.stdout, re.M).group(1))
    # A build from before the choice at start has no such line: its paths are fixed.
    found = re.search(r"^CPU paths: (.*)$", proc.stdout, re.M)
    paths = found.group(1) if found else "fixed at compile time"
    return {"nodes": nodes, "cpu": cpu, "nps": nodes / cpu, "paths": paths}, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--depth", type=int, default=None, help="bench depth (default: bench's own)")
    parser.add_argument("--kernels", default=",".join(KERNELS),
                        help="kernels to force, comma-separated (empty: none)")
    parser.add_argument("--sliders", default=",".join(SLIDERS),
                        help="slider methods to force, comma-separated (empty: none)")
    parser.add_argument("builds", nargs="+", help="NAME=PATH to an outpost binary")
    args = parser.parse_args()
    builds = [b.split("=", 1) for b in args.builds]

    configs = []  # (build name, binary, kernel, sliders); kernel None = the build's own choice
    for name, binary in builds:
        configs.append((name, binary, None, None))
        own, _ = run_bench(binary, 1, None, None)
        if own and own["paths"] == "fixed at compile time":
            continue  # the environment changes nothing there
        # Each kernel with the build's own slider choice, each slider method with its own kernel.
        kernels = [k for k in args.kernels.split(",") if k]
        sliders_list = [s for s in args.sliders.split(",") if s]
        wanted = [(k, None) for k in kernels] + [(None, s) for s in sliders_list]
        seen = {own["paths"]} if own else set()
        for kernel, sliders in wanted:
            probe, error = run_bench(binary, 1, kernel, sliders)
            if probe and probe["paths"] in seen:
                continue  # the same paths as a run already listed
            if probe:
                seen.add(probe["paths"])
                configs.append((name, binary, kernel, sliders))
            else:
                print(f"# {name}: {kernel}/{sliders} skipped: {error}", file=sys.stderr)
    results = {c: [] for c in configs}
    ratios = {c: [] for c in configs}
    nodes_seen = set()
    for rnd in range(args.rounds):
        order = configs[rnd % len(configs):] + configs[:rnd % len(configs)]
        this_round = {}
        for config in order:
            name, binary, kernel, sliders = config
            result, error = run_bench(binary, args.depth, kernel, sliders)
            if not result:
                sys.exit(f"{name} {kernel}/{sliders}: {error}")
            nodes_seen.add(result["nodes"])
            this_round[config] = result
            results[config].append(result)
            print(f"round {rnd + 1}: {name:10} {result['paths']:32} {result['nps']:12,.0f} nps "
                  f"({result['cpu']:.2f} s CPU)", file=sys.stderr, flush=True)
        reference = this_round[configs[0]]["nps"]
        for config, result in this_round.items():
            ratios[config].append(result["nps"] / reference)

    print(f"bench depth {args.depth or 'default'}, {args.rounds} rounds, nodes: "
          + ", ".join(str(n) for n in sorted(nodes_seen)))
    print("| build | kernel, sliders | nps (median, CPU time) | ratio to the reference (median) "
          "| ratios per round |")
    print("|---|---|---:|---:|---|")
    for config in configs:
        name, _, kernel, _ = config
        paths = results[config][0]["paths"].replace("kernel ", "").replace("sliders ", "")
        label = paths + (" (its own choice)" if kernel is None and config[3] is None else "")
        nps = statistics.median(r["nps"] for r in results[config])
        ratio = statistics.median(ratios[config])
        per_round = ", ".join(f"{r:.2f}" for r in ratios[config])
        print(f"| {name} | {label} | {nps:,.0f} | {ratio:.2f} | {per_round} |")
    if len(nodes_seen) != 1:
        sys.exit("the node counts differ between runs")


if __name__ == "__main__":
    main()
