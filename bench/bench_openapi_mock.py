"""restwalk-mock --openapi against Prism 5 on the same document and the same loads.

Both servers mock one OpenAPI 3.1 document (written by this script: a collection of
notes, paged by ``limit``/``offset``, whose list example holds 20 notes); each gets,
one after another, with ``wrk`` (a plain Python load generator when wrk is missing,
and the output says so):

- ``member``: ``GET /notes/7``: restwalk-mock reads the stored member, Prism
  answers the documented example;
- ``page``: ``GET /notes?limit=20``: 20 members (restwalk-mock pages its collection,
  seeded from the example; Prism answers the example);
- ``post``: ``POST /notes`` with a valid body: restwalk-mock validates it and adds a
  member (201), Prism validates it and answers the example (201).

Both validate every request against the document. Prism (``@stoplight/prism-cli``
5.x, from npm) is installed into ``bench/.prism`` (git-ignored) when missing. The
table gives requests per second, p50 and p99 latency in ms, and the servers' CPU time
per request (µs); then restwalk-mock's ratio of requests per second to Prism's (goal
3x) and whether its p99 is lower. On a shared machine, rates move with the load
average, printed with each run; ``--runs`` takes medians.

Run: ``.venv/bin/python bench/bench_openapi_mock.py [--duration 5] [--runs 1]``
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_mock import (
    Load,
    Result,
    Server,
    cpu_seconds,
    free_port,
    load_average,
    run_python,
    run_wrk,
    spawn,
    stop,
    wait_until_up,
)

HERE = Path(__file__).resolve().parent
PRISM_DIR = HERE / ".prism"
PRISM = PRISM_DIR / "node_modules" / ".bin" / "prism"
PRISM_PACKAGE = "@stoplight/prism-cli@5"
KINDS = ("member", "page", "post")
NOTE = {
    "type": "object",
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "text": {"type": "string", "minLength": 1, "maxLength": 140},
        "tag": {"type": "string", "enum": ["home", "work"]},
        "created": {"type": "string", "format": "date-time"},
    },
    "required": ["id", "text"],
}
EXAMPLE_NOTES = [
    {"id": n, "text": f"note number {n}", "tag": "home", "created": "2024-01-01T00:00:00Z"}
    for n in range(1, 21)
]


def document() -> dict[str, object]:
    """The document both servers mock."""
    note = {"$ref": "#/components/schemas/Note"}
    json_note = {"application/json": {"schema": note, "example": EXAMPLE_NOTES[6]}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Notes", "version": "1"},
        "paths": {
            "/notes": {
                "get": {
                    "operationId": "listNotes",
                    "parameters": [
                        {
                            "name": "limit",
                            "in": "query",
                            "schema": {
                                "type": "integer",
                                "minimum": 1,
                                "maximum": 100,
                                "default": 20,
                            },
                        },
                        {
                            "name": "offset",
                            "in": "query",
                            "schema": {"type": "integer", "minimum": 0, "default": 0},
                        },
                    ],
                    "responses": {
                        "200": {
                            "description": "A page of notes",
                            "content": {
                                "application/json": {
                                    "schema": {"type": "array", "items": note},
                                    "example": EXAMPLE_NOTES,
                                }
                            },
                        }
                    },
                },
                "post": {
                    "operationId": "createNote",
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": note}},
                    },
                    "responses": {
                        "201": {"description": "Made", "content": json_note},
                        "422": {"description": "Invalid"},
                    },
                },
            },
            "/notes/{noteId}": {
                "get": {
                    "operationId": "getNote",
                    "parameters": [
                        {
                            "name": "noteId",
                            "in": "path",
                            "required": True,
                            "schema": {"type": "integer", "minimum": 1},
                        }
                    ],
                    "responses": {
                        "200": {"description": "A note", "content": json_note},
                        "404": {"description": "None"},
                    },
                }
            },
        },
        "components": {"schemas": {"Note": NOTE}},
    }


def loads() -> dict[str, Load]:
    body = '{"id": 1, "text": "bought milk %s", "tag": "work"}'
    return {
        "member": Load("GET", "/notes/7"),
        "page": Load("GET", "/notes?limit=20"),
        "post": Load("POST", "/notes", {"Content-Type": "application/json"}, body, expect=201),
    }


def install_prism() -> Path:
    """Prism 5 in bench/.prism (npm), once."""
    if not PRISM.exists():
        if shutil.which("npm") is None:
            raise SystemExit("npm is needed to install Prism (Debian: apt-get install npm)")
        PRISM_DIR.mkdir(exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--silent", PRISM_PACKAGE],
            cwd=PRISM_DIR,
            check=True,
        )
    return PRISM


def start_restwalk(path: Path) -> Server:
    port = free_port()
    command = [sys.executable, "-m", "mock_server", "--openapi", str(path), "--port", str(port)]
    command += ["--rate-limit", "off", "--log-level", "warning"]
    process = spawn(command)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(url + "/notes/1", process)
    return Server("restwalk-mock --openapi", process, url, loads())


def start_prism(path: Path) -> Server:
    port = free_port()
    process = spawn([str(install_prism()), "mock", "-h", "127.0.0.1", "-p", str(port), str(path)])
    url = f"http://127.0.0.1:{port}"
    wait_until_up(url + "/notes/1", process, seconds=120)
    return Server("Prism " + prism_version(), process, url, loads())


def prism_version() -> str:
    found = json.loads((PRISM_DIR / "node_modules/@stoplight/prism-cli/package.json").read_text())
    return str(found["version"])


def measure(server: Server, generate: object) -> None:
    for kind in KINDS:
        before = cpu_seconds(server.process.pid)
        result: Result = generate(server.url, server.loads[kind])  # type: ignore[operator]
        result.cpu_us = (cpu_seconds(server.process.pid) - before) / max(1, result.requests) * 1e6
        server.results[kind] = result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per load")
    parser.add_argument("--runs", type=int, default=1, help="runs; the medians are printed")
    parser.add_argument("--connections", type=int, default=20)
    args = parser.parse_args()
    install_prism()
    with_wrk = shutil.which("wrk") is not None
    print("load generator:", "wrk" if with_wrk else "Python asyncio (wrk not found)")

    def generate(url: str, load: Load) -> Result:
        if with_wrk:
            return run_wrk(url, load, args.duration, args.connections, threads=1)
        return run_python(url, load, args.duration, args.connections)

    folder = Path(tempfile.mkdtemp(prefix="bench-openapi-"))
    path = folder / "notes.json"
    path.write_text(json.dumps(document()))
    runs: dict[str, list[Result]] = {}
    names: list[str] = []
    for run in range(args.runs):
        print(f"run {run + 1}/{args.runs}: {load_average()}")
        for start in (start_restwalk, start_prism):
            server = start(path)
            try:
                measure(server, generate)
            finally:
                stop(server.process)
            if server.name not in names:
                names.append(server.name)
            for kind in KINDS:
                runs.setdefault(f"{server.name}/{kind}", []).append(server.results[kind])
    print(f"\n{'':8}" + "".join(name.rjust(34) for name in names) + "   req/s ratio, p99 lower")
    for kind in KINDS:
        cells = []
        medians = []
        for name in names:
            results = runs[f"{name}/{kind}"]
            rate = statistics.median(r.requests_per_second for r in results)
            p50 = statistics.median(r.p50_ms for r in results)
            p99 = statistics.median(r.p99_ms for r in results)
            cpu = statistics.median(r.cpu_us for r in results)
            errors = sum(r.errors for r in results)
            medians.append((rate, p99))
            flag = f" !{errors}" if errors else ""
            cells.append(f"{rate:7.0f} req/s {p50:5.1f}/{p99:6.1f} ms {cpu:5.0f} us{flag}")
        ours, prism = medians[0], medians[-1]
        verdict = f"{ours[0] / prism[0]:5.2f}x  {'yes' if ours[1] < prism[1] else 'no'}"
        print(f"{kind:8}" + "".join(c.rjust(34) for c in cells) + "   " + verdict)
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
