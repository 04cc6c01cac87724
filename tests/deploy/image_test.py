#!/usr/bin/env python3
"""The built container image, run for real: its own programs, files, libraries, user and
environment, started with `buildah run --isolation chroot` on the host's network (podman cannot
start containers on our machines; see docs/deployment.md). Run it through scripts/image_test.sh,
which makes the base image and builds the Dockerfile first.

  1. The image: its user is `outpost` (not root), its programs find every shared library, and it
     has a HEALTHCHECK.
  2. One server, as `docker run -v outpost-data:/var/lib/outpost` starts it (the image's
     environment; only the address and port, to stay on loopback, and a small search pool are
     set): GET / serves the board
     page and its scripts, a game lands in the SQLite file on the volume, the process runs as
     `outpost`, and the HEALTHCHECK command itself passes.
  3. SIGTERM (what `docker stop` sends) during a long search: /readyz turns 503, the search's
     result is delivered, the server exits 0 within the drain grace; the HEALTHCHECK then fails,
     and a new container on the same volume still has the game.
  4. `outpost bench` (the node count of the last `Bench:` line in git log) and `outpost perft`.
  5. The topology test (tests/deploy/topology_test.py) with its three replicas run from the
     image, with the compose file's environment (OUTPOST_STORE=redis, ...), behind nginx with the
     shipped docker/ rules: a game through nginx, kill -9 of the replica running the search, no
     acknowledged move lost, everything killed and restarted.
  And the image's size, and what it adds to its base (with 1.).

Exit status 0: passed, 1: failed.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import topology_test  # noqa: E402  (the scenario and its helpers are shared, not copied)
from topology_test import Topology, TestFailure, check, free_port, http_request  # noqa: E402

START_TIMEOUT_S = 30
LONG_SEARCH_MS = 60000  # far beyond the drain grace: the drain has to stop it
PERFT_DEPTH = 5
PERFT_NODES = 4865609  # perft(5) of the start position
COMMAND_TIMEOUT_S = 300


def log(message):
    print(f"[image {time.strftime('%H:%M:%S')}] {message}", flush=True)


topology_test.log = log  # one log format for the whole run


def run(argv, timeout=COMMAND_TIMEOUT_S, check_status=True):
    result = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=timeout)
    if check_status and result.returncode != 0:
        raise TestFailure(f"`{' '.join(argv)}` exited {result.returncode}: "
                          f"{(result.stderr or result.stdout).strip()[-2000:]}")
    return result


class Image:
    """The built image and the working containers made from it (removed by cleanup())."""

    def __init__(self, name):
        self.name = name
        info = json.loads(run(["buildah", "inspect", "--type", "image", name]).stdout)
        self.config = info["OCIv1"].get("config", {})
        self.docker_config = (info.get("Docker") or {}).get("config") or {}
        self.env = dict(item.split("=", 1) for item in self.config.get("Env", []))
        self.entrypoint = self.config.get("Entrypoint") or []
        self.cmd = self.config.get("Cmd") or []
        self.user = self.config.get("User", "")
        self.volumes = sorted((self.config.get("Volumes") or {}).keys())
        self.healthcheck = (self.docker_config.get("Healthcheck") or {}).get("Test") or []
        self.containers = []
        self.tag = f"outpost-image-test-{os.getpid()}"

    def container(self, name):
        container = f"{self.tag}-{name}"
        run(["buildah", "from", "--pull-never", "--name", container, self.name])
        self.containers.append(container)
        return container

    def run_argv(self, container, argv, env=None, volumes=None, user=None):
        """`buildah run` of argv in the container: the image's environment (buildah applies
        it) with `env` on top, volumes as host-dir -> path, the image's user unless `user`."""
        command = ["buildah", "run", "--isolation", "chroot", "--network", "host"]
        for key, value in (env or {}).items():
            command += ["--env", f"{key}={value}"]
        for host_dir, path in (volumes or {}).items():
            command += ["--volume", f"{host_dir}:{path}"]
        if user:
            command += ["--user", user]
        return command + [container, "--"] + list(argv)

    def exec(self, container, argv, timeout=COMMAND_TIMEOUT_S, **kwargs):
        return run(self.run_argv(container, argv, **kwargs), timeout=timeout, check_status=False)

    def mount(self, container):
        return run(["buildah", "mount", container]).stdout.strip()

    @staticmethod
    def remove_stale_containers():
        """Containers left by a run of this test that was killed (its pid is gone)."""
        names = run(["buildah", "containers", "--format", "{{.ContainerName}}"]).stdout.split()
        for name in names:
            match = re.fullmatch(r"outpost-image-test-(\d+)-.*", name)
            if match and not os.path.exists(f"/proc/{match.group(1)}"):
                subprocess.run(["buildah", "rm", name], capture_output=True, timeout=120)

    def cleanup(self):
        for container in self.containers:
            subprocess.run(["buildah", "rm", container], capture_output=True, timeout=120)
        self.containers = []


