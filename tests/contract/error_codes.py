#!/usr/bin/env python3
"""One list of error codes: the server's table (server/errors/error_codes.h) and the OpenAPI
document's `Error.code` enum must hold the same codes, and no server source may send a code
spelled as a string literal (every code is used as `errors::<name>`).

    error_codes.py api/openapi.yaml server/
"""
import pathlib
import re
import sys

import yaml

TABLE = pathlib.Path("errors/error_codes.h")
ENTRY = re.compile(r'^\s*X\((\w+),\s*(\d{3}),\s*"([^"]+)"\)')

# Where a code is sent: an ApiError's status then its code, errorFor/errorResponse's HTTP status
# then its code, a WebSocket error's "code" field or sendError's second argument, and the small
# helpers that build a code's error (conflict("..."), unprocessable("...", ...), fail("...")).
# A code is spelled like an identifier (a message has spaces).
SENDING = [
    re.compile(r'ErrorStatus::\w+,\s*"([a-z_]+)"'),
    re.compile(r'http::status::\w+,\s*"([a-z_]+)"'),
    re.compile(r'\{"code",\s*"([a-z_]+)"\}'),
    re.compile(r'sendError\(\s*[\w:]+,\s*"([a-z_]+)"'),
    re.compile(r'\b(?:conflict|unprocessable|fail)\(\s*"([a-z_]+)"'),
    re.compile(r'errorCode\s*=\s*"([a-z_]+)"'),
]

LITERAL = re.compile(r'(?<!\\)"([a-z_]+)"')

# String literals spelled like a code that are not one: labels of metrics and of store statuses.
NOT_CODES = {
    ("search/search_pool.cpp", "overloaded"),  # Admission names: metric labels
    ("search/search_pool.cpp", "rate_limited"),
    ("search/search_pool.cpp", "shutting_down"),
    ("store/memory_game_store.cpp", "not_found"),  # StoreStatus names: log fields
    ("store/memory_game_store.cpp", "version_conflict"),
}


def table_codes(server):
    codes = {}
    if not (server / TABLE).is_file():
        return codes
    for line in (server / TABLE).read_text(encoding="utf-8").splitlines():
        match = ENTRY.match(line)
        if match:
            codes[match.group(1)] = (int(match.group(2)), match.group(3))
    return codes


def sources(server):
    for path in sorted(server.rglob("*")):
        relative = path.relative_to(server)
        if path.suffix not in (".cpp", ".h") or relative == TABLE:
            continue
        if relative.parts[0] == "tools":  # load generators and benchmarks: clients, not the server
            continue
        yield relative, path.read_text(encoding="utf-8")


def without_comment(line):
    """The line up to a // comment (one outside a string literal)."""
    quoted = False
    for i, char in enumerate(line):
        if char == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and line.startswith("//", i):
            return line[:i]
    return line


def main() -> int:
    spec_path, server = sys.argv[1], pathlib.Path(sys.argv[2])
    problems = []
    codes = table_codes(server)
    if len(codes) < 10:
        problems.append(f"found only {len(codes)} codes in {TABLE} (has its shape changed?)")

    with open(spec_path, encoding="utf-8") as f:
        document = yaml.safe_load(f)
    enum = document.get("components", {}).get("schemas", {}).get("ErrorCode", {}).get("enum")
    if not enum:
        problems.append("the document has no components/schemas/ErrorCode with an enum")
        enum = []
    for code in sorted(set(codes) - set(enum)):
        problems.append(f"{code}: sent by the server ({TABLE}) but not in ErrorCode's enum (Error.code)")
    for code in sorted(set(enum) - set(codes)):
        problems.append(f"{code}: in ErrorCode's enum (Error.code) but not in the server's table ({TABLE})")
    if len(enum) != len(set(enum)):
        problems.append("ErrorCode's enum (Error.code) lists a code twice")

    for relative, text in sources(server):
        flat = " ".join(" ".join(without_comment(line) for line in text.splitlines()).split())
        for pattern in SENDING:
            for match in pattern.finditer(flat):
                problems.append(f"server/{relative}: sends the code \"{match.group(1)}\" as a "
                                f"string literal (use errors::<name> from {TABLE})")
        for number, line in enumerate(text.splitlines(), 1):
            for literal in LITERAL.findall(without_comment(line)):
                if literal in codes and (str(relative), literal) not in NOT_CODES:
                    problems.append(f"server/{relative}:{number}: the code \"{literal}\" as a "
                                    f"string literal (use errors::{literal} from {TABLE})")

    for problem in problems:
        print(problem)
    if not problems:
        print(f"{len(codes)} error codes: the table and ErrorCode's enum (Error.code) agree; no code is sent "
              "as a literal")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
