"""A UCI engine driven over pipes, and the EPD line parser the test-suite scripts share
(tactics.py, sts.py)."""

import shlex
import subprocess


def parse_epd_line(raw):
    """(FEN with counters "0 1", {operation: value}) of one EPD line, or None for a blank one."""
    fields = raw.split()
    if not fields:
        return None
    fen = " ".join(fields[:4]) + " 0 1"
    ops = {}
    for op in " ".join(fields[4:]).split(";"):
        name, _, value = op.strip().partition(" ")
        if name:
            ops[name] = value.strip().strip('"')
    return fen, ops


class UciEngine:
    """One engine process: `uci`, the given options (one thread and 16 MB unless overridden),
    then one fresh search at a time."""

    def __init__(self, command, options=()):
        self.process = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        for option in ["Threads=1", "Hash=16", *options]:
            name, _, value = option.partition("=")
            self.send(f"setoption name {name} value {value}")

    def send(self, text):
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def wait_for(self, prefix):
        for line in self.process.stdout:
            if line.startswith(prefix):
                return line.strip()
        raise SystemExit(f"engine exited while waiting for {prefix}")

    def best_move(self, fen, movetime_ms):
        """The bestmove of a search of movetime_ms from fen, after ucinewgame (no table carried
        over from the position before)."""
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")
        self.send(f"position fen {fen}")
        self.send(f"go movetime {movetime_ms}")
        return self.wait_for("bestmove").split()[1]

    def quit(self):
        self.send("quit")
        self.process.wait(timeout=10)
