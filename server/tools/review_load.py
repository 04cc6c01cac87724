#!/usr/bin/env python3
"""Live engine-reply latency with and without game reviews running (docs/performance.md).

Starts outpost-server (games in memory, --threads searchers), makes an 80-ply game to review
(depth-5 self-play through /api/v1/analysis), then measures the engine's reply to a player's
first move in fresh games against the engine (a fixed node budget per reply, so every sample is
the same work), in alternating blocks: without reviews, then with `--reviews` reviews of that game
running (restarted whenever one ends), and so on. Blocks alternate so that the noise of a shared
machine falls on both sides alike. Prints median / p90 latency per side and their ratios.

    server/tools/review_load.py build/server/outpost-server [--threads 2] [--blocks 6]
        [--samples 10] [--reply-nodes 100000] [--reviews 2] [--port 18519]
"""
import argparse
import json
import statistics
import subprocess
import threading
import time
import urllib.error
import urllib.request

FIRST_MOVES = ["e2e4", "d2d4", "c2c4", "g1f3", "b1c3", "e2e3", "d2d3", "g2g3", "b2b3", "f2f4"]


class Api:
    def __init__(self, port):
        self.base = f"http://127.0.0.1:{port}"

    def call(self, method, path, body=None, token=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)


def self_play(api, plies):
    moves = []
    for _ in range(plies):
        status, result = api.call("POST", "/api/v1/analysis", {"moves": moves, "limits": {"depth": 5}})
        if status != 200 or not result.get("bestmove"):
            break
        moves.append(result["bestmove"])
    return moves


def engine_reply_ms(api, first_move, nodes):
    status, game = api.call("POST", "/api/v1/games",
                            {"engine": {"side": "black", "limits": {"nodes": nodes}}})
    assert status == 201, game
    start = time.perf_counter()
    status, reply = api.call("POST", f"/api/v1/games/{game['id']}/moves", {"move": first_move},
                             token=game["playerToken"])
    elapsed = (time.perf_counter() - start) * 1000
    assert status == 200 and reply.get("engineMove"), reply
    return elapsed


class Reviews:
    """Keeps `count` reviews of `moves` running until stopped."""

    def __init__(self, api, moves, count):
        self.api, self.moves, self.count = api, moves, count
        self.running = False
        self.positions = 0
        self.threads = []

    def _loop(self):
        while self.running:
            status, review = self.api.call("POST", "/api/v1/review", {"moves": self.moves})
            if status not in (200, 202):
                time.sleep(0.05)
                continue
            while self.running:
                status, review = self.api.call("GET", f"/api/v1/reviews/{review['id']}")
                if review.get("status") != "running":
                    break
                time.sleep(0.02)
            if review.get("status") == "running":
                _, review = self.api.call("POST", f"/api/v1/reviews/{review['id']}/stop")
            self.positions += review.get("done", 0)

    def start(self):
        self.running = True
        self.threads = [threading.Thread(target=self._loop) for _ in range(self.count)]
        for thread in self.threads:
            thread.start()
        time.sleep(0.3)  # let them fill the review queue

    def stop(self):
        self.running = False
        for thread in self.threads:
            thread.join()


def summary(samples):
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.9 * (len(ordered) - 1))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("server")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--blocks", type=int, default=6)
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--reply-nodes", type=int, default=100000)
    parser.add_argument("--reviews", type=int, default=2)
    parser.add_argument("--port", type=int, default=18519)
    parser.add_argument("--log", help="the server's JSON log (search events: queue wait, search time)")
    args = parser.parse_args()
    server = subprocess.Popen(
        [args.server, "--port", str(args.port), "--bind", "127.0.0.1", "--threads",
         str(args.threads), "--store", "memory", "--log-requests", "false",
         "--client-games-per-minute", "0", "--client-reviews", str(args.reviews),
         # Every sample is a fresh game left after one reply: no admission limit on them.
         "--max-engine-games", "1000000", "--admit-game-wait", "0",
         "--max-reviews", str(args.reviews)],
        stdout=open(args.log, "w") if args.log else subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        api = Api(args.port)
        for _ in range(100):
            try:
                urllib.request.urlopen(api.base + "/healthz", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        moves = self_play(api, 80)
        print(f"server: {args.threads} searchers; game to review: {len(moves)} plies; "
              f"engine replies: {args.reply_nodes} nodes; {args.reviews} reviews at a time")
        results = {"without": [], "with": []}
        reviews = Reviews(api, moves, args.reviews)
        sample = 0
        for block in range(2 * args.blocks):
            side = "with" if block % 2 else "without"
            if side == "with":
                reviews.start()
            for _ in range(args.samples):
                results[side].append(
                    engine_reply_ms(api, FIRST_MOVES[sample % len(FIRST_MOVES)], args.reply_nodes))
                sample += 1
            if side == "with":
                reviews.stop()
        base_median, base_p90 = summary(results["without"])
        load_median, load_p90 = summary(results["with"])
        print(f"without reviews: n={len(results['without'])} median {base_median:.1f} ms, "
              f"p90 {base_p90:.1f} ms")
        print(f"with reviews:    n={len(results['with'])} median {load_median:.1f} ms, "
              f"p90 {load_p90:.1f} ms; review positions done meanwhile: {reviews.positions}")
        print(f"ratio with/without: median {load_median / base_median:.2f}, "
              f"p90 {load_p90 / base_p90:.2f}")
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
