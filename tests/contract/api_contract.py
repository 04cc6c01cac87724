#!/usr/bin/env python3
"""The server's real answers and events against api/openapi.yaml, with a JSON Schema validator.

Starts outpost-server (memory store, tiny searches) on a free port and drives every route, the
game stream and the WebSocket, on happy paths and error paths. Each answer must have a status
that its operation documents, and a JSON body valid against that status's schema; stream lines
and WebSocket messages must be valid against the component schema of their `type`. Schemas are
checked strictly: an object with declared properties takes no undeclared one, so a field the
document lacks or mistypes fails (OpenAPI's `nullable` and `allOf` are translated to JSON Schema
first).

    api_contract.py api/openapi.yaml build/server/outpost-server
"""
import base64
import copy
import http.client
import json
import os
import re
import socket
import struct
import subprocess
import sys
import time
import urllib.parse

import jsonschema
import yaml

START_TIMEOUT_S = 20
IO_TIMEOUT_S = 10


# --- OpenAPI 3.0 schemas as strict JSON Schema -------------------------------------------------

class Schemas:
    def __init__(self, document):
        self.document = document
        self.expanding = set()  # the $refs being converted: a schema that holds itself (a Game's
        # rematch holds the new Game) is checked to one level, its inner copy accepted as is

    def resolve(self, ref):
        node = self.document
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def convert(self, node):
        """A strict JSON Schema (draft 7) of an OpenAPI schema object."""
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            ref = node["$ref"]
            if ref in self.expanding:
                return {}
            self.expanding.add(ref)
            try:
                return self.convert(self.resolve(ref))
            finally:
                self.expanding.discard(ref)
        node = dict(node)
        if "allOf" in node:
            merged = {}
            for part in node.pop("allOf"):
                part = self.convert(part)
                for key, value in part.items():
                    if key == "properties":
                        merged.setdefault("properties", {}).update(value)
                    elif key == "required":
                        merged["required"] = sorted(set(merged.get("required", [])) | set(value))
                    elif key == "additionalProperties" and value is False:
                        continue  # decided below, over the merged properties
                    else:
                        merged[key] = value
            for key, value in node.items():
                if key == "properties":
                    merged.setdefault("properties", {}).update(value)
                elif key == "required":
                    merged["required"] = sorted(set(merged.get("required", [])) | set(value))
                else:
                    merged[key] = value
            node = merged
        out = {}
        for key, value in node.items():
            if key in ("example", "description", "nullable", "discriminator", "readOnly",
                       "writeOnly", "deprecated", "xml", "externalDocs"):
                continue
            if key == "properties":
                out[key] = {name: self.convert(sub) for name, sub in value.items()}
            elif key in ("items", "not"):
                out[key] = self.convert(value)
            elif key == "additionalProperties" and isinstance(value, dict):
                out[key] = self.convert(value)
            elif key in ("oneOf", "anyOf"):
                out[key] = [self.convert(sub) for sub in value]
            else:
                out[key] = copy.deepcopy(value)
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
            out.setdefault("type", "object")
        if node.get("nullable"):
            if "type" in out:
                out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = list(out["enum"]) + [None]
        return out


