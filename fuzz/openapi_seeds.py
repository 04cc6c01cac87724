#!/usr/bin/env python3
"""Writes one HTTP fuzzer seed per operation of api/openapi.yaml, from the document's examples.

usage: openapi_seeds.py OPENAPI_YAML OUT_DIR

A seed is `METHOD PATH`, headers, an empty line and the body (the format of http_fuzzer.cpp).
Path parameters become $GAME and requests carry `Authorization: Bearer $TOKEN`, so the seeds reach
the fuzzer's game. The body is the operation's example, or an object of its properties' examples.
"""
import json
import pathlib
import re
import sys

import yaml

METHODS = ("get", "post", "put", "delete", "patch", "options", "head")


def body_example(operation):
    content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    if "example" in content:
        return content["example"]
    properties = content.get("schema", {}).get("properties", {})
    example = {name: spec["example"] for name, spec in properties.items() if "example" in spec}
    return example or None


def main():
    document = yaml.safe_load(pathlib.Path(sys.argv[1]).read_text())
    out = pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for path, item in document.get("paths", {}).items():
        for method in METHODS:
            if method not in item:
                continue
            target = re.sub(r"\{[^}]+\}", "$GAME", path)
            lines = [f"{method.upper()} {target}", "Authorization: Bearer $TOKEN"]
            body = body_example(item[method])
            if body is not None:
                lines.append("Content-Type: application/json")
            text = "\n".join(lines) + "\n\n" + (json.dumps(body) if body is not None else "")
            name = "openapi_" + method + re.sub(r"[^A-Za-z0-9]+", "_", path)
            (out / name).write_text(text)
            count += 1
    print(f"{count} seeds from {sys.argv[1]}")


if __name__ == "__main__":
    main()
