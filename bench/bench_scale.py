"""restwalk-mock with a large seed: start-up time, and p50/p99 of pages, filters, sorts, creates.

Starts ``restwalk-mock --seed-size N`` (N rounds of the base data: 12 customers,
10 products and 8 orders each) on a free 127.0.0.1 port, times how long until
it answers, then sends each kind of request one after another on one
keep-alive connection and prints the latency percentiles (the first request of
each kind apart: it may build an index). The target: under
50 ms p99 for each, and a start in under 10 s.

Run: ``.venv/bin/python bench/bench_scale.py [--seed-size 20000] [--requests 200]``
"""

from __future__ import annotations

import argparse
import base64
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

AUTH = "Basic " + base64.b64encode(b"alice:wonderland").decode()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start(seed_size: int) -> tuple[subprocess.Popen[bytes], int, float]:
    port = free_port()
    started = time.monotonic()
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "mock_server", "--port", str(port), "--rate-limit", "off"),
            *("--log-level", "warning", "--seed-size", str(seed_size)),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    while True:
        if process.poll() is not None:
            raise SystemExit(f"restwalk-mock exited with status {process.returncode}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/")
            connection.getresponse().read()
            connection.close()
            return process, port, time.monotonic() - started
        except OSError:
            time.sleep(0.05)


def measure(
    connection: http.client.HTTPConnection, count: int, make: Callable[[int], tuple[str, str, str]]
) -> tuple[float, float, float, set[int]]:
    """The first request's time, p50 and p99 in ms of the ``count`` after it, the statuses."""
    timings = []
    statuses = set()
    for n in range(count + 1):
        method, target, body = make(n)
        headers = {"Authorization": AUTH}
        if body:
            headers["Content-Type"] = "application/json"
        began = time.perf_counter()
        connection.request(method, target, body=body or None, headers=headers)
        response = connection.getresponse()
        response.read()
        timings.append((time.perf_counter() - began) * 1000)
        statuses.add(response.status)
    cuts = statistics.quantiles(timings[1:], n=100)
    return timings[0], cuts[49], cuts[98], statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seed-size", type=int, default=20000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    process, port, took = start(args.seed_size)
    try:
        customers = 12 * args.seed_size
        print(f"--seed-size {args.seed_size} ({customers} customers): answering after {took:.1f} s")
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        tag = os.getpid()
        kinds: dict[str, Callable[[int], tuple[str, str, str]]] = {
            "first page": lambda n: ("GET", "/customers?limit=20", ""),
            "deep page": lambda n: ("GET", f"/customers?limit=20&offset={customers // 2 + n}", ""),
            "sort=-name": lambda n: ("GET", f"/customers?sort=-name&limit=20&offset={n}", ""),
            "sort=cost": lambda n: ("GET", f"/products?sort=cost&limit=20&offset={n * 20}", ""),
            "filter city": lambda n: ("GET", "/customers?city=nuenen&limit=20", ""),
            "filter name": lambda n: ("GET", f"/customers?name=lovelace%20{n + 2}&limit=20", ""),
            "create": lambda n: (
                "POST",
                "/customers",
                json.dumps({"name": f"Scale {tag}-{n}", "address": "1 Main St, Springfield, IL 1"}),
            ),
            "page after writes": lambda n: ("GET", f"/customers?sort=name&offset={n}", ""),
        }
        # The first request of a kind may build an index: shown apart from the rest.
        print(f"{'request':18} {'first ms':>8} {'p50 ms':>8} {'p99 ms':>8}  statuses")
        for name, make in kinds.items():
            first, p50, p99, statuses = measure(connection, args.requests, make)
            print(f"{name:18} {first:8.1f} {p50:8.1f} {p99:8.1f}  {sorted(statuses)}", flush=True)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)


if __name__ == "__main__":
    main()