def descendants(pid):
    """Every process below pid (buildah run starts the program a few processes down)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def find_program(launcher_pid, comm, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        for pid in descendants(launcher_pid):
            try:
                with open(f"/proc/{pid}/comm") as f:
                    if f.read().strip() == comm:
                        return pid
            except OSError:
                continue
        time.sleep(0.05)
    raise TestFailure(f"no {comm} process under buildah run (pid {launcher_pid})")


def process_uid(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("Uid:"):
                return int(line.split()[1])
    raise TestFailure(f"no Uid line for process {pid}")


def wait_ready(port, process, log_path, what):
    deadline = time.time() + START_TIMEOUT_S
    while time.time() < deadline:
        if process.poll() is not None:
            raise TestFailure(f"{what} exited with status {process.returncode} at start:\n"
                              + tail(log_path))
        try:
            if http_request(port, "GET", "/readyz", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise TestFailure(f"{what} was not ready within {START_TIMEOUT_S} s:\n" + tail(log_path))


def tail(path, lines=30):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except OSError:
        return ""


# ---------------------------------------------------------------------------------------------
# 1. The image itself


def check_image(image, probe):
    check(image.user not in ("", "0", "root"), f"the image runs as user '{image.user}', not root")
    result = image.exec(probe, ["id", "-un"])
    check(result.returncode == 0 and result.stdout.strip() == "outpost",
          f"`id -un` in the image answers '{result.stdout.strip()}' (the user outpost)")
    uid = int(image.exec(probe, ["id", "-u"]).stdout.strip())
    check(uid != 0, f"the user outpost has uid {uid}")

    programs = [p for p in image.entrypoint if p.startswith("/")] + ["/usr/local/bin/outpost"]
    result = image.exec(probe, ["ldd"] + programs)
    missing = sorted({line.split()[0] for line in result.stdout.splitlines()
                      if "not found" in line})
    if missing:
        raise TestFailure(
            f"the image lacks shared libraries its programs need: {', '.join(missing)} "
            f"(ldd {' '.join(programs)}); the Dockerfile's runtime stage must install the "
            "packages that provide them")
    check(result.returncode == 0, f"every shared library of {' '.join(programs)} is in the image")
    check(image.healthcheck[:1] in (["CMD"], ["CMD-SHELL"]),
          f"the image has a HEALTHCHECK ({image.healthcheck[:1]})")
    check(image.volumes == ["/var/lib/outpost"] and
          os.path.dirname(image.env.get("OUTPOST_SQLITE_PATH", "")) == image.volumes[0],
          f"the SQLite file ({image.env.get('OUTPOST_SQLITE_PATH')}) is on the volume "
          f"{image.volumes}")
    return uid


def healthcheck_argv(image):
    kind, rest = image.healthcheck[0], image.healthcheck[1:]
    return rest if kind == "CMD" else ["/bin/sh", "-c", rest[0]]


# ---------------------------------------------------------------------------------------------
# 2 and 3. One server on its volume; SIGTERM


class SingleServer:
    def __init__(self, image, workdir, volume, name):
        self.image = image
        self.port = free_port()
        self.container = image.container(name)
        self.log_path = os.path.join(workdir, f"{name}.log")
        # Only the address and port differ from the image's environment (docker's -p would map
        # 8080; here the host's loopback is shared with everything else).
        self.env = {"OUTPOST_BIND": "127.0.0.1", "OUTPOST_PORT": str(self.port),
                    "OUTPOST_THREADS": "1", "OUTPOST_HASH": "16"}
        self.volume = volume
        argv = image.entrypoint + image.cmd
        with open(self.log_path, "ab") as handle:
            self.process = subprocess.Popen(
                image.run_argv(self.container, argv, env=self.env,
                               volumes={volume: image.volumes[0]}),
                stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT,
                start_new_session=True)
        wait_ready(self.port, self.process, self.log_path, f"outpost-server ({name})")
        self.pid = find_program(self.process.pid, "outpost-server")

    def healthcheck(self):
        return self.image.exec(self.container, healthcheck_argv(self.image), timeout=30,
                               env=self.env)

    def kill(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)


def single_server(image, workdir, uid):
    # A named volume starts as a copy of the image's folder, owner included.
    volume = os.path.join(workdir, "outpost-data")
    os.makedirs(volume)
    probe = image.container("volume-owner")
    folder = image.mount(probe) + image.volumes[0]
    stat = os.stat(folder)
    os.chown(volume, stat.st_uid, stat.st_gid)
    os.chmod(volume, stat.st_mode & 0o7777)
    check(stat.st_uid == uid, f"the image's {image.volumes[0]} belongs to outpost (uid {uid})")
    run(["buildah", "umount", probe])

    server = SingleServer(image, workdir, volume, "single")
    try:
        check(process_uid(server.pid) == uid,
              f"outpost-server runs as uid {uid} (outpost), pid {server.pid}")
        status, headers, page = http_request(server.port, "GET", "/")
        check(status == 200 and isinstance(page, str) and "<title>Outpost" in page,
              f"GET / serves the board page (status {status}, "
              f"{headers.get('content-type')})")
        assets = ["/" + a for a in re.findall(r'(?:src|href)="(?:\.?/)?(assets/[^"]+)"', page)]
        check(assets, f"the page refers to its built assets: {assets}")
        for asset in assets:
            status, _, _ = http_request(server.port, "GET", asset)
            check(status == 200, f"GET {asset}: {status}")

        status, _, game = http_request(server.port, "POST", "/api/v1/games",
                                       {"engine": {"side": "black", "limits": {"depth": 1}}})
        check(status == 201, f"game created (status {status})")
        game_id, token = game["id"], game["playerToken"]
        status, _, game = http_request(server.port, "POST", f"/api/v1/games/{game_id}/moves",
                                       {"move": "e2e4", "version": game["version"]}, token=token)
        check(status == 200, "move e2e4 acknowledged")
        deadline = time.time() + 20
        while game.get("turn") != "white" and time.time() < deadline:
            time.sleep(0.1)
            game = http_request(server.port, "GET", f"/api/v1/games/{game_id}")[2]
        check(game.get("turn") == "white", f"the engine replied ({' '.join(game['moves'])})")
        db = os.path.join(volume, os.path.basename(image.env["OUTPOST_SQLITE_PATH"]))
        check(os.path.getsize(db) > 0 and os.stat(db).st_uid == uid,
              f"the SQLite file is on the volume, written by outpost: {os.path.basename(db)}, "
              f"{os.path.getsize(db)} bytes")

        result = server.healthcheck()
        check(result.returncode == 0,
              f"the HEALTHCHECK command passes (exit {result.returncode} {result.stderr.strip()})")

        drain(server, game_id, token, game)

        result = server.healthcheck()
        check(result.returncode != 0,
              f"the HEALTHCHECK command fails once the server is gone (exit {result.returncode})")
    finally:
        server.kill()

    again = SingleServer(image, workdir, volume, "single-again")
    try:
        status, _, stored = http_request(again.port, "GET", f"/api/v1/games/{game_id}")
        # (It may already hold the engine's owed reply beyond them.)
        check(status == 200 and stored["moves"][:len(game["moves"])] == game["moves"],
              f"a new container on the same volume has the game ({len(stored['moves'])} moves)")
    finally:
        again.kill()


def drain(server, game_id, token, game):
    grace_ms = int(server.image.env.get("OUTPOST_DRAIN_GRACE", "10000"))
    result = {}

    def long_search():
        try:
            result["response"] = http_request(
                server.port, "POST", f"/api/v1/games/{game_id}/engine-move",
                {"limits": {"movetime": LONG_SEARCH_MS}}, token=token, timeout=60)
        except OSError as error:
            result["error"] = error

    searcher = threading.Thread(target=long_search)
    searcher.start()
    deadline = time.time() + 10
    while topology_test.searches_running(server.port) == 0 and time.time() < deadline:
        time.sleep(0.05)
    check(topology_test.searches_running(server.port) > 0,
          f"a long engine search is running {result if not searcher.is_alive() else ''}")
    sent = time.time()
    os.kill(server.pid, signal.SIGTERM)
    log(f"SIGTERM sent to outpost-server (pid {server.pid}), as `docker stop` does")
    status = None
    while time.time() < sent + 5:
        try:
            status = http_request(server.port, "GET", "/readyz", timeout=2)[0]
        except OSError:
            status = None
        if status == 503:
            break
        time.sleep(0.05)
    check(status == 503, "/readyz answers 503 while the server drains")
    try:
        code = server.process.wait(timeout=grace_ms / 1000 + 10)
    except subprocess.TimeoutExpired:
        raise TestFailure(f"outpost-server still runs {grace_ms / 1000 + 10:.0f} s after SIGTERM"
                          f" (drain grace {grace_ms} ms):\n" + tail(server.log_path))
    took = time.time() - sent
    searcher.join(timeout=30)
    check(code == 0, f"outpost-server exited with status {code} after SIGTERM")
    check(took < grace_ms / 1000 + 5,
          f"the drain finished in {took:.1f} s (grace {grace_ms / 1000:.0f} s)")
    status, _, body = result.get("response", (None, None, None))
    # 202: the move is stored and the engine owes the reply to it, which the drain does not start
    # (a replica that serves the game next takes it up).
    check(status in (200, 202) and isinstance(body, dict) and
          body.get("moves", [])[:len(game["moves"])] == game["moves"] and
          len(body["moves"]) == len(game["moves"]) + 1,
          f"the search stopped by the drain delivered its move (status {status}"
          f"{', engine reply owed' if status == 202 else ''}{result.get('error', '')})")
    game["moves"] = body["moves"]
    with open(server.log_path, errors="replace") as f:
        check('"event":"stopped"' in f.read(), "the server logged its stop")


# ---------------------------------------------------------------------------------------------
# 4. The engine


def engine(image, probe, expected_bench):
    started = time.time()
    result = image.exec(probe, ["/usr/local/bin/outpost", "bench"], timeout=600)
    check(result.returncode == 0, f"`outpost bench` ran in the image ({time.time() - started:.1f} s)")
    counts = re.findall(r"Nodes searched\s*:\s*(\d+)", result.stdout + result.stderr)
    check(counts, "`outpost bench` printed its node count")
    if expected_bench:
        check(counts[-1] == expected_bench,
              f"bench: {counts[-1]} nodes, as the last 'Bench:' line in git log says")
    else:
        log(f"bench: {counts[-1]} nodes (no 'Bench:' line to compare with)")
    result = image.exec(probe, ["/usr/local/bin/outpost", "perft", str(PERFT_DEPTH)], timeout=300)
    counts = re.findall(r"Nodes searched\s*:\s*(\d+)", result.stdout)
    check(result.returncode == 0 and counts and int(counts[-1]) == PERFT_NODES,
          f"`outpost perft {PERFT_DEPTH}` answers {counts[-1] if counts else '?'} "
          f"(expected {PERFT_NODES})")


# ---------------------------------------------------------------------------------------------
# 5. Three replicas from the image behind nginx


def compose_environment(path):
    import yaml  # python3-yaml (a test package, scripts/deps.sh)
    with open(path) as f:
        compose = yaml.safe_load(f)
    return {k: str(v) for k, v in compose["x-outpost-server"]["environment"].items()}


class ImageTopology(Topology):
    """The topology test's processes, with each replica in a container of its own."""

    def __init__(self, args, workdir, image, environment):
        super().__init__(args, workdir)
        self.image = image
        self.environment = environment
        self.containers = [image.container(f"replica-{i + 1}")
                           for i in range(topology_test.REPLICAS)]

    def replica_command(self, index, port):
        env = dict(self.environment)
        # The loopback topology has one Redis and no sentinels or replicas: the compose file's
        # Sentinel settings and its replica acknowledgements (which such a Redis can never give,
        # so every write would be refused) do not apply here.
        for name in ("OUTPOST_REDIS_SENTINELS", "OUTPOST_REDIS_MASTER_NAME",
                     "OUTPOST_REDIS_SENTINEL_PASSWORD", "OUTPOST_REDIS_REPLICA_MAX_LAG"):
            env.pop(name, None)
        env["OUTPOST_REDIS_MIN_REPLICA_ACKS"] = "0"
        # What differs from the compose file: addresses. Redis and nginx are on loopback.
        env.update({"OUTPOST_BIND": "127.0.0.1", "OUTPOST_PORT": str(port),
                    "OUTPOST_REDIS_URL": f"redis://127.0.0.1:{self.redis_port}",
                    "OUTPOST_TRUSTED_PROXIES": topology_test.PROXY_ADDRESS})
        return self.image.run_argv(self.containers[index], self.image.entrypoint + self.image.cmd,
                                   env=env)


