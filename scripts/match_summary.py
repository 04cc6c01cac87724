#!/usr/bin/env python3
"""Summarises fastchess logs (the output of scripts/match.sh): wins/draws/losses of one engine,
its Elo with a 95% error bar, and how the games ended (time losses, illegal moves and
disconnects are named with the engine that suffered them).

  scripts/match_summary.py ENGINE_NAME match1.log [match2.log ...]
"""
import math, re, sys, glob

def elo(score):
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400 * math.log10(1 / score - 1)

def summarize(path, first):
    w = d = l = 0
    reasons = {}
    for line in open(path):
        m = re.match(r"Finished game \d+ \((\S+) vs (\S+)\): (\S+) \{(.*)\}", line)
        if not m:
            continue
        white, black, result, reason = m.groups()
        if result == "1/2-1/2":
            d += 1
        elif (result == "1-0") == (white == first):
            w += 1
        else:
            l += 1
        key = re.sub(r" \(\d+ms overrun\)", "", reason)
        loser = None
        if "loses on time" in reason or "illegal" in reason or "disconnect" in reason or "stall" in reason:
            loser = white if reason.startswith("White") else black
            key = f"{loser}: " + key.split(" ", 1)[1]
        reasons[key] = reasons.get(key, 0) + 1
    n = w + d + l
    if n == 0:
        return None
    s = (w + d / 2) / n
    # 95% error bar from the per-game score variance (trinomial).
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * (0 - s) ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = s - 1.96 * se, s + 1.96 * se
    if 0.1 < s < 0.9 and se > 0:
        e = f"{elo(s):+.0f} ± {(elo(hi) - elo(lo)) / 2:.0f}"
    else:
        # Near 0% or 100% the normal approximation fails: a Wilson 95% interval instead.
        z2 = 1.96 ** 2
        center = (s + z2 / (2 * n)) / (1 + z2 / n)
        half = 1.96 * math.sqrt(s * (1 - s) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        low, high = max(center - half, 1e-6), min(center + half, 1 - 1e-6)
        if s == 1:
            e = f">= {elo(low):+.0f}"
        elif s == 0:
            e = f"<= {elo(high):+.0f}"
        else:
            e = f"{elo(s):+.0f} [{elo(low):+.0f}, {elo(high):+.0f}]"
    return n, w, d, l, s, e, reasons

if __name__ == "__main__":
    first = sys.argv[1]
    for path in sys.argv[2:]:
        r = summarize(path, first)
        if r:
            n, w, d, l, s, e, reasons = r
            print(f"{path}: n={n} +{w} ={d} -{l} score {100*s:.1f}% Elo {e}; " +
                  ", ".join(f"{v} {k}" for k, v in sorted(reasons.items())))
