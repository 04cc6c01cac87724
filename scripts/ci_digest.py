#!/usr/bin/env python3
"""The failed tests of ctest console logs (`ctest --output-on-failure -O FILE`) and of the
browser tests' spec report (tests/web/artifacts/results.txt), in few lines.

.ci/run prints this at its very end, so the tail of a failed CI run names each failed test and
the lines that say why (a Catch2 `FAILED:` with its expansion, a sanitizer's `ERROR:` and
`SUMMARY:`, a timeout), not only which step failed.

    python3 scripts/ci_digest.py LOG [LOG ...]

CI retries a failed test once (`ctest --repeat until-pass:2`; tests/web/run.sh reruns a browser
test file with a failure once and keeps the first report as results-flaky.txt); a test that
passed only on its retry is shown too, marked flaky, so a passing run still names it. Prints nothing for logs
without failures; exits 0 either way (a step that failed has already failed).
"""
import re
import sys

# A test's status line: "12/457 Test #301: server:name ....***Failed    1.23 sec"; a retry's
# (`ctest --repeat until-pass:2`) has no "12/457".
STATUS = re.compile(r"^\s*(\d+/\d+ )?Test\s+#(\d+): ")
FAILED = re.compile(r"\*\*\*(Failed|Exception|Timeout)|Subprocess aborted|Not Run|SEGFAULT|"
                    r"Child aborted|Illegal|Bus error")
# Lines that say why, with how many lines after each to keep.
WHY = [
    (re.compile(r"FAILED:|failed: |REQUIRE|CHECK\(|with expansion|due to unexpected exception"), 4),
    (re.compile(r"ERROR: (Address|Leak|Thread|Memory|UndefinedBehavior)Sanitizer|"
                r"WARNING: ThreadSanitizer|runtime error:"), 6),
    (re.compile(r"SUMMARY: "), 0),
    (re.compile(r"\bnot ok\b|AssertionError|Error: |Timeout|timed out", re.IGNORECASE), 3),
]
MAX_LINES_PER_TEST = 30
MAX_TESTS = 4
TAIL = 8


def failed_blocks(lines):
    """(status line, output lines, passed on a retry) of each failed run of a test, in log
    order."""
    blocks, current, passed = [], None, set()
    for line in lines:
        status = STATUS.match(line)
        if status:
            if current:
                blocks.append(current)
            failed = FAILED.search(line)
            current = (line, [], status.group(2)) if failed else None
            if not failed:
                passed.add(status.group(2))
        elif current is not None:
            if line.startswith("Total Test time") or re.match(r"^\d+% tests passed", line):
                blocks.append(current)
                current = None
            elif not re.match(r"^\s*Start\s+\d+: ", line):
                current[1].append(line)
    if current:
        blocks.append(current)
    return [(line, output, number in passed) for line, output, number in blocks]


def why(output):
    """The lines of a failed test's output worth reading, in order, and its last few."""
    if len(output) <= MAX_LINES_PER_TEST:
        return output
    keep = set()
    for i, line in enumerate(output):
        for pattern, after in WHY:
            if pattern.search(line):
                keep.update(range(max(0, i - 1), min(len(output), i + after + 1)))
    keep.update(range(max(0, len(output) - TAIL), len(output)))
    picked, last = [], -1
    for i in sorted(keep):
        if i != last + 1:
            picked.append("    [...]")
        picked.append(output[i])
        last = i
    if len(picked) > MAX_LINES_PER_TEST:
        picked = picked[:MAX_LINES_PER_TEST - TAIL - 1] + ["    [...]"] + picked[-TAIL:]
    return picked


def web_failures(lines):
    """The "failing tests" part of node's spec report, or [] when it has none."""
    for i, line in enumerate(lines):
        if "failing tests:" in line:
            return [l for l in lines[i + 1:] if l.strip()]
    return []


def main(paths):
    shown = 0
    for path in paths:
        try:
            with open(path, errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        web = web_failures(lines)
        if web:
            flaky = path.endswith("results-flaky.txt")
            print(f"--- {path}: the browser tests' failures"
                  + ("  [passed on their retry: flaky]" if flaky else ""))
            for line in why(web):
                print("    " + line)
            continue
        blocks = failed_blocks(lines)
        if not blocks:
            continue
        print(f"--- {path}: {len(blocks)} failed run(s) of a test")
        for status, output, retried in blocks:
            if shown == MAX_TESTS:
                print(f"    ({len(blocks)} in this log; the rest are in the log above)")
                break
            shown += 1
            print(status.strip() + ("  [passed on its retry: flaky]" if retried else ""))
            for line in why([l for l in output if l.strip()]):
                print("    " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