class Contract:
    def __init__(self, document):
        self.document = document
        self.schemas = Schemas(document)
        self.problems = []
        self.checked = 0

    def fail(self, what, message):
        self.problems.append(f"{what}: {message}")

    def validate(self, what, schema, value):
        self.checked += 1
        validator = jsonschema.Draft7Validator(self.schemas.convert(schema))
        for error in sorted(validator.iter_errors(value), key=lambda e: list(e.path)):
            path = "/".join(str(p) for p in error.path)
            self.fail(what, f"at /{path}: {error.message}")

    def component(self, name):
        return {"$ref": f"#/components/schemas/{name}"}

    def answer(self, template, method, status, headers, body):
        """An HTTP answer of the operation (template, method) against the document."""
        what = f"{method.upper()} {template} -> {status}"
        operation = self.document["paths"].get(template, {}).get(method)
        if operation is None:
            return self.fail(what, "the operation is not documented")
        response = operation.get("responses", {}).get(str(status))
        if response is None:
            return self.fail(what, "the status is not documented for this operation")
        if "$ref" in response:
            response = self.schemas.resolve(response["$ref"])
        content_type = headers.get("content-type", "").split(";")[0].strip()
        content = response.get("content") or {}
        if content_type == "application/json":
            if "application/json" not in content:
                return self.fail(what, "answers JSON where the document gives no JSON body")
            try:
                value = json.loads(body)
            except ValueError as error:
                return self.fail(what, f"the body is not JSON: {error}")
            self.validate(what, content["application/json"].get("schema", {}), value)
            return value
        if content and content_type and content_type not in content:
            self.fail(what, f"answers {content_type}, the document lists {sorted(content)}")
        return None

    def event(self, where, message):
        """A stream line or WebSocket message, by its type."""
        kind = message.get("type")
        names = {
            "gameFull": "GameFull", "gameState": "GameState", "presence": "PresenceMessage",
            "info": "Info", "bestmove": "AnalysisResult", "error": "ErrorMessage", "pong": "Pong",
            "game": "GameMessage", "review": "ReviewMessage", "reviewProgress": "ReviewProgress",
            "unsubscribed": "Unsubscribed",
        }
        if kind not in names:
            return self.fail(where, f"a message of undocumented type {kind!r}")
        if names[kind] not in self.document.get("components", {}).get("schemas", {}):
            return self.fail(where, f"no schema {names[kind]} for messages of type {kind!r}")
        self.validate(f"{where} {kind}", self.component(names[kind]), message)


