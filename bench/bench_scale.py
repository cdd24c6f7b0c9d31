"""restwalk-mock with large seeds: start-up, memory, p50/p99 of pages, filters, sorts, creates.

For each ``--seed-sizes`` N, starts ``restwalk-mock --seed-size N`` (N rounds of
the base data: 12 customers, 10 products and 8 orders each) on a free
127.0.0.1 port, times how long until it answers, then sends each kind of
request one after another on one keep-alive connection and prints the
latency percentiles (the first request of each kind apart: it may build an
index) and the server's resident memory after start and at the end. The
targets: a start under 10 s at ``--seed-size 1000000``, and under 50 ms p99
for each kind.

The default sizes give about 1,000, 20,000 and 1,000,000 customers, then
``--seed-size 1000000`` (12 million customers, 30 million records).

Run: ``.venv/bin/python bench/bench_scale.py [--seed-sizes 84,1667,83334,1000000] [--requests 200]``
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
from pathlib import Path

AUTH = "Basic " + base64.b64encode(b"alice:wonderland").decode()
Make = Callable[[int], tuple[str, str, str]]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


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
    connection: http.client.HTTPConnection, count: int, make: Make
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


def kinds(customers: int, products: int, tag: str) -> dict[str, Make]:
    """Each kind of request, as a function of the request's number."""
    return {
        "first page": lambda n: ("GET", "/customers?limit=20", ""),
        "deep page": lambda n: ("GET", f"/customers?limit=20&offset={customers // 2 + n}", ""),
        "last page": lambda n: ("GET", f"/customers?limit=20&offset={customers - 20}", ""),
        "sort=-name": lambda n: ("GET", f"/customers?sort=-name&limit=20&offset={n}", ""),
        "sort=name deep": lambda n: (
            "GET",
            f"/customers?sort=name&limit=20&offset={customers // 3 + n}",
            "",
        ),
        "sort=cost": lambda n: ("GET", f"/products?sort=cost&limit=20&offset={n * 20}", ""),
        "sort=-cost deep": lambda n: (
            "GET",
            f"/products?sort=-cost&limit=20&offset={products // 2 + n}",
            "",
        ),
        "filter city": lambda n: ("GET", "/customers?city=nuenen&limit=20", ""),
        "filter name": lambda n: ("GET", f"/customers?name=lovelace%20{n + 2}&limit=20", ""),
        "filter name sub": lambda n: ("GET", f"/customers?name=ING%20{n + 1}&limit=20", ""),
        "filter cost range": lambda n: (
            "GET",
            f"/products?minCost={n % 50}&maxCost={60 + n % 50}&limit=20&offset={n}",
            "",
        ),
        "create": lambda n: (
            "POST",
            "/customers",
            json.dumps({"name": f"Scale {tag}-{n}", "address": "1 Main St, Springfield, IL 1"}),
        ),
        "page after writes": lambda n: ("GET", f"/customers?sort=name&offset={n}", ""),
        "filter after writes": lambda n: ("GET", f"/customers?name=scale%20{tag}-{n}", ""),
    }


def run(seed_size: int, requests: int) -> None:
    process, port, took = start(seed_size)
    try:
        customers, products = 12 * seed_size, 10 * seed_size
        print(
            f"\n--seed-size {seed_size} ({customers:,} customers, {30 * seed_size:,} records): "
            f"answering after {took:.2f} s, RSS {rss_mb(process.pid):.0f} MB",
            flush=True,
        )
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        # The first request of a kind may build an index: shown apart from the rest.
        print(f"{'request':20} {'first ms':>8} {'p50 ms':>8} {'p99 ms':>8}  statuses")
        for name, make in kinds(customers, products, f"{os.getpid()}-{seed_size}").items():
            first, p50, p99, statuses = measure(connection, requests, make)
            print(f"{name:20} {first:8.1f} {p50:8.1f} {p99:8.1f}  {sorted(statuses)}", flush=True)
        print(f"RSS at the end: {rss_mb(process.pid):.0f} MB")
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--seed-sizes",
        default="84,1667,83334,1000000",
        help="comma-separated --seed-size values (12 customers each)",
    )
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    one, five, fifteen = os.getloadavg()
    print(f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores")
    for seed_size in (int(size) for size in args.seed_sizes.split(",")):
        run(seed_size, args.requests)


if __name__ == "__main__":
    main()
