"""What one request costs the mock server's ASGI app, in CPU time, without a socket.

Calls the app in-process (every layer, no HTTP parsing, no socket) for the four
loads of ``bench_mock.py``, on the same seed (``--seed-size 3``): an item, a
20-item page, a POST with a token, and a
conditional GET answered 304; and prints the CPU microseconds each request
takes (best of ``--runs`` interleaved runs, so other processes on a shared
machine count less). The protocol's own share is what ``bench_mock.py``'s
CPU column adds on top.

``--profile KIND`` runs cProfile over that load instead and prints the
functions that take the most time (``--sort tottime`` or ``cumulative``).

``--instructions`` counts the instructions each request executes instead,
under valgrind's callgrind: the same on a busy machine as on an idle one, so
two versions of the code can be compared exactly. Each load runs twice, with
``--requests`` and with twice as many; the difference over the difference in
requests leaves out start-up and warm-up. Slow: about a minute.

Run: ``.venv/bin/python bench/bench_request_cpu.py [--requests 3000] [--profile page]``
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import cProfile
import itertools
import os
import pstats
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable

import orjson
from starlette.types import Message

from mock_server import Settings, create_app
from mock_server.app import MockApp

KINDS = ("item", "page", "post", "304")
Request = Callable[[int], Awaitable[int]]


def _scope(
    method: str, path: str, query: bytes = b"", headers: tuple[tuple[bytes, bytes], ...] = ()
) -> dict[str, object]:
    """A scope as uvicorn's httptools protocol makes it for a request from wrk."""
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 50000),
        "scheme": "http",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1:8000"), *headers],
        "state": {},
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
    }


async def _call(app: MockApp, scope: dict[str, object], body: bytes = b"") -> int:
    status = 0

    async def receive() -> Message:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]

    await app(dict(scope), receive, send)
    return status


async def _token(app: MockApp) -> str:
    basic = base64.b64encode(b"alice:wonderland")
    scope = _scope("POST", "/auth/token", headers=((b"authorization", b"Basic " + basic),))
    captured: list[bytes] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        if message["type"] == "http.response.body":
            captured.append(message.get("body", b""))

    await app(scope, receive, send)
    return str(orjson.loads(b"".join(captured))["access_token"])


async def _loads(app: MockApp) -> dict[str, tuple[Request, int]]:
    """Each load as a function of the request's number, and the status it must answer."""
    item = _scope("GET", "/customers/7")
    # Customers 13 to 32, as bench_mock.py asks: 20 whole customers (seed size 3).
    page = _scope("GET", "/customers", b"limit=20&offset=12")
    etag = b""

    async def capture_etag() -> None:
        nonlocal etag

        async def receive() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: Message) -> None:
            nonlocal etag
            if message["type"] == "http.response.start":
                etag = dict(message["headers"])[b"etag"]

        await app(dict(item), receive, send)

    await capture_etag()
    conditional = _scope("GET", "/customers/7", headers=((b"if-none-match", etag),))
    bearer = f"Bearer {await _token(app)}".encode()
    tag = time.time_ns()

    def post(number: int) -> Awaitable[int]:
        body = b'{"name": "Bench %d-%d", "address": "1 Main St, Springfield, IL 62701"}' % (
            tag,
            number,
        )
        headers = (
            (b"authorization", bearer),
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        )
        return _call(app, _scope("POST", "/customers", headers=headers), body)

    return {
        "item": (lambda _: _call(app, item), 200),
        "page": (lambda _: _call(app, page), 200),
        "post": (post, 201),
        "304": (lambda _: _call(app, conditional), 304),
    }


async def _cost(request: Request, expected: int, numbers: itertools.count[int], n: int) -> float:
    """CPU microseconds per request over ``n`` requests."""
    started = time.process_time()
    for _ in range(n):
        status = await request(next(numbers))
        assert status == expected, f"answered {status}, not {expected}"
    return (time.process_time() - started) / n * 1e6


async def _measure(requests: int, runs: int) -> dict[str, float]:
    app = create_app(Settings(rate_limit=None, seed_size=3))
    loads = await _loads(app)
    numbers = itertools.count()
    for request, expected in loads.values():  # warm up: imports, caches, indexes
        await _cost(request, expected, numbers, 200)
    best = dict.fromkeys(KINDS, float("inf"))
    for _ in range(runs):
        for kind in KINDS:
            request, expected = loads[kind]
            best[kind] = min(best[kind], await _cost(request, expected, numbers, requests))
    return best


async def _profile(kind: str, requests: int, sort: str) -> None:
    app = create_app(Settings(rate_limit=None, seed_size=3))
    request, expected = (await _loads(app))[kind]
    numbers = itertools.count()
    await _cost(request, expected, numbers, 200)
    profile = cProfile.Profile()
    profile.enable()
    await _cost(request, expected, numbers, requests)
    profile.disable()
    pstats.Stats(profile).sort_stats(sort).print_stats(40)


async def _only(kind: str, requests: int) -> None:
    """Warm up, then ``requests`` requests of ``kind``: what callgrind counts."""
    app = create_app(Settings(rate_limit=None, seed_size=3))
    loads = await _loads(app)
    numbers = itertools.count()
    for request, expected in loads.values():
        await _cost(request, expected, numbers, 50)
    request, expected = loads[kind]
    await _cost(request, expected, numbers, requests)


def _instructions(kind: str, requests: int) -> int:
    """The instructions callgrind counts for a run of :func:`_only`."""
    done = subprocess.run(
        [
            *("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"),
            *(sys.executable, __file__, "--only", kind, "--requests", str(requests)),
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},  # the same dict layouts every run
    )
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind gave no count:\n{done.stderr}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000, help="requests per load and run")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", choices=KINDS, help="profile this load instead")
    parser.add_argument("--sort", default="tottime", help="cProfile order (with --profile)")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions with callgrind instead"
    )
    parser.add_argument("--only", choices=KINDS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only:
        asyncio.run(_only(args.only, args.requests))
        return
    if args.profile:
        asyncio.run(_profile(args.profile, args.requests, args.sort))
        return
    if args.instructions:
        if shutil.which("valgrind") is None:
            raise SystemExit("valgrind is not installed (apt-get install valgrind)")
        print("instructions per request, in-process (callgrind):")
        for kind in KINDS:
            few = _instructions(kind, args.requests)
            many = _instructions(kind, 2 * args.requests)
            print(f"  {kind:5} {(many - few) / args.requests:9.0f}", flush=True)
        return
    best = asyncio.run(_measure(args.requests, args.runs))
    print("CPU time per request, in-process (best of", args.runs, "runs):")
    for kind in KINDS:
        print(f"  {kind:5} {best[kind]:7.1f} us")


if __name__ == "__main__":
    main()
