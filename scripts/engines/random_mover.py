#!/usr/bin/env python3
"""A UCI engine that plays a uniformly random legal move: the floor for the playing levels.

    python3 scripts/engines/random_mover.py build/engine/outpost [--seed N]

It asks an Outpost binary for the legal moves (`go perft 1` lists them, one per line) and picks
one at random. Used to check that level 1 plays chess rather than noise (docs/strength.md).
"""
import argparse
import random
import subprocess
import sys


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("outpost", help="path of the outpost binary that lists legal moves")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    helper = subprocess.Popen([args.outpost], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    position = "position startpos"

    def legal_moves() -> list[str]:
        helper.stdin.write(f"{position}\ngo perft 1\nisready\n")
        helper.stdin.flush()
        moves = []
        for line in helper.stdout:
            line = line.strip()
            if line == "readyok":
                break
            if ":" in line and not line.startswith("Nodes"):
                move, _, count = line.partition(":")
                if count.strip().isdigit() and len(move) in (4, 5):
                    moves.append(move)
        return moves

    def say(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            say("id name RandomMover")
            say("id author the Outpost team")
            say("uciok")
        elif command == "isready":
            say("readyok")
        elif command == "position":
            position = raw.strip()
        elif command == "go":
            moves = legal_moves()
            say(f"bestmove {rng.choice(moves) if moves else '0000'}")
        elif command == "quit":
            break
    helper.stdin.write("quit\n")
    helper.stdin.flush()
    helper.wait(timeout=5)


if __name__ == "__main__":
    main()
