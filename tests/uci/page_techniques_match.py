#!/usr/bin/env python3
"""The board page keeps its own list of the search switches and their defaults
(web/src/ui/techniques.ts, used to send only the switches a person changed). This check fails when
that list and the engine's UCI check options (names and defaults) drift apart.

    page_techniques_match.py path/to/outpost web/src/ui/techniques.ts
"""
import re
import subprocess
import sys

# Check options that are not search techniques.
NOT_TECHNIQUES = {"Ponder", "UCI_LimitStrength"}


def main() -> int:
    engine, page = sys.argv[1], sys.argv[2]
    uci = subprocess.run([engine], input="uci\nquit\n", capture_output=True, text=True, timeout=30).stdout
    in_engine = {
        name: default == "true"
        for name, default in re.findall(r"^option name (\S+) type check default (true|false)$", uci, re.M)
        if name not in NOT_TECHNIQUES
    }
    with open(page, encoding="utf-8") as f:
        source = f.read()
    on_page = {name: default == "true" for name, default in re.findall(r"name: '(\w+)',[^}]*?defaultOn: (true|false)", source)}
    if not in_engine:
        print("no technique options in the engine's uci reply")
        return 1
    if in_engine == on_page:
        print(f"{len(in_engine)} techniques: the page's defaults match the engine's")
        return 0
    for name in sorted(in_engine.keys() | on_page.keys()):
        if in_engine.get(name) != on_page.get(name):
            print(f"{name}: engine {in_engine.get(name, 'missing')}, page {on_page.get(name, 'missing')}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
