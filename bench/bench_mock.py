"""restwalk-mock against json-server and httpbin: the same load on each, side by side.

Starts each server on a free 127.0.0.1 port, puts the same load on it with
``wrk`` (a plain Python load generator when wrk is missing, and the output
says so), and prints requests per second, p50 and p99 latency, the server's
CPU time per request and its peak RSS for four kinds of request, with
restwalk-mock's ratio to the best peer:

- ``item``: one entity (``GET /customers/7``; httpbin: ``GET /get``)
- ``page``: a 20-item page (``GET /customers?limit=20&offset=12``, customers 13
  to 32 of the 36 of ``--seed-size 3``; json-server: ``?_start=12&_limit=20``
  over the same 36; httpbin: ``GET /json``)
- ``post``: a create with a bearer token (httpbin: ``POST /post``)
- ``304``: a GET with ``If-None-Match`` answered 304 (httpbin: ``/etag/{etag}``)

The peers are installed into ``~/.cache/restwalk-bench`` when missing
(json-server 0.17 with npm, httpbin and gunicorn with pip into a venv); a
peer that cannot be installed is skipped with one line. Everything runs on
loopback, and each load lasts ``--duration`` seconds.

On a shared machine the rates move with what else runs, so the comparison is
made ``--runs`` times (each run puts every server under the same loads one
after another), the load average is printed with each run, and the summary
gives the medians. Two ratios are printed: of requests per second (what the
target names), and of CPU time per request (the server's own user + system
time over the requests it answered: what the code costs, which moves far less
with the machine's load).

Unless ``--no-scaling``, each run also measures ``--workers``: restwalk-mock
with ``--db`` (which several workers need, to share one store) in one worker
and in two, and prints the ratio.

``--soak SECONDS`` instead runs the item and page loads on restwalk-mock alone
for that long and prints its RSS once a minute (memory must stay flat).

Run: ``.venv/bin/python bench/bench_mock.py [--duration 10] [--runs 3] [--connections 50]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "restwalk-bench"
KINDS = ("item", "page", "post", "304")
#: Where the page starts: past the first round of the seed (whose customer 12 is under a
#: legal hold and left out of pages), so that both servers answer 20 whole customers.
PAGE_OFFSET = 12
#: Each request's body for ``post`` must be new (json-server and restwalk-mock keep them).
POST_LUA = """
local counter = 0
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tag", RUN .. "-" .. threads)
end
request = function()
  counter = counter + 1
  local body = string.format(BODY, tag .. "-" .. counter)
  return wrk.format("POST", PATH, HEADERS, body)
end
"""


@dataclass
class Load:
    """One kind of request against one server."""

    method: str
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    #: A ``%s`` format for a unique body per request (None: no body).
    body: str | None = None
    expect: int = 200


@dataclass
class Result:
    """What one load measured."""

    requests_per_second: float
    p50_ms: float
    p99_ms: float
    errors: int
    #: How many requests were answered (CPU time per request divides by it).
    requests: int = 0
    #: The server's CPU time (user + system, all its processes) per request, in µs.
    cpu_us: float = 0.0
    #: Requests wrk gave up on after 2 s (counted apart from wrong answers).
    timeouts: int = 0


@dataclass
class Server:
    """A running server under test: its process, URL, and the loads it answers."""

    name: str
    process: subprocess.Popen[bytes]
    url: str
    loads: dict[str, Load]
    rest_rss_mb: float = 0.0
    peak_rss_mb: float = 0.0
    results: dict[str, Result] = field(default_factory=dict)


# Processes and memory -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(children.get(current, []))
    return found


def rss_mb(pid: int) -> float:
    """The resident memory of ``pid`` and its descendants, in MB."""
    total = 0
    for member in _tree(pid):
        try:
            for line in Path(f"/proc/{member}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def cpu_seconds(pid: int) -> float:
    """The user + system CPU time of ``pid`` and its descendants so far, in seconds."""
    ticks = 0
    for member in _tree(pid):
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, and the number of cores."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


@contextmanager
def peak_rss(server: Server) -> Iterator[None]:
    """Sample the server's RSS every 0.1 s while the block runs; keep the peak."""
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.1):
            server.peak_rss_mb = max(server.peak_rss_mb, rss_mb(server.process.pid))

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def wait_until_up(url: str, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"not answering at {url} after {seconds:g} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def spawn(command: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: stop() ends all of it
        **kwargs,  # type: ignore[call-overload]
    )


