#!/usr/bin/env python3
"""docker/k8s/ against the deployment that is tested: the manifests parse, and they state the
values that docker/compose.yaml, docker/outpost-proxy.conf and the Dockerfile state (the replicas'
environment, health checks, drain and termination graces, user, Redis's durability, the proxy's
WebSocket timeouts). No cluster is needed; run by CTest (`deploy: k8s manifests`).

usage: k8s_manifests_test.py REPOSITORY_ROOT
"""

import os
import re
import sys

import yaml  # python3-yaml (scripts/deps.sh, OUTPOST_TEST_PACKAGES)

failures = []


def check(condition, message):
    print(("ok: " if condition else "FAILED: ") + message)
    if not condition:
        failures.append(message)


def load_all(path):
    with open(path) as f:
        return [doc for doc in yaml.safe_load_all(f) if doc]


def seconds(value):
    """'20s', '2m', '120' -> seconds."""
    match = re.fullmatch(r"(\d+)\s*(ms|s|m)?", str(value).strip())
    if not match:
        raise ValueError(f"not a duration: {value!r}")
    number, unit = int(match.group(1)), match.group(2) or "s"
    return number / 1000 if unit == "ms" else number * 60 if unit == "m" else number


def proxy_directive(conf, location, name):
    """The value of `name` inside `location = LOCATION { ... }` (or `location LOCATION`)."""
    match = re.search(r"location\s+(?:=\s*)?" + re.escape(location) + r"\s*\{(.*?)\}", conf, re.S)
    block = match.group(1) if match else ""
    found = re.search(r"^\s*" + name + r"\s+([^;]+);", block, re.M)
    if not found:
        found = re.search(r"^" + name + r"\s+([^;]+);", conf, re.M)  # server-level directive
    return found.group(1).strip() if found else None