# --- The server and its clients -----------------------------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Http:
    def __init__(self, port):
        self.port = port

    def call(self, method, target, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=IO_TIMEOUT_S)
        data = body if isinstance(body, (bytes, str)) or body is None else json.dumps(body)
        connection.request(method.upper(), target, body=data, headers=headers or {})
        response = connection.getresponse()
        payload = response.read()
        connection.close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, payload

    def lines(self, target, count=None):
        """The NDJSON lines of a stream: all of it, or the first `count` non-empty ones."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=IO_TIMEOUT_S)
        connection.request("GET", target)
        response = connection.getresponse()
        lines = []
        while count is None or len(lines) < count:
            line = response.readline()
            if not line:
                break
            if line.strip():
                lines.append(json.loads(line))
        connection.close()
        return response.status, lines


class WebSocket:
    def __init__(self, port, path="/api/v1/ws"):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=IO_TIMEOUT_S)
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall(
            (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
             f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
             "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.socket.recv(1)
            if not chunk:
                raise ConnectionError("the upgrade was not answered")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.decode(errors="replace"))

    def exact(self, size):
        data = b""
        while len(data) < size:
            chunk = self.socket.recv(size - len(data))
            if not chunk:
                raise ConnectionError("closed")
            data += chunk
        return data

    def frame(self, opcode, payload):
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.socket.sendall(header + mask + masked)

    def send(self, message):
        self.frame(0x1, json.dumps(message).encode())

    def receive(self):
        while True:
            first, second = self.exact(2)
            opcode = first & 0x0F
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", self.exact(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", self.exact(8))[0]
            payload = self.exact(size)
            if opcode == 0x9:
                self.frame(0xA, payload)
            elif opcode == 0x1:
                return json.loads(payload)
            elif opcode == 0x8:
                raise ConnectionError("closed by the server")

    def until(self, predicate, seen):
        """Messages until one satisfies `predicate` (each kept in `seen`); that one."""
        deadline = time.monotonic() + IO_TIMEOUT_S
        while time.monotonic() < deadline:
            message = self.receive()
            seen.append(message)
            if predicate(message):
                return message
        raise TimeoutError("no such message")

    def close(self):
        self.socket.close()


def start_server(binary, port):
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--store", "memory", "--threads",
         "1", "--hash", "8", "--analysis-cache-min-depth", "1", "--player-gone-grace", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server exited: " + process.stderr.read().decode())
        try:
            if Http(port).call("get", "/readyz")[0] == 200:
                return process
        except OSError:
            pass
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not become ready")


# --- The scenario ---------------------------------------------------------------------------

AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


def check_level_range(c, levels):
    """The document's description of `levels[].elo` quotes level 1's and level 8's ratings as
    numbers, which a re-measurement changes in engine/search/levels.h: they must be the served
    ones."""
    what = "GET /api/v1/engine levels[].elo description"
    schema = c.document["components"]["schemas"]["EngineInfo"]["properties"]["levels"]
    description = schema["items"]["properties"]["elo"].get("description", "")
    quoted = re.search(r"(\d+) for level 1 \.\.\. (\d+) for level 8", description)
    served = {entry.get("level"): entry.get("elo") for entry in levels}
    if not quoted:
        return c.fail(what, "quotes no range 'N for level 1 ... M for level 8'")
    for level, text in ((1, quoted.group(1)), (8, quoted.group(2))):
        if served.get(level) != int(text):
            c.fail(what, f"quotes {text} for level {level}, the server answers {served.get(level)}")


def scenario(c, port):
    h = Http(port)

    def call(template, method, target, body=None, token=None, headers=None):
        all_headers = dict(headers or {})
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        if body is not None and "Content-Type" not in all_headers:
            all_headers["Content-Type"] = "application/json"
        status, answer_headers, payload = h.call(method, target, body, all_headers)
        return status, c.answer(template, method, status, answer_headers, payload)

    def expect(what, status, wanted):
        if status != wanted:
            c.fail(what, f"answered {status}, the scenario expects {wanted}")

    # Service routes and the engine.
    for template in ("/healthz", "/readyz"):
        status, _ = call(template, "get", template)
        expect(template, status, 200)
    status, engine = call("/api/v1/engine", "get", "/api/v1/engine")
    expect("/api/v1/engine", status, 200)
    if isinstance(engine, dict):
        check_level_range(c, engine.get("levels") or [])

    # Analyses: a search, its NDJSON stream, the cache (hit, miss, bad queries).
    limits = {"depth": 3}
    status, _ = call("/api/v1/analysis", "post", "/api/v1/analysis",
                     {"fen": AFTER_E4, "limits": limits, "multipv": 2})
    expect("analysis", status, 200)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=IO_TIMEOUT_S)
    connection.request("POST", "/api/v1/analysis",
                       body=json.dumps({"fen": AFTER_E4, "limits": limits}),
                       headers={"Accept": "application/x-ndjson"})
    response = connection.getresponse()
    for line in response.read().splitlines():
        if line.strip():
            c.event("analysis stream", json.loads(line))
    connection.close()
    fen_query = urllib.parse.quote(AFTER_E4)
    status, _ = call("/api/v1/analysis", "get", f"/api/v1/analysis?fen={fen_query}&multipv=2")
    expect("cached analysis", status, 200)
    status, _ = call("/api/v1/analysis", "get", f"/api/v1/analysis?fen={fen_query}&multipv=9")
    expect("cached analysis, more lines", status, 404)
    status, _ = call("/api/v1/analysis", "get", "/api/v1/analysis?fen=nonsense")
    expect("cached analysis, bad FEN", status, 422)
    status, _ = call("/api/v1/analysis", "get", "/api/v1/analysis")
    expect("cached analysis, no FEN", status, 400)
    status, _ = call("/api/v1/analysis", "post", "/api/v1/analysis", "{not json")
    expect("analysis, bad JSON", status, 400)
    status, _ = call("/api/v1/analysis", "post", "/api/v1/analysis",
                     {"fen": AFTER_E4, "moves": ["e2e4"]})
    expect("analysis, illegal move", status, 422)

    # A game against the engine.
    status, game = call("/api/v1/games", "post", "/api/v1/games",
                        {"engine": {"side": "black", "level": 1}})
    expect("create", status, 201)
    game_id, token = game["id"], game["playerToken"]
    base = f"/api/v1/games/{game_id}"
    status, _ = call("/api/v1/games/{id}", "get", base)
    expect("read", status, 200)
    status, _ = call("/api/v1/games/{id}", "get", "/api/v1/games/NoSuchGame0")
    expect("read unknown", status, 404)
    status, _ = call("/api/v1/games/{id}/moves", "post", base + "/moves",
                     {"move": "e4", "wait": True}, token)
    expect("move", status, 200)
    status, _ = call("/api/v1/games/{id}/moves", "post", base + "/moves", {"move": "e4"})
    expect("move without token", status, 401)
    status, _ = call("/api/v1/games/{id}/moves", "post", base + "/moves", {"move": "e4"},
                     "wrong-token")
    expect("move with another token", status, 403)
    status, _ = call("/api/v1/games/{id}/moves", "post", base + "/moves", {"move": "Ke3"}, token)
    expect("illegal move", status, 422)
    status, _ = call("/api/v1/games/{id}/moves", "post", base + "/moves",
                     {"move": "d4", "version": 1}, token)
    expect("stale version", status, 409)
    status, _ = call("/api/v1/games/{id}/moves", "post", "/api/v1/games/NoSuchGame0/moves",
                     {"move": "e4"}, token)
    expect("move in an unknown game", status, 404)
    status, _ = call("/api/v1/games/{id}/draw/yes", "post", base + "/draw/yes", None, token)
    expect("draw offer to the engine", status, 200)
    status, _ = call("/api/v1/games/{id}/takeback", "post", base + "/takeback", None, token)
    expect("takeback", status, 200)
    status, _ = call("/api/v1/games/{id}/takeback", "post", base + "/takeback", None, token)
    expect("nothing to take back", status, 409)
    status, _ = call("/api/v1/games/{id}/takeback", "post", "/api/v1/games/NoSuchGame0/takeback",
                     None, token)
    expect("takeback in an unknown game", status, 404)
    status, _ = call("/api/v1/games/{id}/engine-move", "post", base + "/engine-move",
                     {"limits": {"depth": 1}}, token)
    expect("engine move", status, 200)
    status, _ = call("/api/v1/games/{id}/pgn", "get", base + "/pgn")
    expect("pgn", status, 200)
    status, _ = call("/api/v1/games", "get", f"/api/v1/games?ids={game_id},NoSuchGame0")
    expect("list", status, 200)
    status, _ = call("/api/v1/games", "get", "/api/v1/games")
    expect("list without ids", status, 400)
    status, _ = call("/api/v1/games", "post", "/api/v1/games", {"engine": {"level": 99}})
    expect("create, bad level", status, 422)
    status, _ = call("/api/v1/games/{id}/claim-victory", "post", base + "/claim-victory", None,
                     token)
    expect("claim against the engine", status, 409)

    # A game between people, followed on the WebSocket and on the stream.
    status, people = call("/api/v1/games", "post", "/api/v1/games", {"engine": {"side": "none"}})
    expect("create between people", status, 201)
    pid, white, black = people["id"], people["playerToken"], people["inviteToken"]
    pbase = f"/api/v1/games/{pid}"
    ws = WebSocket(port)
    seen = []
    ws.send({"type": "ping"})
    ws.until(lambda m: m.get("type") == "pong", seen)
    ws.send({"type": "subscribe", "id": 1, "gameId": pid, "token": white})
    ws.until(lambda m: m.get("type") == "gameFull", seen)
    status, _ = call("/api/v1/games/{id}/moves", "post", pbase + "/moves", {"move": "e4"}, white)
    expect("move between people", status, 200)
    ws.until(lambda m: m.get("type") == "gameState", seen)
    status, _ = call("/api/v1/games/{id}/draw/no", "post", pbase + "/draw/no", None, black)
    expect("no draw offer to decline", status, 409)
    status, _ = call("/api/v1/games/{id}/draw/yes", "post", pbase + "/draw/yes", None, black)
    expect("draw offer", status, 200)
    status, _ = call("/api/v1/games/{id}/draw/no", "post", pbase + "/draw/no", None, white)
    expect("draw declined", status, 200)
    status, _ = call("/api/v1/games/{id}/takeback/yes", "post", pbase + "/takeback/yes", None,
                     white)
    expect("takeback request", status, 200)
    status, _ = call("/api/v1/games/{id}/takeback/no", "post", pbase + "/takeback/no", None,
                     black)
    expect("takeback declined", status, 200)
    status, _ = call("/api/v1/games/{id}/takeback", "post", pbase + "/takeback", None, white)
    expect("takeback without consent", status, 409)
    status, _ = call("/api/v1/games/{id}/claim-draw", "post", pbase + "/claim-draw", None, white)
    expect("claim before both moved", status, 409)
    ws.send({"type": "move", "id": 2, "gameId": pid, "token": black, "move": "e5"})
    ws.until(lambda m: m.get("type") == "game", seen)
    status, _ = call("/api/v1/games/{id}/abort", "post", pbase + "/abort", None, white)
    expect("abort after both moved", status, 409)
    for bad in ({"type": "nonsense", "id": 3}, {"type": "subscribe", "id": 4},
                {"type": "move", "id": 5, "gameId": pid, "token": white, "move": "Ke7"}):
        ws.send(bad)
        ws.until(lambda m: m.get("type") == "error", seen)
    ws.send({"type": "analyse", "id": 6, "fen": AFTER_E4, "limits": {"depth": 2}})
    ws.until(lambda m: m.get("type") == "bestmove", seen)
    ws.send({"type": "unsubscribe", "gameId": pid})
    ws.until(lambda m: m.get("type") == "unsubscribed", seen)
    status, _ = call("/api/v1/games/{id}/resign", "post", pbase + "/resign", None, black)
    expect("resign", status, 200)
    status, _ = call("/api/v1/games/{id}/resign", "post", "/api/v1/games/NoSuchGame0/resign",
                     None, black)
    expect("resign in an unknown game", status, 404)
    status, stream = h.lines(pbase + "/stream")
    expect("stream of a finished game", status, 200)
    for message in stream:
        c.event("game stream", message)
    status, _ = call("/api/v1/games/{id}/stream", "get", "/api/v1/games/NoSuchGame0/stream")
    expect("stream of an unknown game", status, 404)

    # Reviews: of a stored game, of pasted moves, followed to the end.
    status, review = call("/api/v1/review", "post", "/api/v1/review",
                          {"moves": ["e4", "e5", "Qh5", "Nc6"], "limits": {"nodes": 2000}})
    expect("review of moves", status, 202)
    rid = review["id"]
    status, progress = h.lines(f"/api/v1/reviews/{rid}/stream")
    expect("review stream", status, 200)
    ws.send({"type": "review", "id": 7, "pgn": "1. e4 e5 2. Qh5 Nc6", "limits": {"nodes": 2000}})
    ws.until(lambda m: m.get("type") == "review" and m.get("review", {}).get("status") != "running",
             seen)
    for message in progress:
        c.event("review stream", message)
    status, _ = call("/api/v1/reviews/{reviewId}", "get", f"/api/v1/reviews/{rid}")
    expect("review read", status, 200)
    status, _ = call("/api/v1/reviews/{reviewId}/stop", "post", f"/api/v1/reviews/{rid}/stop")
    expect("review stop (finished)", status, 200)
    status, _ = call("/api/v1/reviews/{reviewId}", "get", "/api/v1/reviews/pNoSuchReview")
    expect("unknown review", status, 404)
    status, _ = call("/api/v1/review", "post", "/api/v1/review", {"pgn": "1. e4 {never closed"})
    expect("bad pgn", status, 422)
    status, _ = call("/api/v1/games/{id}/review", "post", pbase + "/review",
                     {"limits": {"nodes": 2000}})
    if status not in (200, 202):
        c.fail("game review", f"answered {status}")
    status, _ = call("/api/v1/games/{id}/review", "get", "/api/v1/games/NoSuchGame0/review")
    expect("review of an unknown game", status, 404)

    ws.close()
    for message in seen:
        c.event("websocket", message)


def main() -> int:
    spec_path, binary = sys.argv[1], sys.argv[2]
    with open(spec_path, encoding="utf-8") as f:
        document = yaml.safe_load(f)
    contract = Contract(document)
    port = free_port()
    server = start_server(binary, port)
    try:
        scenario(contract, port)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
    for problem in contract.problems:
        print(problem)
    if not contract.problems:
        print(f"{contract.checked} answers and events valid against {spec_path}")
    return 1 if contract.problems else 0


if __name__ == "__main__":
    sys.exit(main())
