#!/usr/bin/env python3
"""Rewrites an EPD test suite with its `bm`/`am` moves also in UCI notation (`bmuci`/`amuci`),
so a runner can compare them with an engine's `bestmove` without a SAN parser.

Legal moves come from a UCI engine's `go perft 1` (Stockfish and Outpost both print "move: n"
lines, then "Nodes searched: N"). Only the position, bm, am and id are kept.

  scripts/epd_san_to_uci.py --engine stockfish < suite.epd > suite-uci.epd
"""

import argparse
import re
import subprocess
import sys


def board_from_fen(fen):
    board = {}
    for rank_index, row in enumerate(fen.split()[0].split("/")):
        file_index = 0
        for char in row:
            if char.isdigit():
                file_index += int(char)
            else:
                board["abcdefgh"[file_index] + str(8 - rank_index)] = char
                file_index += 1
    return board


def san_to_uci(san, board, legal):
    text = re.sub(r"[+#!?]", "", san)
    matches = []
    for move in legal:
        origin, target, promo = move[:2], move[2:4], move[4:]
        piece = board.get(origin, "?").upper()
        if text in ("O-O", "0-0", "O-O-O", "0-0-0"):
            if piece == "K" and abs(ord(origin[0]) - ord(target[0])) == 2:
                long_castle = text.count("O") + text.count("0") == 3
                if (target[0] == "c") == long_castle:
                    matches.append(move)
            continue
        body = text
        want_promo = ""
        found = re.search(r"=?([NBRQ])$", body)
        if found and (body[0] not in "NBRQK"):
            want_promo = found.group(1).lower()
            body = body[: found.start()]
        want_piece = body[0] if body[0] in "NBRQK" else "P"
        rest = (body[1:] if want_piece != "P" else body).replace("x", "")
        if len(rest) < 2:
            continue
        dest, hint = rest[-2:], rest[:-2]
        if piece != want_piece or target != dest or promo != want_promo:
            continue
        if all(h in origin for h in hint):
            matches.append(move)
    return matches[0] if len(matches) == 1 else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--engine", default="stockfish")
    args = parser.parse_args()
    engine = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def legal_moves(fen):
        engine.stdin.write(f"position fen {fen}\ngo perft 1\n")
        engine.stdin.flush()
        moves = []
        for line in engine.stdout:
            line = line.strip()
            if line.startswith("Nodes searched"):
                return moves
            found = re.match(r"^([a-h][1-8][a-h][1-8][nbrq]?): \d+$", line)
            if found:
                moves.append(found.group(1))
        return moves

    failures = 0
    for raw in sys.stdin:
        raw = raw.strip()
        if not raw:
            continue
        fields = raw.split()
        fen = " ".join(fields[:4])
        ops = {}
        for op in " ".join(fields[4:]).split(";"):
            op = op.strip()
            if op:
                name, _, value = op.partition(" ")
                ops[name] = value.strip().strip('"')
        board = board_from_fen(fen)
        legal = legal_moves(fen + " 0 1")
        out = [fen]
        for kind in ("bm", "am"):
            if kind not in ops:
                continue
            sans = ops[kind].split()
            ucis = [san_to_uci(san, board, legal) for san in sans]
            if None in ucis:
                print(f"cannot convert {kind} {ops[kind]} in {fen}", file=sys.stderr)
                failures += 1
                break
            out.append(f"{kind} {' '.join(sans)}; {kind}uci {' '.join(ucis)};")
        else:
            out.append(f'id "{ops.get("id", "")}";')
            print(" ".join(out))
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