def dockerfile_healthcheck(dockerfile):
    match = re.search(r"^HEALTHCHECK\s+(.*?)\s+CMD\s", dockerfile, re.M | re.S)
    options = dict(re.findall(r"--([a-z-]+)=(\S+)", match.group(1))) if match else {}
    path = re.search(r"GET (/\S+) HTTP", dockerfile)
    return options, path.group(1) if path else None


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../..")
    k8s = os.path.join(root, "docker", "k8s")
    with open(os.path.join(root, "docker", "compose.yaml")) as f:
        compose = yaml.safe_load(f)
    with open(os.path.join(root, "docker", "outpost-proxy.conf")) as f:
        proxy = f.read()
    with open(os.path.join(root, "Dockerfile")) as f:
        dockerfile = f.read()

    kustomization = load_all(os.path.join(k8s, "kustomization.yaml"))[0]
    objects = {}
    for name in kustomization["resources"]:
        for doc in load_all(os.path.join(k8s, name)):
            check(all(k in doc for k in ("apiVersion", "kind", "metadata")),
                  f"{name}: {doc.get('kind')} {doc.get('metadata', {}).get('name')} has "
                  "apiVersion, kind and metadata")
            objects[(doc["kind"], doc["metadata"]["name"])] = doc
    listed = sorted(f for f in os.listdir(k8s) if f.endswith(".yaml") and f != "kustomization.yaml")
    check(sorted(kustomization["resources"]) == listed,
          f"kustomization.yaml lists every manifest: {listed}")
    for kind, name in [("Deployment", "outpost"), ("Service", "outpost"), ("Ingress", "outpost"),
                       ("StatefulSet", "redis"), ("Service", "redis"),
                       ("StatefulSet", "redis-sentinel"), ("Service", "redis-sentinel"),
                       ("ConfigMap", "redis-scripts")]:
        check((kind, name) in objects, f"there is a {kind} {name}")
    if failures:
        return 1

    # The replicas: environment, sizing, health, drain.
    service = compose["x-outpost-server"]
    compose_env = {k: str(v) for k, v in service["environment"].items()}
    deployment = objects[("Deployment", "outpost")]
    pod = deployment["spec"]["template"]["spec"]
    container = pod["containers"][0]
    env = {e["name"]: str(e["value"]) for e in container.get("env", [])}
    replicas = [n for n, s in compose["services"].items() if s.get("image") == service["image"]]
    check(deployment["spec"]["replicas"] == len(replicas),
          f"{deployment['spec']['replicas']} replicas, as compose runs {len(replicas)}")
    for key, value in compose_env.items():
        if key in ("OUTPOST_TRUSTED_PROXIES", "OUTPOST_REDIS_SENTINELS"):
            continue  # addresses of compose's own network; checked below
        check(env.get(key) == value, f"{key}={env.get(key)} (compose: {value})")
    trusted = env.get("OUTPOST_TRUSTED_PROXIES", "").split(",")
    check(trusted != [""] and all(re.fullmatch(r"[0-9.]+/\d+", t) for t in trusted),
          f"OUTPOST_TRUSTED_PROXIES is the pod network's ranges (the ingress controller's pods "
          f"have no fixed address): {trusted}")
    # Redis through Sentinel: the servers name every sentinel, compose's services and the
    # pods of the redis-sentinel StatefulSet (through its headless Service).
    compose_sentinels = sorted(n for n, s in compose["services"].items()
                               if "redis-sentinel.sh" in " ".join(s.get("command", [])))
    check(compose_env.get("OUTPOST_REDIS_SENTINELS", "").split(",") ==
          [f"{n}:26379" for n in compose_sentinels],
          f"compose's servers name its sentinels {compose_sentinels}")
    sentinels = objects.get(("StatefulSet", "redis-sentinel"), {}).get("spec", {})
    sentinel_service = objects.get(("Service", "redis-sentinel"), {})
    port = sentinel_service.get("spec", {}).get("ports", [{}])[0].get("port")
    expected = [f"redis-sentinel-{i}.redis-sentinel:{port}"
                for i in range(sentinels.get("replicas", 0))]
    check(env.get("OUTPOST_REDIS_SENTINELS", "").split(",") == expected,
          f"OUTPOST_REDIS_SENTINELS names the {len(expected)} sentinel pods: "
          f"{env.get('OUTPOST_REDIS_SENTINELS')}")
    check(len(expected) == len(compose_sentinels) == 3,
          f"three sentinels, as in compose ({len(compose_sentinels)})")

    threads = int(env["OUTPOST_THREADS"])
    resources = container["resources"]
    for kind in ("requests", "limits"):
        check(str(resources[kind]["cpu"]) == str(threads),
              f"cpu {kind} {resources[kind]['cpu']} = OUTPOST_THREADS {threads} (one search per core)")
    memory = resources["limits"]["memory"]
    mib = int(re.fullmatch(r"(\d+)Mi", memory).group(1)) if re.fullmatch(r"\d+Mi", memory) else \
        int(re.fullmatch(r"(\d+)Gi", memory).group(1)) * 1024
    check(mib >= 2 * int(env["OUTPOST_HASH"]),
          f"memory limit {memory} leaves room beside the {env['OUTPOST_HASH']} MB hash table")

    drain_s = int(env["OUTPOST_DRAIN_GRACE"]) / 1000
    grace = pod["terminationGracePeriodSeconds"]
    pre_stop = container.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
    pause = int(pre_stop[1]) if pre_stop[:1] == ["sleep"] else 0
    check(grace > pause + drain_s,
          f"terminationGracePeriodSeconds {grace} > preStop pause {pause} s + drain grace {drain_s} s")
    check(grace == seconds(service["stop_grace_period"]),
          f"terminationGracePeriodSeconds {grace} = compose's stop_grace_period "
          f"{service['stop_grace_period']}")

    port = int(re.search(r"^EXPOSE (\d+)", dockerfile, re.M).group(1))
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    check(ports.get("http") == port, f"containerPort {ports.get('http')} = the image's EXPOSE {port}")

    readiness, liveness = container["readinessProbe"], container["livenessProbe"]
    check(readiness["httpGet"]["path"] == "/readyz", "readiness probe on /readyz")
    compose_check = service["healthcheck"]
    check("/readyz" in " ".join(compose_check["test"]), "compose's health check is /readyz too")
    for field, key in [("periodSeconds", "interval"), ("timeoutSeconds", "timeout"),
                       ("failureThreshold", "retries")]:
        expected = compose_check[key] if key == "retries" else seconds(compose_check[key])
        check(readiness[field] == expected, f"readiness {field} {readiness[field]} = compose's "
              f"{key} {compose_check[key]}")
    options, path = dockerfile_healthcheck(dockerfile)
    check(liveness["httpGet"]["path"] == "/healthz" == path,
          f"liveness probe on /healthz, the Dockerfile's HEALTHCHECK path ({path})")
    for field, key in [("periodSeconds", "interval"), ("timeoutSeconds", "timeout"),
                       ("failureThreshold", "retries"), ("initialDelaySeconds", "start-period")]:
        expected = int(options[key]) if key == "retries" else seconds(options.get(key, "0"))
        check(liveness.get(field) == expected,
              f"liveness {field} {liveness.get(field)} = the HEALTHCHECK's --{key}={options.get(key)}")

    # The image's user, as a number (runAsNonRoot can only verify a numeric user).
    uid = re.search(r"useradd[^&]*--uid (\d+)", dockerfile)
    gid = re.search(r"groupadd[^&]*--gid (\d+)", dockerfile)
    security = pod.get("securityContext", {})
    check(uid is not None and security.get("runAsUser") == int(uid.group(1)),
          f"runAsUser {security.get('runAsUser')} = the Dockerfile's uid "
          f"{uid.group(1) if uid else '?'}")
    check(gid is not None and security.get("runAsGroup") == int(gid.group(1)) ==
          security.get("fsGroup"), f"runAsGroup and fsGroup = the Dockerfile's gid "
          f"{gid.group(1) if gid else '?'}")
    check(security.get("runAsNonRoot") is True and security.get("runAsUser") != 0,
          "runAsNonRoot, and not uid 0")

    # The Service and the Ingress lead to the container's port.
    outpost_service = objects[("Service", "outpost")]
    selector = outpost_service["spec"]["selector"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    check(all(labels.get(k) == v for k, v in selector.items()),
          "the outpost Service selects the Deployment's pods")
    check(outpost_service["spec"]["ports"][0]["targetPort"] in ("http", port),
          "the outpost Service targets the container's port")
    ingress = objects[("Ingress", "outpost")]
    paths = [p for rule in ingress["spec"]["rules"] for p in rule["http"]["paths"]]
    for path in paths:
        backend = path["backend"]["service"]
        check(backend["name"] == "outpost" and
              backend["port"].get("name") == outpost_service["spec"]["ports"][0]["name"],
              f"the Ingress routes {path['path']} ({path['pathType']}) to the outpost Service")

    def routed(url):
        return any(url == p["path"] if p["pathType"] == "Exact" else url.startswith(p["path"])
                   for p in paths)

    for url in ("/", "/?game=abc", "/assets/index.js", "/api/v1/games", "/api/v1/ws"):
        check(routed(url.split("?")[0]), f"the Ingress routes {url}")
    for url in ("/metrics", "/healthz", "/readyz"):
        check(not routed(url), f"the Ingress does not expose {url} (docs/security.md)")
    annotations = ingress["metadata"].get("annotations", {})
    prefix = "nginx.ingress.kubernetes.io/"
    for annotation, directive in [("proxy-read-timeout", "proxy_read_timeout"),
                                  ("proxy-send-timeout", "proxy_send_timeout")]:
        expected = proxy_directive(proxy, "/api/v1/ws", directive)
        check(expected is not None and seconds(annotations.get(prefix + annotation, "60")) ==
              seconds(expected), f"Ingress {annotation} {annotations.get(prefix + annotation)} "
              f"= outpost-proxy.conf's WebSocket {directive} {expected}")
    check(seconds(annotations.get(prefix + "proxy-read-timeout", "60")) > 30,
          "the Ingress waits longer than the server's 30 s WebSocket ping interval")
    check(annotations.get(prefix + "proxy-buffering") ==
          proxy_directive(proxy, "/api/", "proxy_buffering"),
          f"Ingress proxy-buffering {annotations.get(prefix + 'proxy-buffering')} = the proxy rules'")
    http_conf_path = os.path.join(root, "docker", "outpost-http.conf")
    if os.path.exists(http_conf_path):
        with open(http_conf_path) as f:
            http_conf = f.read()
        rate = re.search(r"limit_req_zone \$binary_remote_addr zone=(\w+):\S+ rate=(\d+)r/s", http_conf)
        burst = rate and re.search(r"limit_req zone=" + rate.group(1) + r" burst=(\d+)", proxy)
        connections = re.search(r"^limit_conn \w+ (\d+);", proxy, re.M)
        rps = annotations.get(prefix + "limit-rps")
        multiplier = int(annotations.get(prefix + "limit-burst-multiplier", "5"))
        check(rate is not None and rps == rate.group(2),
              f"Ingress limit-rps {rps} = the proxy's per-address rate "
              f"{rate.group(2) if rate else '?'}/s")
        check(burst is not None and rps is not None and
              int(rps) * multiplier == int(burst.group(1)),
              f"Ingress burst {rps} x {multiplier} = the proxy's burst "
              f"{burst.group(1) if burst else '?'}")
        check(connections is not None and
              annotations.get(prefix + "limit-connections") == connections.group(1),
              f"Ingress limit-connections {annotations.get(prefix + 'limit-connections')} = the "
              f"proxy's {connections.group(1) if connections else '?'}")
    body = proxy_directive(proxy, "/", "client_max_body_size")
    check(annotations.get(prefix + "proxy-body-size") == body,
          f"Ingress proxy-body-size {annotations.get(prefix + 'proxy-body-size')} = "
          f"client_max_body_size {body}")

    # Redis: the compose file's image, data nodes and durability (docker/redis-node.sh, the
    # same script in both, word for word).
    redis_set = objects[("StatefulSet", "redis")]["spec"]
    redis = redis_set["template"]["spec"]["containers"][0]
    compose_nodes = sorted(n for n, s in compose["services"].items()
                           if "redis-node.sh" in " ".join(s.get("command", [])))
    # A primary and two replicas: after one failover the new primary still has a replica in
    # sync, so writes (which need one, the write guard) go on.
    check(redis_set["replicas"] == len(compose_nodes) == 3,
          f"{redis_set['replicas']} Redis data nodes (a primary and two replicas), as compose's "
          f"{compose_nodes}")
    anti = (redis_set["template"]["spec"].get("affinity", {}).get("podAntiAffinity", {})
            .get("requiredDuringSchedulingIgnoredDuringExecution", []))
    check(any(t.get("topologyKey") == "kubernetes.io/hostname" for t in anti),
          "each Redis data node on a machine of its own")
    # The write guard: every node (any may be promoted) refuses writes with fewer than one
    # replica in sync, in both files, with the same lag the servers judge readiness by.
    redis_env = {e["name"]: str(e.get("value")) for e in redis.get("env", [])}
    for node in compose_nodes:
        node_env = {k: str(v) for k, v in compose["services"][node]["environment"].items()}
        check(node_env.get("OUTPOST_REDIS_MIN_REPLICAS") == "1",
              f"compose's {node} has the write guard (OUTPOST_REDIS_MIN_REPLICAS "
              f"{node_env.get('OUTPOST_REDIS_MIN_REPLICAS')})")
        check(node_env.get("OUTPOST_REDIS_MIN_REPLICAS_LAG_S") ==
              compose_env.get("OUTPOST_REDIS_REPLICA_MAX_LAG"),
              f"compose's {node}: the guard's lag is the servers' --redis-replica-max-lag")
    check(redis_env.get("OUTPOST_REDIS_MIN_REPLICAS") == "1" and
          redis_env.get("OUTPOST_REDIS_MIN_REPLICAS_LAG_S") == env.get(
              "OUTPOST_REDIS_REPLICA_MAX_LAG"),
          f"the k8s data nodes have the write guard, its lag the servers': {redis_env}")
    check(int(env.get("OUTPOST_REDIS_MIN_REPLICA_ACKS", "0")) >= 1,
          "the servers wait for a replica's acknowledgement (OUTPOST_REDIS_MIN_REPLICA_ACKS)")
    compose_redis = compose["services"][compose_nodes[0]]
    check(redis["image"] == compose_redis["image"], f"redis image {redis['image']} = compose's")
    check(redis["command"] == compose_redis["command"],
          f"redis command {' '.join(redis['command'])} = compose's (docker/redis-node.sh)")
    mounts = {m["mountPath"] for m in redis.get("volumeMounts", [])}
    check("/data" in mounts, "redis keeps its append-only file on a volume (/data)")
    scripts = objects.get(("ConfigMap", "redis-scripts"), {}).get("data", {})
    for name in ("redis-node.sh", "redis-sentinel.sh"):
        with open(os.path.join(root, "docker", name)) as f:
            check(scripts.get(name) == f.read(), f"the ConfigMap's {name} is docker/{name}")
    with open(os.path.join(root, "docker", "redis-node.sh")) as f:
        node_script = f.read()
    check("--appendfsync always" in node_script and "--appendonly yes" in node_script,
          "the data nodes fsync their append-only file at every write")
    check('--min-replicas-to-write "${OUTPOST_REDIS_MIN_REPLICAS' in node_script and
          '--min-replicas-max-lag "${OUTPOST_REDIS_MIN_REPLICAS_LAG_S' in node_script,
          "the data nodes start with the write guard (min-replicas-to-write, -max-lag)")
    sentinel = sentinels.get("template", {}).get("spec", {}).get("containers", [{}])[0]
    compose_sentinel = compose["services"][compose_sentinels[0]]
    check(sentinel.get("command") == compose_sentinel["command"],
          "the sentinels run docker/redis-sentinel.sh, as in compose")

    print(f"{'FAILED' if failures else 'passed'}: {len(failures)} failed check(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
