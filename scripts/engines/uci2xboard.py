#!/usr/bin/env python3
"""A UCI front for an xboard (CECP) engine, so UCI-only tournament runners such as fastchess can
play Fairy-Max, Phalanx or Sjeng:

  scripts/match.sh -2 "python3 scripts/engines/uci2xboard.py /usr/games/fairymax" ...

Each `go` replays the game to the engine ("new", "force", the moves, clocks, "go"), so it needs
nothing of the engine but the basics; positions given by FEN are entered with `edit` (Fairy-Max
has no `setboard`). Only the bestmove is relayed (no info lines).
"""

import queue
import subprocess
import sys
import threading


# The adapter and the replay of the game cost time the xboard engine does not know about; it is
# told its clock is this much shorter so it does not lose on time because of them.
ADAPTER_LATENCY_MS = 150

# Some engines (Phalanx) answer castling in SAN even in coordinate mode; UCI wants the king's move.
CASTLING_SAN = {"O-O": ("e1g1", "e8g8"), "O-O-O": ("e1c1", "e8c8"),
                "0-0": ("e1g1", "e8g8"), "0-0-0": ("e1c1", "e8c8")}


def to_uci(move, white_to_move):
    """The engine's move in UCI form (castling in SAN becomes the king's two-square move)."""
    bare = move.rstrip("+#")
    if bare in CASTLING_SAN:
        return CASTLING_SAN[bare][0 if white_to_move else 1]
    return move


class XboardEngine:
    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.name = argv[0].rsplit("/", 1)[-1]
        self.setboard = False
        self.ping = 0
        self.send("xboard")
        self.send("protover 2")
        while True:
            try:
                line = self.lines.get(timeout=3)
            except queue.Empty:
                break
            if line is None:
                break
            if 'myname="' in line:
                self.name = line.split('myname="', 1)[1].split('"', 1)[0]
            if "setboard=1" in line:
                self.setboard = True
            if "done=1" in line:
                break
        self.send("nopost")
        self.send("easy")  # no pondering

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def sync(self):
        self.ping += 1
        self.send(f"ping {self.ping}")
        while True:
            line = self.lines.get()
            if line is None or line == f"pong {self.ping}":
                return

    def enter_fen(self, fen):
        if self.setboard:
            self.send("setboard " + fen)
            return
        placement, side = fen.split()[:2]
        self.send("edit")
        self.send("#")
        colour = "w"
        for want in ("w", "b"):
            if want != colour:
                self.send("c")
                colour = want
            for rank_index, row in enumerate(placement.split("/")):
                file_index = 0
                for char in row:
                    if char.isdigit():
                        file_index += int(char)
                        continue
                    if (char.isupper() and want == "w") or (char.islower() and want == "b"):
                        square = "abcdefgh"[file_index] + str(8 - rank_index)
                        self.send(char.upper() + square)
                    file_index += 1
        self.send(".")
        # Edit mode leaves white to move; "black" (an old, widely supported command) fixes that.
        if side == "b":
            self.send("black")


def main():
    engine = XboardEngine(sys.argv[1:])
    fen, moves = None, []
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "uci":
            out.write(f"id name {engine.name}\nid author (xboard engine)\nuciok\n")
        elif command == "isready":
            engine.sync()
            out.write("readyok\n")
        elif command == "position":
            fen, moves = None, []
            if len(words) > 1 and words[1] == "fen":
                end = words.index("moves") if "moves" in words else len(words)
                fen = " ".join(words[2:end])
            if "moves" in words:
                moves = words[words.index("moves") + 1:]
        elif command == "go":
            args = dict(zip(words[1::2], words[2::2]))
            white_to_move = (fen is None or fen.split()[1] == "w") == (len(moves) % 2 == 0)
            own, other = ("wtime", "btime") if white_to_move else ("btime", "wtime")
            inc = int(args.get("winc" if white_to_move else "binc", 0))
            engine.send("new")
            engine.send("force")
            if fen:
                engine.enter_fen(fen)
            for move in moves:
                engine.send(move)
            if "movetime" in args:
                engine.send(f"st {max(1, int(args['movetime']) // 1000)}")
            else:
                base_s = max(1, int(args.get(own, 1000)) // 1000)
                engine.send(f"level 0 {base_s // 60}:{base_s % 60:02d} {inc / 1000:g}")
                own_ms = int(args.get(own, 1000)) - ADAPTER_LATENCY_MS
                engine.send(f"time {max(1, own_ms // 10)}")
                engine.send(f"otim {max(1, int(args.get(other, 1000)) // 10)}")
            engine.send("go")
            best = "0000"
            while True:
                reply = engine.lines.get()
                if reply is None:
                    return 1
                if reply.startswith("move "):
                    best = to_uci(reply.split()[1], white_to_move)
                    break
                if reply.startswith(("1-0", "0-1", "1/2-1/2", "resign")):
                    break
            engine.send("force")
            out.write(f"bestmove {best}\n")
        elif command == "stop":
            engine.send("?")
        elif command == "quit":
            engine.send("quit")
            return 0
        out.flush()
    engine.send("quit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
