#!/usr/bin/env python3
"""The OpenAPI document must be valid YAML of OpenAPI 3, every $ref in it must resolve, and it must
document exactly the routes the server's router serves (with the methods of each route, and the
query parameters of each API route's GET: it refuses any other). Every
operation has a unique operationId and lists the errors any route of its kind can give: 404 where
the path names a game or review, 401 and 403 where it takes a player token, 400 and 413 for a
POST (a body that is not a JSON object of its fields, or too large), 500 and 503 for the routes
that use the store.

    openapi_routes.py api/openapi.yaml server/router.cpp
"""
import re
import sys

import yaml

METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def refs(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from refs(item)


def resolve(document, ref):
    if not ref.startswith("#/"):
        return False
    node = document
    for part in ref[2:].split("/"):
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def main() -> int:
    spec_path, router_path = sys.argv[1], sys.argv[2]
    with open(spec_path, encoding="utf-8") as f:
        document = yaml.safe_load(f)
    with open(router_path, encoding="utf-8") as f:
        router = f.read()
    problems = []

    if not str(document.get("openapi", "")).startswith("3."):
        problems.append("the document does not declare OpenAPI 3")
    paths = document.get("paths") or {}
    if not paths:
        problems.append("no paths")
    for ref in sorted(set(refs(document))):
        if not resolve(document, ref):
            problems.append(f"$ref {ref} does not resolve")
    for path, item in paths.items():
        if not any(key in METHODS for key in item):
            problems.append(f"{path} documents no method")

    operation_ids = []
    for path, item in paths.items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            where = f"{method.upper()} {path}"
            if not operation.get("operationId"):
                problems.append(f"{where}: no operationId")
            operation_ids.append(operation.get("operationId"))
            statuses = set((operation.get("responses") or {}).keys())
            wanted = set()
            if "{" in path:
                wanted |= {"404", "500", "503"}
            if path.startswith("/api/v1/") and path not in (
                    "/api/v1/openapi.yaml", "/api/v1/engine", "/api/v1/ws"):
                wanted |= {"500", "503"}
            if method == "post":
                wanted |= {"400", "413"}
            security = operation.get("security") or []
            if security and all("playerToken" in requirement for requirement in security):
                wanted |= {"401", "403"}
            for status in sorted(wanted - statuses):
                problems.append(f"{where}: does not list {status}")
    duplicates = {i for i in operation_ids if i and operation_ids.count(i) > 1}
    for duplicate in sorted(duplicates):
        problems.append(f"operationId {duplicate} is used twice")

    # Routes: the router's table (kRoutes): {"pattern", Match::..., GET handler, POST handler
    # [, handler for any method[, "query parameters of GET", ...]]}; nullptr where the route
    # takes no such method.
    flat = " ".join(router.split())
    table = re.findall(
        r'\{"(/[^"]*)", Match::\w+, ([^,{}"]+?), ([^,{}"]+?)'
        r'(?:, ([^,{}"]+?)(?:, "([^"]*)")?(?:, [^{}"]*)?)?\}', flat)
    if not table:
        problems.append("found no routes in the router (has its shape changed?)")
    routes = set()
    for route, get, post, _any, query in table:
        routes.add(route)
        for verb, handler in (("get", get), ("post", post)):
            if handler.strip() != "nullptr" and route in paths and verb not in paths[route]:
                problems.append(f"{route}: the router takes {verb.upper()}, the document does not")
        # An API route refuses every query parameter it does not take: the document must list
        # exactly those.
        if route.startswith("/api/") and route in paths:
            taken = set(filter(None, query.split(",")))
            for method, operation in paths[route].items():
                if method not in METHODS:
                    continue
                documented = {p.get("name") for p in operation.get("parameters") or []
                              if p.get("in") == "query"}
                expected = taken if method == "get" else set()
                if documented != expected:
                    problems.append(f"{method.upper()} {route}: documents query parameters "
                                    f"{sorted(documented)}, the router takes {sorted(expected)}")
    routes.add("/")  # the board page: the static-file fallback
    for route in sorted(routes - paths.keys()):
        problems.append(f"{route} is served but not documented")
    for path in sorted(paths.keys() - routes):
        problems.append(f"{path} is documented but not served")

    for problem in problems:
        print(problem)
    if not problems:
        print(f"{len(paths)} paths documented and served; {len(set(refs(document)))} refs resolve")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