def request(url: str, method: str = "GET", body: bytes | None = None, **headers: str) -> tuple:
    req = urllib.request.Request(url, data=body, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=5) as response:
        return response.headers, response.read()


# The servers ----------------------------------------------------------------------------


def start_restwalk(
    workers: int, seed_size: int, db: bool = False, source: Path | None = None
) -> Server:
    """restwalk-mock in memory, or with ``db`` on a fresh SQLite file (needed past 1 worker).

    ``source``: the checkout whose ``mock_server`` to run (this one when None).
    """
    port = free_port()
    command = [sys.executable, "-m", "mock_server", "--port", str(port), "--rate-limit", "off"]
    command += ["--log-level", "warning", "--seed-size", str(seed_size)]
    db = db or workers > 1
    if db:
        command += ["--workers", str(workers), "--db", str(Path(tempfile.mkdtemp()) / "bench.db")]
    process = spawn(command, cwd=source) if source else spawn(command)
    url = f"http://127.0.0.1:{port}"
    wait_until_up(url + "/", process)
    _, token_body = request(
        url + "/auth/token",
        "POST",
        b'{"username": "alice", "password": "wonderland"}',
        **{"Content-Type": "application/json"},
    )
    token = json.loads(token_body)["access_token"]
    headers, _ = request(url + "/customers/7")
    name = "restwalk-mock" if source is None else f"baseline {source.name}"
    return Server(
        name + (f" --db x{workers}" if db else ""),
        process,
        url,
        {
            "item": Load("GET", "/customers/7"),
            "page": Load("GET", f"/customers?limit=20&offset={PAGE_OFFSET}"),
            "post": Load(
                "POST",
                "/customers",
                {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
                '{"name": "Bench %s", "address": "1 Main St, Springfield, IL 62701"}',
                201,
            ),
            "304": Load("GET", "/customers/7", {"If-None-Match": headers["ETag"]}, expect=304),
        },
    )


def install_json_server() -> Path:
    cli = CACHE / "json-server" / "node_modules" / "json-server" / "lib" / "cli" / "bin.js"
    if not cli.exists():
        if shutil.which("npm") is None:
            raise RuntimeError("npm is not installed")
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                *("npm", "install", "--silent", "--no-audit", "--no-fund"),
                *("--prefix", str(CACHE / "json-server"), "json-server@0.17"),
            ],
            check=True,
            capture_output=True,
        )
    if shutil.which("node") is None:
        raise RuntimeError("node is not installed")
    return cli


def start_json_server(seed_size: int) -> Server:
    cli = install_json_server()
    port = free_port()
    # The same customers as restwalk-mock's seed, as json-server keeps them.
    count = 12 * seed_size
    customers = [
        {"id": i, "name": f"Customer {i}", "address": f"{i} Main St, Springfield, IL 62701"}
        for i in range(1, count + 1)
    ]
    db = Path(tempfile.mkdtemp()) / "db.json"
    db.write_text(json.dumps({"customers": customers}))
    process = spawn(["node", str(cli), "--quiet", "--port", str(port), str(db)])
    url = f"http://127.0.0.1:{port}"
    wait_until_up(url + "/customers/7", process)
    headers, _ = request(url + "/customers/7")
    return Server(
        "json-server",
        process,
        url,
        {
            "item": Load("GET", "/customers/7"),
            "page": Load("GET", f"/customers?_start={PAGE_OFFSET}&_limit=20"),
            "post": Load(
                "POST",
                "/customers",
                {"Authorization": "Bearer bench", "Content-Type": "application/json"},
                '{"name": "Bench %s", "address": "1 Main St, Springfield, IL 62701"}',
                201,
            ),
            "304": Load("GET", "/customers/7", {"If-None-Match": headers["ETag"]}, expect=304),
        },
    )


def install_httpbin() -> Path:
    venv = CACHE / "httpbin-venv"
    gunicorn = venv / "bin" / "gunicorn"
    if not gunicorn.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
        subprocess.run(
            [str(venv / "bin" / "pip"), "install", "-q", "httpbin", "gunicorn"],
            check=True,
            capture_output=True,
        )
    return gunicorn


