#!/usr/bin/env python3
"""Generates tests/engine/data/perft_suite.epd: positions rich in castling, en-passant and
promotion subtleties, with perft counts computed by Stockfish (`go perft N`).

The positions are hand-picked seeds (well-known tricky perft positions) plus positions reached by
short random walks from them (fixed seed, so the file is reproducible). For each position the
counts go up to the first depth whose count exceeds MAX_NODES (or MAX_DEPTH).

Usage: scripts/perft_suite_gen.py [path/to/stockfish] > tests/engine/data/perft_suite.epd
"""
import random
import shutil
import subprocess
import sys

MAX_NODES = 3_000_000
MAX_DEPTH = 6
WALKS_PER_SEED = 3
WALK_PLIES = (2, 9)

SEEDS = [
    # The standard suite.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    # En passant: discovered checks, pins through both pawns, evasions by en passant.
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "8/8/8/8/k1pP3R/8/8/4K3 b - d3 0 1",
    "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1",
    "8/8/8/3k4/3pP3/8/8/3K1B2 b - e3 0 1",
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/8/3k4/8/3Pp3/8/8/3K3R b - d3 0 1",
    "2r5/8/8/1pPk4/8/8/8/2K5 w - b6 0 1",
    # Castling: attacked, blocked and captured rooks, rights without a use.
    "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
    "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "r3k2r/p6p/8/8/8/8/P6P/R3K2R w KQkq - 0 1",
    "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
    "r3k2r/8/8/8/3b4/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/n7/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/6p1/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K1r1 w Qkq - 0 1",
    "4k2r/6K1/8/8/8/8/8/8 w k - 0 1",
    "r3k3/1K6/8/8/8/8/8/8 w q - 0 1",
    # Promotions and under-promotions, with and without captures and checks.
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1",
    "4k3/1P6/8/8/8/8/K7/8 w - - 0 1",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "K1k5/8/P7/8/8/8/8/8 w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "r1bqkbnr/pPpppppp/8/8/8/8/PpPPPPPP/RNBQKBNR w KQkq - 0 1",
    # Checks and stalemates.
    "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1",
    "6kq/8/8/8/8/8/8/7K w - - 0 1",
    "K7/8/8/3Q4/4q3/8/8/7k w - - 0 1",
    "8/8/8/8/8/3k4/3p4/3K4 w - - 0 1",
]


class Stockfish:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci")
        self.read_until("uciok")

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("stockfish exited")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def divide(self, fen, depth):
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        lines = self.read_until("Nodes searched")
        moves = [l.split(":")[0] for l in lines if ": " in l and not l.startswith("Nodes")]
        return moves, int(lines[-1].split(":")[1])

    def fen_after(self, fen, moves):
        self.send(f"position fen {fen} moves {' '.join(moves)}")
        self.send("d")
        for line in self.read_until("Checkers"):
            if line.startswith("Fen: "):
                return line[5:]
        raise RuntimeError("no FEN from stockfish")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else (shutil.which("stockfish") or "/usr/games/stockfish")
    sf = Stockfish(path)
    rng = random.Random(20261123)
    positions = []
    for seed in SEEDS:
        positions.append(seed)
        for _ in range(WALKS_PER_SEED):
            moves = []
            for _ in range(rng.randint(*WALK_PLIES)):
                legal, _ = sf.divide(sf.fen_after(seed, moves), 1)
                if not legal:
                    break
                moves.append(rng.choice(legal))
            fen = sf.fen_after(seed, moves)
            if fen not in positions and sf.divide(fen, 1)[1] > 0:
                positions.append(fen)
    print(f"# {len(positions)} positions; counts by Stockfish (scripts/perft_suite_gen.py)")
    for fen in positions:
        counts = []
        for depth in range(1, MAX_DEPTH + 1):
            nodes = sf.divide(fen, depth)[1]
            counts.append(f"D{depth} {nodes}")
            if nodes > MAX_NODES:
                break
        print(fen + " ;" + " ;".join(counts))
    sf.send("quit")


if __name__ == "__main__":
    main()
