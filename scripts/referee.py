#!/usr/bin/env python3
"""A small self-contained referee: plays games between two UCI engines and checks every move.

It needs nothing but Python's standard library. The rules come from an `outpost` process used as
the arbiter through two commands of its UCI loop that tournament GUIs never send:
  `legalmoves`  -> "legalmoves m1 m2 ..."      (the legal moves of the current position)
  `gamestate`   -> "gamestate ongoing|checkmate|stalemate|fifty|repetition|insufficient"
                   ("none", and no legal moves, after a refused `position`)
Each engine plays on a clock (base + increment); a move that arrives after the clock ran out (by
more than --margin-ms) is a time forfeit, a move not in the arbiter's list is illegal, and an
engine that exits or stops answering has crashed. Any of those makes the exit status 1. Outpost
replaces an illegal move of its search by a legal one (and says so with an `info string error`);
those are counted, and fail the match with --strict.

With --ponder the first engine ponders as a GUI lets it: after its move it is sent `go ponder` on
the reply it predicted; when the opponent plays that reply it gets `ponderhit` (its clock runs from
then), otherwise `stop` (its answer is thrown away) and a normal `go`.
"""

import argparse
import queue
import shlex
import subprocess
import sys
import threading
import time

# Openings written as move lists from the start position, so each game pair starts differently.
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6",
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7",
    "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6",
    "e2e4 e7e6 d2d4 d7d5 b1c3 f8b4",
    "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5",
    "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6",
    "e2e4 e7e5 f2f4 e5f4 g1f3 g7g5",
    "d2d4 f7f5 g2g3 g8f6 f1g2 g7g6",
]

# How long a silent engine may take beyond its clock before it counts as hung (a crash).
HANG_GRACE_S = 5.0
STARTUP_TIMEOUT_S = 10.0


class EngineDied(Exception):
    pass