def start_httpbin() -> Server:
    gunicorn = install_httpbin()
    port = free_port()
    # httpbin's documented way: gunicorn httpbin:app (one sync worker: one process, as ours).
    process = spawn([str(gunicorn), "-b", f"127.0.0.1:{port}", "httpbin:app"])
    url = f"http://127.0.0.1:{port}"
    wait_until_up(url + "/get", process)
    return Server(
        "httpbin",
        process,
        url,
        {
            "item": Load("GET", "/get"),
            "page": Load("GET", "/json"),
            "post": Load(
                "POST",
                "/post",
                {"Authorization": "Bearer bench", "Content-Type": "application/json"},
                '{"name": "Bench %s"}',
            ),
            "304": Load("GET", "/etag/bench", {"If-None-Match": '"bench"'}, expect=304),
        },
    )


# Load generators ------------------------------------------------------------------------

_WRK_LATENCY = re.compile(r"^\s+(50|99)(?:\.000)?%\s+([\d.]+)(us|ms|s)\s*$", re.MULTILINE)
_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _lua(load: Load) -> str:
    headers = "{" + ", ".join(f"[{k!r}] = {v!r}" for k, v in load.headers.items()) + "}"
    if load.body is None:
        return f'wrk.method = "{load.method}"\n' + "".join(
            f"wrk.headers[{k!r}] = {v!r}\n" for k, v in load.headers.items()
        )
    run = f"{time.time_ns():x}"  # a fresh tag per run: the server keeps earlier bodies
    return (
        f"RUN = {run!r}\nBODY = {load.body!r}\nPATH = {load.path!r}\nHEADERS = {headers}\n"
        + POST_LUA
    )


def run_wrk(url: str, load: Load, duration: float, connections: int, threads: int) -> Result:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(_lua(load))
    try:
        output = subprocess.run(
            [
                *("wrk", f"-t{threads}", f"-c{connections}", f"-d{duration:g}s", "--latency"),
                *("-s", script.name, url + load.path),
            ],
            check=True,
            capture_output=True,
            text=True,
            timeout=duration + 30,
        ).stdout
    finally:
        os.unlink(script.name)
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    answered = int(re.search(r"(\d+) requests in", output).group(1))  # type: ignore[union-attr]
    latency = {p: float(v) * _UNITS[u] for p, v, u in _WRK_LATENCY.findall(output)}
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    # "Socket errors: connect 0, read 0, write 0, timeout 12": wrk gives up after 2 s.
    line = re.search(r"Socket errors: (.*)", output)
    socket_errors = {
        kind: int(n) for kind, n in re.findall(r"(\w+) (\d+)", line[1] if line else "")
    }
    errors = int(bad.group(1)) if bad else 0
    errors += sum(n for kind, n in socket_errors.items() if kind != "timeout")
    p50, p99 = latency.get("50", 0.0), latency.get("99", 0.0)
    return Result(rate, p50, p99, errors, answered, timeouts=socket_errors.get("timeout", 0))