def replicas(args, image, workdir):
    environment = compose_environment(args.compose)
    check(environment.get("OUTPOST_STORE") == "redis",
          f"the compose file's replicas use OUTPOST_STORE={environment.get('OUTPOST_STORE')}")
    topology = ImageTopology(args, workdir, image, environment)
    try:
        topology.start_all()
        topology_test.play(topology)
    except TestFailure:
        topology.dump_logs()
        raise
    finally:
        topology.kill_all()


# ---------------------------------------------------------------------------------------------
# 6. Size


def layers(name):
    """[(digest, bytes, the instruction that made it)] of an image, bottom first (the local
    store keeps layers uncompressed, so these are the sizes on disk)."""
    info = json.loads(run(["buildah", "inspect", "--type", "image", name]).stdout)
    manifest = json.loads(info["Manifest"])
    made_by = [h.get("created_by", "") for h in info.get("History") or []
               if not h.get("empty_layer")]
    made_by = [""] * (len(manifest["layers"]) - len(made_by)) + made_by
    return [(layer["digest"], int(layer["size"]), how)
            for layer, how in zip(manifest["layers"], made_by)]


def sizes(args):
    image, base = layers(args.image), layers(args.base_image)
    base_digests = {digest for digest, _, _ in base}
    added = [(size, how) for digest, size, how in image if digest not in base_digests]
    mb = 1000 * 1000
    total, base_total = sum(s for _, s, _ in image), sum(s for _, s, _ in base)
    added_total = sum(s for s, _ in added)
    log(f"image {args.image}: {total / mb:.1f} MB; its base {args.base_image}: "
        f"{base_total / mb:.1f} MB; the image adds {added_total / mb:.1f} MB in {len(added)} layers:")
    for size, how in added:
        how = re.sub(r"\s+", " ", re.sub(r"^/bin/sh -c (#\(nop\) )?", "", how))
        log(f"    {size / mb:6.1f} MB  {how[:90]}")
    check(len(added) == len(image) - len(base),
          "the image is its base plus layers of its own")
    check(added_total <= args.max_added_mb * mb,
          f"the image adds {added_total / mb:.1f} MB to its base (at most {args.max_added_mb:g} MB)")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--image", required=True)
    parser.add_argument("--base-image", required=True)
    parser.add_argument("--redis", required=True)
    parser.add_argument("--nginx", required=True)
    parser.add_argument("--proxy-conf", required=True)
    # The topology test's nginx options, with its defaults (Topology reads them from args).
    parser.add_argument("--http-conf", default="",
                        help="the http-block proxy rules (default: outpost-http.conf beside "
                             "--proxy-conf)")
    parser.add_argument("--compose", required=True)
    parser.add_argument("--expected-bench", default="")
    parser.add_argument("--max-added-mb", type=float, default=100)
    parser.add_argument("--keep", action="store_true", help="keep the work folder")
    args = parser.parse_args()
    args.proxy_conf = os.path.abspath(args.proxy_conf)
    args.http_conf = os.path.abspath(
        args.http_conf or os.path.join(os.path.dirname(args.proxy_conf), "outpost-http.conf"))

    workdir = tempfile.mkdtemp(prefix="outpost-image-")
    os.chmod(workdir, 0o755)
    started = time.time()
    image = None
    try:
        Image.remove_stale_containers()
        image = Image(args.image)
        probe = image.container("probe")
        uid = check_image(image, probe)
        sizes(args)
        single_server(image, workdir, uid)
        engine(image, probe, args.expected_bench)
        replicas(args, image, workdir)
        log(f"PASSED in {time.time() - started:.1f} s")
        return 0
    except (TestFailure, OSError, KeyError, ValueError, subprocess.TimeoutExpired) as error:
        log(f"FAILED: {error}")
        return 1
    except Exception:  # a defect of the test itself (e.g. the topology test's arguments changed)
        import traceback
        traceback.print_exc()
        log("FAILED: the image test itself broke (traceback above)")
        return 1
    finally:
        if image:
            image.cleanup()
        if args.keep:
            log(f"work folder kept: {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