class Engine:
    traffic = None  # a file that receives every line sent and received (--log)

    def __init__(self, command, name):
        self.name = name
        self.command = command
        self.proc = subprocess.Popen(
            shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines = queue.Queue()
        self.masked_illegal = 0  # illegal moves the engine itself caught and replaced
        self.ponders = False       # --ponder: this engine thinks on the opponent's time
        self.pondering_on = None   # the reply its running `go ponder` expects
        self.ponder_hits = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            if Engine.traffic:
                Engine.traffic.write(f"{self.name} > {line}")
            self.lines.put(line.strip())
        self.lines.put(None)  # end of output: the process is gone

    def send(self, text):
        if Engine.traffic:
            Engine.traffic.write(f"{self.name} < {text}\n")
        try:
            self.proc.stdin.write(text + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise EngineDied(f"{self.name}: cannot write ({error})")

    def wait_for(self, prefix, timeout):
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineDied(f"{self.name}: no '{prefix}' within {timeout:.1f}s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EngineDied(f"{self.name}: process exited (code {self.proc.poll()})")
            if line.startswith("info string error: search returned illegal"):
                self.masked_illegal += 1
            if line.split(" ", 1)[0] == prefix:
                return line

    def handshake(self):
        self.send("uci")
        self.wait_for("uciok", STARTUP_TIMEOUT_S)
        if self.ponders:
            self.send("setoption name Ponder value true")
        self.send("isready")
        self.wait_for("readyok", STARTUP_TIMEOUT_S)

    def end_ponder(self):
        """Stops a ponder search whose guess was wrong (its answer is thrown away)."""
        if self.pondering_on is None:
            return
        self.pondering_on = None
        self.send("stop")
        self.wait_for("bestmove", HANG_GRACE_S)

    def close(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=2)
        except Exception:
            self.proc.kill()
            self.proc.wait()


class Arbiter(Engine):
    def query(self, moves, command):
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send(command)
        return self.wait_for(command, STARTUP_TIMEOUT_S).split()[1:]


def play_game(white, black, arbiter, opening, base_ms, inc_ms, margin_ms, max_plies, log):
    """Returns (result, reason, offender) with result '1-0', '0-1' or '1/2-1/2'."""
    moves = opening.split()
    clocks = {"w": float(base_ms), "b": float(base_ms)}
    for engine in (white, black):
        engine.end_ponder()
        engine.send("ucinewgame")
        engine.send("isready")
        engine.wait_for("readyok", STARTUP_TIMEOUT_S)
    while True:
        state = arbiter.query(moves, "gamestate")[0]
        side = "w" if len(moves) % 2 == 0 else "b"
        if state == "checkmate":
            return ("0-1" if side == "w" else "1-0"), "checkmate", None
        if state != "ongoing":
            return "1/2-1/2", state, None
        if len(moves) >= max_plies:
            return "1/2-1/2", "max plies", None
        engine = white if side == "w" else black
        go = f"wtime {int(clocks['w'])} btime {int(clocks['b'])} winc {inc_ms} binc {inc_ms}"
        start = time.monotonic()
        try:
            if engine.pondering_on is not None and engine.pondering_on == moves[-1]:
                engine.pondering_on = None
                engine.ponder_hits += 1
                engine.send("ponderhit")
            else:
                engine.end_ponder()
                start = time.monotonic()
                engine.send("position startpos moves " + " ".join(moves))
                engine.send("go " + go)
            line = engine.wait_for("bestmove", clocks[side] / 1000 + HANG_GRACE_S)
        except EngineDied as error:
            log(f"  crash: {error}")
            return ("0-1" if side == "w" else "1-0"), "crash", engine
        elapsed_ms = (time.monotonic() - start) * 1000
        clocks[side] -= elapsed_ms
        if clocks[side] < -margin_ms:
            log(f"  time forfeit: {engine.name} used {elapsed_ms:.0f} ms, clock {clocks[side]:.0f}")
            return ("0-1" if side == "w" else "1-0"), "time forfeit", engine
        clocks[side] = max(clocks[side], 0) + inc_ms
        parts = line.split()
        move = parts[1] if len(parts) > 1 else ""
        legal = arbiter.query(moves, "legalmoves")
        if move not in legal:
            log(f"  illegal move '{move}' by {engine.name} after: {' '.join(moves)}")
            return ("0-1" if side == "w" else "1-0"), "illegal move", engine
        moves.append(move)
        guess = parts[3] if len(parts) > 3 and parts[2] == "ponder" else None
        if engine.ponders and guess and arbiter.query(moves, "gamestate")[0] == "ongoing":
            if guess not in arbiter.query(moves, "legalmoves"):
                log(f"  illegal ponder move '{guess}' by {engine.name} after: {' '.join(moves)}")
                return ("0-1" if side == "w" else "1-0"), "illegal move", engine
            engine.pondering_on = guess
            engine.send("position startpos moves " + " ".join(moves + [guess]))
            engine.send(f"go ponder wtime {int(clocks['w'])} btime {int(clocks['b'])} "
                        f"winc {inc_ms} binc {inc_ms}")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine1", required=True, help="command of the first engine")
    parser.add_argument("--engine2", help="command of the second engine (default: engine1)")
    parser.add_argument("--arbiter", help="outpost command used for the rules (default: engine1)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--tc", default="2+0.05", help="seconds base+increment, e.g. 2+0.05")
    parser.add_argument("--margin-ms", type=int, default=100,
                        help="how far past zero a clock may go before it is a forfeit")
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--strict", action="store_true",
                        help="also fail when the UCI layer had to replace an illegal search move")
    parser.add_argument("--log", help="write every UCI line sent and received to this file")
    parser.add_argument("--ponder", action="store_true",
                        help="the first engine ponders (go ponder, ponderhit, stop)")
    args = parser.parse_args()

    base, _, inc = args.tc.partition("+")
    base_ms, inc_ms = int(float(base) * 1000), int(float(inc or 0) * 1000)

    def log(text):
        print(text, flush=True)

    if args.log:
        Engine.traffic = open(args.log, "w", buffering=1)
    commands = [args.engine1, args.engine2 or args.engine1]
    engines = [Engine(commands[0], "engine1"), Engine(commands[1], "engine2")]
    engines[0].ponders = args.ponder
    arbiter = Arbiter(args.arbiter or args.engine1, "arbiter")
    failures = {"illegal move": 0, "crash": 0, "time forfeit": 0, "caught illegal": 0}
    score = {"engine1": 0.0, "engine2": 0.0}
    try:
        arbiter.handshake()
        for engine in engines:
            engine.handshake()
        for game in range(args.games):
            opening = OPENINGS[(game // 2) % len(OPENINGS)]
            white, black = (engines[0], engines[1]) if game % 2 == 0 else (engines[1], engines[0])
            result, reason, offender = play_game(white, black, arbiter, opening, base_ms,
                                                 inc_ms, args.margin_ms, args.max_plies, log)
            log(f"game {game + 1}: {white.name} vs {black.name} {result} ({reason})")
            points = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}[result]
            score[white.name] += points[0]
            score[black.name] += points[1]
            for engine in engines:
                failures["caught illegal"] += engine.masked_illegal
                engine.masked_illegal = 0
            if reason in failures:
                failures[reason] += 1
                # A crashed or confused engine is replaced so the match can go on.
                index = engines.index(offender)
                offender.close()
                engines[index] = Engine(commands[index], offender.name)
                engines[index].ponders = offender.ponders
                engines[index].handshake()
        if args.ponder:
            log(f"ponderhits: {engines[0].ponder_hits}")
    finally:
        for engine in engines + [arbiter]:
            engine.close()

    log(f"score: engine1 {score['engine1']} - engine2 {score['engine2']} "
        f"over {args.games} games")
    log(f"failures: {failures['illegal move']} illegal moves, {failures['crash']} crashes, "
        f"{failures['time forfeit']} time forfeits, "
        f"{failures['caught illegal']} illegal search moves caught by the UCI layer")
    caught = failures.pop("caught illegal")
    return 1 if any(failures.values()) or (args.strict and caught) else 0


if __name__ == "__main__":
    sys.exit(main())