async def _python_client(
    host: str,
    port: int,
    load: Load,
    deadline: float,
    latencies: list[float],
    failures: list[int],
    tag: str,
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    counter = 0
    try:
        while time.monotonic() < deadline:
            counter += 1
            body = b"" if load.body is None else (load.body % f"{tag}-{counter}").encode()
            head = f"{load.method} {load.path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
            head += "".join(f"{k}: {v}\r\n" for k, v in load.headers.items())
            if load.body is not None:
                head += f"Content-Length: {len(body)}\r\n"
            started = time.perf_counter()
            writer.write(head.encode() + b"\r\n" + body)
            status_line = await reader.readline()
            length = 0
            while (line := await reader.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            await reader.readexactly(length)
            latencies.append((time.perf_counter() - started) * 1000)
            if int(status_line.split()[1]) != load.expect:
                failures.append(1)
    finally:
        writer.close()


def run_python(url: str, load: Load, duration: float, connections: int) -> Result:
    host, port = url.removeprefix("http://").rsplit(":", 1)
    latencies: list[float] = []
    failures: list[int] = []
    run = f"{time.time_ns():x}"

    async def main() -> None:
        deadline = time.monotonic() + duration
        await asyncio.gather(
            *(
                _python_client(host, int(port), load, deadline, latencies, failures, f"{run}-{n}")
                for n in range(connections)
            )
        )

    started = time.monotonic()
    asyncio.run(main())
    elapsed = time.monotonic() - started
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    return Result(len(latencies) / elapsed, cuts[49], cuts[98], len(failures), len(latencies))


# Running and printing -------------------------------------------------------------------


def measure(server: Server, generator: Callable[..., Result]) -> None:
    """Every load on ``server``, one after another: rates, latencies, CPU and memory."""
    pid = server.process.pid
    server.rest_rss_mb = rss_mb(pid)
    server.peak_rss_mb = server.rest_rss_mb
    with peak_rss(server):
        for kind in KINDS:
            load = server.loads[kind]
            before = cpu_seconds(pid)
            result = generator(server.url, load)
            spent = cpu_seconds(pid) - before
            result.cpu_us = spent / max(1, result.requests) * 1e6
            server.results[kind] = result


def median_server(runs: list[Server]) -> Server:
    """One server whose every figure is the median of ``runs`` (the same server each run)."""
    first = runs[0]
    merged = Server(first.name, first.process, first.url, first.loads)
    merged.rest_rss_mb = statistics.median(s.rest_rss_mb for s in runs)
    merged.peak_rss_mb = max(s.peak_rss_mb for s in runs)
    for kind in KINDS:
        results = [s.results[kind] for s in runs]
        merged.results[kind] = Result(
            statistics.median(r.requests_per_second for r in results),
            statistics.median(r.p50_ms for r in results),
            statistics.median(r.p99_ms for r in results),
            sum(r.errors for r in results),
            sum(r.requests for r in results),
            statistics.median(r.cpu_us for r in results),
            sum(r.timeouts for r in results),
        )
    return merged


def print_table(servers: list[Server], title: str) -> None:
    """req/s, p50/p99 and CPU µs per request side by side; ratios of the first to the rest."""
    ours = servers[0]
    peers = servers[1:]
    width = max(24, *(len(s.name) + 2 for s in servers))
    print(f"\n{title}")
    print(
        "req/s p50/p99ms CPUus"
        + "".join(s.name.rjust(width) for s in servers)
        + "   ratio req/s, CPU"
    )
    for kind in KINDS:
        cells = []
        for server in servers:
            r = server.results[kind]
            errors = (f" !{r.errors}" if r.errors else "") + (
                f" t{r.timeouts}" if r.timeouts else ""
            )
            rate = f"{r.requests_per_second:6.0f}"
            cells.append(f"{rate} {r.p50_ms:4.1f}/{r.p99_ms:5.1f} {r.cpu_us:4.0f}{errors}")
        ratios = "  -"
        if peers:
            best = max(p.results[kind].requests_per_second for p in peers)
            cheapest = min(p.results[kind].cpu_us for p in peers)
            mine = ours.results[kind]
            by_rate = mine.requests_per_second / best if best else 0.0
            by_cpu = cheapest / mine.cpu_us if mine.cpu_us else 0.0
            ratios = f"{by_rate:5.2f}x {by_cpu:5.2f}x"
        print(f"{kind:21}" + "".join(c.rjust(width) for c in cells) + "   " + ratios)
    print(
        f"{'RSS rest/peak MB':21}"
        + "".join(f"{s.rest_rss_mb:.0f}/{s.peak_rss_mb:.0f}".rjust(width) for s in servers)
    )


def soak(args: argparse.Namespace, generator: Callable[..., Result]) -> None:
    server = start_restwalk(args.workers, args.seed_size)
    try:
        print(f"restwalk-mock at rest: {rss_mb(server.process.pid):.1f} MB")
        started = time.monotonic()
        while time.monotonic() - started < args.soak:
            for kind in ("item", "page"):
                result = generator(server.url, server.loads[kind])
            print(
                f"after {time.monotonic() - started:5.0f} s: RSS "
                f"{rss_mb(server.process.pid):.1f} MB, last page load "
                f"{result.requests_per_second:.0f} req/s p99 {result.p99_ms:.1f} ms "
                f"({load_average()})",
                flush=True,
            )
        time.sleep(5)
        print(f"5 s after the load: RSS {rss_mb(server.process.pid):.1f} MB")
    finally:
        stop(server.process)


def run_once(
    starters: list[tuple[str, Callable[[], Server]]], generator: Callable[..., Result]
) -> dict[str, Server]:
    """Start, load and stop each server in turn; the ones that could be measured, by name."""
    measured: dict[str, Server] = {}
    for name, start in starters:
        try:
            server = start()
        except (RuntimeError, OSError, subprocess.CalledProcessError) as error:
            print(f"{name}: skipped ({error})")
            continue
        try:
            measure(server, generator)
        finally:
            stop(server.process)
        measured[server.name] = server
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per load")
    parser.add_argument("--runs", type=int, default=3, help="repeat and print the medians")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--workers", type=int, default=1, help="restwalk-mock --workers")
    parser.add_argument(
        "--seed-size", type=int, default=3, help="restwalk-mock --seed-size (12 customers each)"
    )
    parser.add_argument("--only", action="store_true", help="restwalk-mock alone, no peers")
    parser.add_argument(
        "--no-scaling", action="store_true", help="skip the 1 against 2 workers measurement"
    )
    parser.add_argument("--soak", type=float, default=0.0, metavar="SECONDS")
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="DIR",
        help="also measure the restwalk-mock of another checkout (say, of main) in each run",
    )
    args = parser.parse_args()

    if shutil.which("wrk"):
        print(f"load: wrk -t{args.threads} -c{args.connections} -d{args.duration:g}s")

        def generator(url: str, load: Load) -> Result:
            return run_wrk(url, load, args.duration, args.connections, args.threads)
    else:
        print("load: wrk not found (apt-get install wrk); using the slower Python load generator")

        def generator(url: str, load: Load) -> Result:
            return run_python(url, load, args.duration, args.connections)

    if args.soak:
        args.duration = min(args.duration, 30.0)
        soak(args, generator)
        return
    ours = "restwalk-mock" + (f" --db x{args.workers}" if args.workers > 1 else "")
    starters: list[tuple[str, Callable[[], Server]]] = [
        (ours, lambda: start_restwalk(args.workers, args.seed_size)),
    ]
    baseline = None
    if args.baseline:
        source = args.baseline.resolve()
        baseline = f"baseline {source.name}"
        starters.append((baseline, lambda: start_restwalk(1, args.seed_size, source=source)))
    if not args.only:
        starters += [
            ("json-server", lambda: start_json_server(args.seed_size)),
            ("httpbin", start_httpbin),
        ]
    scaling = ["restwalk-mock --db x1", "restwalk-mock --db x2"]
    if not args.no_scaling:
        starters += [
            (scaling[0], lambda: start_restwalk(1, args.seed_size, db=True)),
            (scaling[1], lambda: start_restwalk(2, args.seed_size, db=True)),
        ]
    runs: list[dict[str, Server]] = []
    for number in range(1, args.runs + 1):
        print(f"run {number} of {args.runs}: {load_average()}", flush=True)
        measured = run_once(starters, generator)
        runs.append(measured)
        compared = [
            measured[n] for n, _ in starters if n in measured and n not in (*scaling, baseline)
        ]
        if compared and compared[0].name == ours:
            print_table(compared, f"run {number}, ending at {load_average()}")
        print(flush=True)
    names = [name for name, _ in starters if all(name in run for run in runs)]
    medians = {name: median_server([run[name] for run in runs]) for name in names}
    compared = [medians[n] for n in names if n not in (*scaling, baseline)]
    if compared and compared[0].name == ours:
        print_table(compared, f"medians of {args.runs} runs")
        print("(ratio: restwalk-mock's req/s over the best peer's, and the least CPU time")
        print(" per request among the peers over restwalk-mock's; !N: N unexpected answers")
        print(" or socket errors; tN: N requests unanswered after wrk's 2 s timeout)")
    if baseline in medians and ours in medians:
        print_table([medians[ours], medians[baseline]], f"this checkout against {baseline}")
        print(
            "(ratio: this checkout's req/s over the baseline's, and its CPU per request over ours)"
        )
    if all(name in medians for name in scaling):
        print_table([medians[scaling[1]], medians[scaling[0]]], "--workers: 2 against 1")
        print("(ratio: 2 workers' req/s over 1 worker's, and 1 worker's CPU per request over 2's)")


if __name__ == "__main__":
    main()
