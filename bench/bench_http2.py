"""What do HTTP/2 and TLS cost? restwalk-mock's engines and protocols side by side.

Starts ``restwalk-mock`` once per variant (rate limit off) and puts the same
load on ``GET /customers/7`` with h2load (Debian/Ubuntu: ``nghttp2-client``),
which speaks HTTP/1.1 (``--h1``) and HTTP/2, in cleartext and over TLS:

- HTTP/1.1 on uvicorn (the default), and over TLS (``--tls``);
- HTTP/1.1, h2c and h2 (by ALPN) on Hypercorn (``--http2``, ``--http2 --tls``);
  HTTP/2 with one stream per connection at a time, and with ten at a time
  (multiplexed) over fewer connections.

Prints requests per second, mean and maximum time per request. Without h2load
it says so in one line and exits 1.

Run: ``.venv/bin/python bench/bench_http2.py [--seconds 5] [--connections 50]``
"""

from __future__ import annotations

import argparse
import re
import select
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PATH = "/customers/7"
START_TIMEOUT = 20.0
SERVER = (sys.executable, "-m", "mock_server", "--port", "0", "--rate-limit", "off")
QUIET = ("--log-level", "warning")


@dataclass(frozen=True)
class Variant:
    """One way of serving and of loading it."""

    name: str
    server_flags: tuple[str, ...]
    h2load_flags: tuple[str, ...]
    #: Connections as a share of ``--connections`` (multiplexed runs use fewer).
    connection_share: float = 1.0
    streams: int = 1


VARIANTS = (
    Variant("HTTP/1.1  uvicorn", (), ("--h1",)),
    Variant("HTTP/1.1  uvicorn, TLS", ("--tls",), ("--h1",)),
    Variant("HTTP/1.1  Hypercorn", ("--http2",), ("--h1",)),
    Variant("h2c       Hypercorn", ("--http2",), ()),
    Variant("h2c x10   Hypercorn", ("--http2",), (), connection_share=0.2, streams=10),
    Variant("h2 (TLS)  Hypercorn", ("--http2", "--tls"), ()),
)


@contextmanager
def mock_server(*flags: str) -> Iterator[str]:
    """A ``restwalk-mock`` process with ``flags``; its base URL."""
    process = subprocess.Popen(
        [*SERVER, *QUIET, *flags],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT)
        if not ready:
            raise RuntimeError("restwalk-mock printed no URL line")
        yield process.stdout.readline().split()[3]
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(15)


def h2load(url: str, variant: Variant, seconds: float, connections: int) -> dict[str, float]:
    """Run h2load on ``url``; requests per second and the mean and max time per request (ms).

    A one-second run first warms up (h2load 1.52's own ``--warm-up-time`` loses
    the status counts of HTTP/1.1 runs).
    """
    clients = max(1, round(connections * variant.connection_share))
    for duration in (1.0, seconds):
        done = subprocess.run(
            [
                *("h2load", "--duration", f"{duration:g}", "--threads", "2"),
                *("--clients", str(clients), "--max-concurrent-streams", str(variant.streams)),
                *variant.h2load_flags,
                url + PATH,
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=duration + 60,
        )
    rate = re.search(r"finished in [\d.]+\w*, ([\d.]+) req/s", done.stdout)
    timing = re.search(r"time for request:\s+\S+\s+(\S+)\s+(\S+)", done.stdout)
    # Not "succeeded": h2load 1.52 takes the status from the reason phrase's
    # callback, and Hypercorn's HTTP/1.1 sends none ("HTTP/1.1 200 "), so it
    # counts those answers as failed. Every request must be done, none errored.
    answers = re.search(r"requests: (\d+) total, \d+ started, (\d+) done", done.stdout)
    broken = re.search(r"(\d+) errored, (\d+) timeout", done.stdout)
    if not (rate and timing and answers and broken) or broken.groups() != ("0", "0"):
        raise RuntimeError(f"unexpected h2load output:\n{done.stdout}\n{done.stderr}")
    return {
        "rps": float(rate.group(1)),
        "max": _milliseconds(timing.group(1)),
        "mean": _milliseconds(timing.group(2)),
    }


def _milliseconds(text: str) -> float:
    number = float(re.sub(r"[a-z]+$", "", text))
    if text.endswith("us"):
        return number / 1000
    if text.endswith("ms"):
        return number
    return number * 1000  # "s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--connections", type=int, default=50)
    args = parser.parse_args()
    if shutil.which("h2load") is None:
        print("bench_http2: h2load is not installed (package nghttp2-client); nothing measured")
        return 1
    print(f"GET {PATH}, {args.seconds:g} s per run, h2load with 2 threads")
    print(f"{'variant':<24} {'conns':>5} {'streams':>7} {'req/s':>9} {'mean ms':>8} {'max ms':>8}")
    for variant in VARIANTS:
        with mock_server(*variant.server_flags) as url:
            result = h2load(url, variant, args.seconds, args.connections)
        clients = max(1, round(args.connections * variant.connection_share))
        print(
            f"{variant.name:<24} {clients:>5} {variant.streams:>7} {result['rps']:>9.0f}"
            f" {result['mean']:>8.2f} {result['max']:>8.2f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
