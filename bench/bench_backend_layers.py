"""What do the test-backend layers cost per request?

Calls the mock server's ASGI app directly (no socket, no HTTP parsing) for a
small GET, with every layer, then with the connection, journal and CORS
layers left out, and prints the requests per second of each and the time
each request spends in those three layers. Also times a ``--data`` collection
page against a built-in one. Rates are by CPU time, best of several
interleaved runs, so other processes on a shared machine count less.

Run: ``.venv/bin/python bench/bench_backend_layers.py [--requests 5000]``
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from starlette.types import Message

from mock_server import Settings, create_app
from mock_server import layers as layer_module
from mock_server.layers.connection import ConnectionLayer
from mock_server.layers.cors import CorsLayer
from mock_server.layers.journal import JournalLayer

LIBRARY = Path(__file__).parents[1] / "tests" / "mock_server" / "data" / "library.json"
BACKEND_LAYERS = (ConnectionLayer, JournalLayer, CorsLayer)


def _scope(path: str, query: bytes = b"") -> dict[str, object]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "headers": [(b"host", b"127.0.0.1:8000"), (b"accept", b"application/hal+json")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def _rate(app: object, path: str, requests: int) -> float:
    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            assert message["status"] == 200, message["status"]

    scope = _scope(path)
    for _ in range(200):  # warm up: imports, caches
        await app(dict(scope), receive, send)  # type: ignore[operator]
    started = time.process_time()
    for _ in range(requests):
        await app(dict(scope), receive, send)  # type: ignore[operator]
    return requests / (time.process_time() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    settings = Settings(rate_limit=None, cors_origins=("*",))
    full = create_app(settings)
    all_layers = list(layer_module.LAYERS)
    layer_module.LAYERS[:] = [f for f in all_layers if f not in BACKEND_LAYERS]
    try:
        bare = create_app(settings)
    finally:
        layer_module.LAYERS[:] = all_layers
    data = create_app(Settings(rate_limit=None, data=LIBRARY, read_only_data=True))
    cases = [
        ("GET /products/1, every layer", full, "/products/1", args.requests),
        ("GET /products/1, without the 3", bare, "/products/1", args.requests),
        ("GET /products (a page)", data, "/products", args.requests // 5),
        ("GET /books (--data page)", data, "/books", args.requests // 5),
        ("GET /books/2 (--data member)", data, "/books/2", args.requests),
    ]
    best = [0.0] * len(cases)
    for _ in range(args.runs):
        for index, (_, app, path, requests) in enumerate(cases):
            best[index] = max(best[index], asyncio.run(_rate(app, path, requests)))
    rows = [(label, rate) for (label, *_), rate in zip(cases, best, strict=True)]
    for label, rate in rows:
        print(f"{label:34} {rate:9.0f} req/s")
    cost = (1 / rows[0][1] - 1 / rows[1][1]) * 1e6
    print(f"connection + journal + CORS layers: {cost:.1f} us per request")


if __name__ == "__main__":
    main()
