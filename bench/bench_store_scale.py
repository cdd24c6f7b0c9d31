"""restwalk-mock's stores side by side: one instance against two and four on one PostgreSQL,
and ``--store sqlite:FILE`` on one host, in one run.

Starts a PostgreSQL of its own (Debian's binaries, as the tests do, but with
fsync and synchronous commits on, as a real server has them) on a free
127.0.0.1 port, then for each configuration starts restwalk-mock (a fresh
database or file each time, ``--rate-limit off`` as behind a load balancer,
the request journal on as by default) and puts two loads on it, spread evenly
over its instances (one ``wrk`` per instance, run together; a plain Python
load generator when wrk is missing):

- ``reads``: ``GET /customers/7`` on ``--connections`` connections in all;
- ``writes``: ``POST /customers`` with a bearer token on ``--writers`` connections.

A last line runs one PostgreSQL instance with ``--journal-size 0``: what the
shared journal's INSERT per request costs.

It prints reads per second (the sum over instances) and its ratio to one
instance on PostgreSQL, and the writes' rate and p99 latency (the highest p99
of the instances). The configurations: SQLite with one worker and with two
(``--workers 2``, sharing the file), PostgreSQL with one, two and four
instances (separate processes, each its own port, as on separate hosts).
Everything shares this machine's cores with the load generator and the
database: on 2 cores more instances cannot add reads/s; the figures say what
sharing costs, and where the database's round trip per request goes.

Run: ``.venv/bin/python bench/bench_store_scale.py [--duration 5] [--connections 32]``
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import bench_mock
from bench_mock import Load, Result

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.mock_server.postgresql_server import PostgresServer, find_binaries  # noqa: E402

BODY = '{"name": "Scale %s", "address": "1 Main St, Springfield, IL 62701"}'


@dataclass
class Measured:
    name: str
    instances: int
    reads: float
    reads_p99: float
    writes: float
    writes_p99: float


def start(store: list[str], workers: int = 1) -> tuple[list, str]:
    """One restwalk-mock process on ``store``; the process and its URL."""
    port = bench_mock.free_port()
    command = [sys.executable, "-m", "mock_server", "--port", str(port), "--rate-limit", "off"]
    command += ["--log-level", "warning", "--workers", str(workers), *store]
    process = bench_mock.spawn(command, cwd=ROOT)
    url = f"http://127.0.0.1:{port}"
    bench_mock.wait_until_up(url + "/", process)
    return [process], url


def token(url: str) -> str:
    _, body = bench_mock.request(
        url + "/auth/token",
        "POST",
        b'{"username": "alice", "password": "wonderland"}',
        **{"Content-Type": "application/json"},
    )
    return str(json.loads(body)["access_token"])


def spread(urls: list[str], load: Load, connections: int, duration: float) -> list[Result]:
    """``load`` on every URL at once, ``connections`` shared out among them."""
    each = max(1, connections // len(urls))

    def one(url: str) -> Result:
        if shutil.which("wrk"):
            return bench_mock.run_wrk(url, load, duration, each, 1)
        return bench_mock.run_python(url, load, duration, each)

    with ThreadPoolExecutor(len(urls)) as pool:
        return list(pool.map(one, urls))


def measure(name: str, urls: list[str], args: argparse.Namespace, instances: int) -> Measured:
    bearer = token(urls[0])
    reads = spread(urls, Load("GET", "/customers/7"), args.connections, args.duration)
    writes = spread(
        urls,
        Load(
            "POST",
            "/customers",
            {"Authorization": f"Bearer {bearer}", "Content-Type": "application/json"},
            BODY,
            201,
        ),
        args.writers,
        args.duration,
    )
    for result in (*reads, *writes):
        if result.errors:
            print(f"  {name}: {result.errors} wrong answers", flush=True)
    return Measured(
        name,
        instances,
        sum(r.requests_per_second for r in reads),
        max(r.p99_ms for r in reads),
        sum(r.requests_per_second for r in writes),
        max(r.p99_ms for r in writes),
    )


def run(args: argparse.Namespace, postgresql: PostgresServer) -> list[Measured]:
    results: list[Measured] = []
    for workers in (1, 2):
        folder = Path(tempfile.mkdtemp(prefix="restwalk-bench-"))
        processes, url = start(["--store", f"sqlite:{folder / 'bench.db'}"], workers)
        try:
            name = f"sqlite:FILE, {workers} worker{'s' if workers > 1 else ''}"
            results.append(measure(name, [url], args, workers))
            print(f"  measured {name}", flush=True)
        finally:
            for process in processes:
                bench_mock.stop(process)
            shutil.rmtree(folder, ignore_errors=True)
    for count, extra in ((1, []), (2, []), (4, []), (1, ["--journal-size", "0"])):
        store_url = postgresql.new_database()
        started = [start(["--store", store_url, *extra]) for _ in range(count)]
        try:
            name = f"postgresql, {count} instance{'s' if count > 1 else ''}"
            name += ", no journal" if extra else ""
            results.append(measure(name, [url for _, url in started], args, count))
            print(f"  measured {name}", flush=True)
        finally:
            for processes, _ in started:
                for process in processes:
                    bench_mock.stop(process)
            postgresql.drop_database(store_url)
    return results


def print_table(results: list[Measured]) -> None:
    one = next(r for r in results if r.name.startswith("postgresql, 1 "))
    print(
        f"\n{'store':28} {'reads/s':>9} {'x one pg':>8} {'read p99':>9} "
        f"{'writes/s':>9} {'write p99':>10}"
    )
    for r in results:
        print(
            f"{r.name:28} {r.reads:9.0f} {r.reads / one.reads:8.2f} {r.reads_p99:7.1f}ms "
            f"{r.writes:9.0f} {r.writes_p99:8.1f}ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--duration", type=float, default=5.0, help="seconds per load")
    parser.add_argument("--connections", type=int, default=32, help="read connections in all")
    parser.add_argument("--writers", type=int, default=8, help="write connections in all")
    args = parser.parse_args()
    binaries = find_binaries()
    if binaries is None:
        raise SystemExit("PostgreSQL is not installed: apt-get install postgresql")
    print(bench_mock.load_average())
    print(f"load: {'wrk' if shutil.which('wrk') else 'Python'}, {args.duration:g} s each")
    postgresql = PostgresServer(binaries, durable=True)
    try:
        results = run(args, postgresql)
    finally:
        postgresql.close()
    print_table(results)
    print(bench_mock.load_average())


if __name__ == "__main__":
    main()
