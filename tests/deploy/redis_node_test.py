#!/usr/bin/env python3
"""docker/redis-node.sh on loopback: a primary and two replicas started by the script, three
sentinels (redis-server --sentinel) watching them.

The primary is killed and comes back at once with its data folder emptied (its volume lost or
replaced), before the sentinels call it down. The sentinels still name it as the primary: had it
started as the primary, its replicas would have synced from it and dropped every game (the
script's earlier behaviour). The script waits instead until the sentinels promote a replica,
then starts as the new primary's replica. Checks: a key written and acknowledged by both
replicas before the kill is on every node afterwards, the old primary is a replica of the new
one, and the script said why it waited.

Usage: redis_node_test.py ROOT. Exit status 0: passed, 1: failed, 77: skipped (no redis-server).
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

MASTER = "outpost"
DOWN_AFTER_MS = 1000


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis(port, *args, timeout=2.0):
    """One command through redis-cli --raw; its output (stripped), or None when unreachable."""
    try:
        done = subprocess.run(["redis-cli", "-p", str(port), "--raw", *map(str, args)],
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def wait(condition, what, timeout=30.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = sys.argv[1]
    if not shutil.which("redis-server") or not shutil.which("redis-cli"):
        print("redis-server is not installed: skipped")
        return 77
    script = os.path.join(root, "docker", "redis-node.sh")
    work = tempfile.mkdtemp(prefix="outpost-redis-node-")
    ports = [free_port() for _ in range(3)]
    sentinel_ports = [free_port() for _ in range(3)]
    processes = {}
    logs = {}

    def start_node(i):
        data = os.path.join(work, f"node-{i}")
        os.makedirs(data, exist_ok=True)
        env = dict(os.environ,
                   OUTPOST_REDIS_SELF="127.0.0.1", OUTPOST_REDIS_PORT=str(ports[i]),
                   OUTPOST_REDIS_DIR=data, OUTPOST_REDIS_FIRST=f"127.0.0.1:{ports[0]}",
                   OUTPOST_REDIS_SENTINELS=" ".join(f"127.0.0.1:{p}" for p in sentinel_ports))
        logs[i] = os.path.join(work, f"node-{i}.log")
        processes[i] = subprocess.Popen(
            ["sh", script, "--bind", "127.0.0.1", "--repl-diskless-sync", "yes",
             "--repl-diskless-sync-delay", "0"],
            env=env, stdout=open(logs[i], "a"), stderr=subprocess.STDOUT)

    def start_sentinel(i, primary_port):
        conf = os.path.join(work, f"sentinel-{i}.conf")
        with open(conf, "w") as f:
            f.write(f"port {sentinel_ports[i]}\nbind 127.0.0.1\ndir {work}\n"
                    f"sentinel monitor {MASTER} 127.0.0.1 {primary_port} 2\n"
                    f"sentinel down-after-milliseconds {MASTER} {DOWN_AFTER_MS}\n"
                    f"sentinel failover-timeout {MASTER} 4000\n")
        processes[f"s{i}"] = subprocess.Popen(
            ["redis-server", conf, "--sentinel"],
            stdout=open(os.path.join(work, f"sentinel-{i}.log"), "a"), stderr=subprocess.STDOUT)

    def role(port):
        answer = redis(port, "ROLE")
        return answer.split("\n")[0] if answer else None

    try:
        # The very first start, before any sentinel: node 0 is the primary, the others its
        # replicas.
        for i in range(3):
            start_node(i)
        for port in ports:
            wait(lambda p=port: redis(p, "PING") == "PONG", f"redis on {port}")
        wait(lambda: redis(ports[0], "INFO", "replication").count("state=online") == 2,
             "two replicas online")
        for i in range(3):
            start_sentinel(i, ports[0])
        wait(lambda: all((redis(p, "SENTINEL", "replicas", MASTER) or "").split("\n").count("name")
                         >= 2 for p in sentinel_ports),
             "every sentinel knows both replicas")
        wait(lambda: all("num-other-sentinels\n2" in (redis(p, "SENTINEL", "master", MASTER) or "")
                         for p in sentinel_ports), "the sentinels know each other")

        # A game, acknowledged by both replicas.
        answer = subprocess.run(["redis-cli", "-p", str(ports[0]), "--raw"], text=True,
                                input="SET outpost:game:kept acknowledged\nWAIT 2 2000\n",
                                capture_output=True, timeout=10).stdout.split()
        assert answer == ["OK", "2"], f"the write was not acknowledged by both replicas: {answer}"

        # The primary dies and comes back at once with an empty data folder.
        processes[0].send_signal(signal.SIGKILL)
        processes[0].wait()
        # The script's redis-server is its own process (exec): the same pid.
        wait(lambda: redis(ports[0], "PING") is None, "the primary gone")
        shutil.rmtree(os.path.join(work, "node-0"))
        start_node(0)

        # A replica is promoted, the old primary follows it, and the game is everywhere.
        def settled():
            return (role(ports[0]) == "slave"
                    and "master_link_status:up" in (redis(ports[0], "INFO", "replication") or "")
                    and all(redis(p, "GET", "outpost:game:kept") == "acknowledged" for p in ports))
        try:
            wait(settled, "the old primary a replica in sync, and the game on every node", 40)
        except AssertionError:
            found = {p: (role(p), redis(p, "GET", "outpost:game:kept")) for p in ports}
            raise AssertionError(f"the acknowledged game is not on every node, the old primary a "
                                 f"replica (port: role, value): {found}")
        with open(logs[0]) as f:
            log = f.read()
        assert "holds no data" in log, f"the script did not say why it waited:\n{log}"
        print("passed: the primary back without its data waited for a failover; nothing lost")
        return 0
    except AssertionError as failure:
        print(f"FAILED: {failure}")
        for name in sorted(os.listdir(work)):
            if name.endswith(".log"):
                with open(os.path.join(work, name)) as f:
                    print(f"--- {name}\n{f.read()[-1500:]}")
        return 1
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.kill()
                process.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
