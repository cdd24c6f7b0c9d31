"""What an exchange costs a person at the keyboard: restwalk's key-to-page beside the
client that makes it, plain httpx and curl, on the same URLs, in one run.

Two servers, in turn: ``restwalk-mock`` in a process of its own, and the bundled mock
(``restwalk`` with no URL serves it from its own process). Each is seeded to hold 20
customers (9 created on top of the 11 it starts with), so the customers page is a page
of 20. For each, two pages: the mock's root and that page of 20 customers.

- **restwalk**, run in tmux at 120x40 as a person runs it (``bench_tui.py``'s way):
  the key that follows a link (the root's ``rw:customers``, the customers page's
  ``up``) is sent, then the Trip tab is read: the wait from the key to the page
  drawn, cut in phases (queue, connect, send, wait, receive, show) that add up to
  it, and the exchange's own time ("complete after"). The same wait seen from
  outside, from ``tmux send-keys`` until tmux's screen (asked every 2 ms through one
  control-mode client) shows the page, is printed too (it adds tmux's own latency
  and the polling's, a few ms).
- **Client.send**: ``explorer.core.http.client.Client`` alone, one kept-alive client,
  in this process (restwalk's floor).
- **httpx**: a plain ``httpx.AsyncClient``, kept alive (the library under it).
- **curl**: ``curl -w %{time_total}``, when installed (a new connection each time).

Medians over ``--runs`` follows of each page (the runs alternate pages: a busy spell
of a shared machine slows both). The target: key to page within Client.send's time
plus one frame (16 ms).

    .venv/bin/python bench/bench_exchange.py [--runs 15] [--only separate|bundled]

restwalk's modules are compiled to bytecode first, as ``make run`` does. restwalk runs
with a clean environment (a fresh ``HOME``), but for ``TEXTUAL_*`` variables given to
this script (``TEXTUAL_FPS=1000``: is the 60 Hz frame grid part of a wait?).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from tmux_control import ControlClient

from explorer.core.http.client import Client
from explorer.core.http.request import RequestSpec

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / ".venv/bin"
WIDTH, HEIGHT = 120, 40
FRAME_MS = 16.0
PHASES = ("queue", "connect", "send", "wait", "receive", "show")
PAGES = ("root", "customers")
#: Customers the mock starts with, and the page size the customers link asks for.
SEEDED, PAGE_OF = 11, 20


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_server(url: str, timeout: float = 30.0) -> None:
    deadline = time.perf_counter() + timeout
    while True:
        try:
            httpx.get(url, timeout=1.0)
            return
        except httpx.TransportError:
            if time.perf_counter() > deadline:
                raise
            time.sleep(0.05)


def seed_customers(base: str) -> None:
    """Create customers until the mock holds :data:`PAGE_OF` (a page of 20)."""
    token = httpx.post(
        f"{base}/auth/token",
        data={"grant_type": "password", "username": "alice", "password": "wonderland"},
    ).json()["access_token"]
    headers = {"Authorization": f"Bearer {token}"}
    total = httpx.get(f"{base}/customers").json()["total"]
    for n in range(total, PAGE_OF):
        body = {"name": f"Bench Person {n}", "address": f"{n} Bench Street, Springfield"}
        httpx.post(f"{base}/customers", json=body, headers=headers).raise_for_status()


@contextlib.contextmanager
def separate_mock() -> Iterator[str]:
    """``restwalk-mock`` in a process of its own, on a free port; yields its root URL."""
    port = free_port()
    process = subprocess.Popen(
        [str(BIN / "restwalk-mock"), "--port", str(port), "--rate-limit", "off"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for_server(base + "/")
        yield base
    finally:
        process.terminate()
        process.wait(10)


class Tmux:
    """One tmux session running restwalk at 120x40, its screen read through one
    control-mode client (:class:`~tmux_control.ControlClient`)."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], cwd: Path) -> None:
        self.name = name
        self._control: ControlClient | None = None
        env_args = [f"{k}={v}" for k, v in env.items()]
        subprocess.run(
            [
                *("tmux", "new-session", "-d", "-s", name, "-c", str(cwd)),
                *("-x", str(WIDTH), "-y", str(HEIGHT), "env", *env_args, *command),
            ],
            check=True,
        )

    def screen(self) -> str:
        """The pane's text. Read with a ``tmux capture-pane`` process each time, a poll every
        2 ms started 500 processes a second, each a client attaching to the tmux server:
        on two cores they took CPU from the restwalk being measured."""
        if self._control is None:
            self._control = ControlClient(self.name)
        return self._control.ask(f"capture-pane -p -t {self.name}")

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def wait_for(self, predicate: Callable[[str], bool], timeout: float = 30.0) -> float:
        """Seconds until ``predicate(screen)`` holds (polled); TimeoutError after ``timeout``."""
        start = time.perf_counter()
        while True:
            if predicate(self.screen()):
                return time.perf_counter() - start
            if time.perf_counter() - start > timeout:
                raise TimeoutError(f"{self.name}: the screen never matched:\n{self.screen()}")
            time.sleep(0.002)

    def close(self) -> None:
        if self._control is not None:
            self._control.close()
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


def status_line(screen: str) -> str:
    lines = screen.splitlines()
    return lines[2] if len(lines) > 2 else ""


def shows(url: str) -> Callable[[str], bool]:
    """True for a screen whose status line says ``url`` answered 200."""
    return lambda screen: (
        "200 OK" in status_line(screen) and status_line(screen).rstrip().endswith(f"GET {url}")
    )


def link_keys(screen: str, rel: str) -> list[str]:
    """The keys that follow the link ``rel`` of the links panel: its number's digits, then
    Enter when another link's number starts with it."""
    count = re.search(r"Links \((\d+)\)", screen)
    numbers = range(1, int(count.group(1)) + 1) if count is not None else range(0)
    found = re.search(rf"│ (\d+)\s+{re.escape(rel)}\s", screen)
    if found is None:
        raise LookupError(f"no link {rel} on screen:\n{screen}")
    number = found.group(1)
    keys = list(number)
    if any(str(other) != number and str(other).startswith(number) for other in numbers):
        keys.append("Enter")
    return keys


def trip_figures(screen: str) -> dict[str, float]:
    """The Trip tab's figures, in ms: the wait, its phases, the exchange alone."""
    figures: dict[str, float] = {}
    alone = re.search(r"complete after\s+([\d.]+) ms", screen)
    if alone is None:
        raise LookupError(f"no timing on the Trip tab:\n{screen}")
    figures["exchange"] = float(alone.group(1))
    waited = re.search(r"you waited\s+([\d.]+) ms", screen)
    if waited is not None:  # (a restwalk from before the Trip tab said the wait)
        figures["you waited"] = float(waited.group(1))
    for phase in PHASES:
        found = re.search(rf"^\s+(?:█ )?{phase}\s+([\d.]+) ms", screen, re.MULTILINE)
        if found is not None:
            figures[phase] = float(found.group(1))
    return figures


@dataclass
class Figures:
    """Every figure measured against one server, by page: lists of ms."""

    values: dict[str, dict[str, list[float]]] = field(default_factory=dict)

    def add(self, page: str, name: str, ms: float) -> None:
        self.values.setdefault(name, {}).setdefault(page, []).append(ms)

    def median(self, name: str, page: str) -> float | None:
        got = self.values.get(name, {}).get(page)
        return statistics.median(got) if got else None


def restwalk_runs(
    command: list[str],
    env: dict[str, str],
    base: str,
    runs: int,
    figures: Figures,
    *,
    setup: Callable[[], None] | None = None,
    after: Callable[[], None] | None = None,
) -> None:
    """Follow root -> customers -> root ... ``runs`` times each, reading the Trip tab;
    ``setup`` runs once restwalk is up, ``after`` once the follows are done (restwalk
    still running)."""
    urls = {"root": base + "/", "customers": base + "/customers"}
    # Run where its sources are: ``python -m`` puts the working directory first.
    cwd = Path(env.get("PYTHONPATH", ROOT))
    tmux = Tmux(f"bench-exchange-{os.getpid()}-{time.monotonic_ns()}", command, env, cwd)
    try:
        tmux.wait_for(shows(urls["root"]), timeout=60)
        if setup is not None:
            setup()
        time.sleep(1.0)  # start-up's own work done (the GC's first pass, the history)
        page = "root"
        for _ in range(2 * runs):
            target = "customers" if page == "root" else "root"
            keys = link_keys(tmux.screen(), "rw:customers" if page == "root" else "up")
            if len(keys) > 1:
                tmux.keys(*keys[:-1])
            time.sleep(0.2)
            tmux.keys(keys[-1])  # the key that follows
            seen = tmux.wait_for(shows(urls[target]))
            time.sleep(0.4)  # the frames after the page, and nothing else, done
            tmux.keys("t")
            tmux.wait_for(lambda screen: "complete after" in screen)
            for name, ms in trip_figures(tmux.screen()).items():
                figures.add(target, f"trip {name}", ms)
            figures.add(target, "seen from tmux", seen * 1000)
            time.sleep(0.3)
            tmux.keys("b")  # the body shown again
            tmux.wait_for(lambda screen: "complete after" not in screen)
            time.sleep(0.3)
            tmux.keys("f")  # the focus on the links (Enter follows one)
            time.sleep(0.3)
            page = target
        if after is not None:
            after()
    finally:
        tmux.close()


async def client_runs(base: str, runs: int, figures: Figures) -> None:
    """Client.send and plain httpx, kept alive, on the two pages, alternating."""
    urls = {"root": base + "/", "customers": base + "/customers"}
    async with Client() as client, httpx.AsyncClient() as plain:
        for url in urls.values():  # connections open, first-use costs paid
            await client.send(RequestSpec(url=url))
            await plain.get(url)
        for _ in range(runs):
            for page, url in urls.items():
                start = time.perf_counter()
                await client.send(RequestSpec(url=url))
                figures.add(page, "Client.send", (time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                await (await plain.get(url)).aread()
                figures.add(page, "httpx", (time.perf_counter() - start) * 1000)


def curl_runs(base: str, runs: int, figures: Figures) -> None:
    """curl's own time for each page (a new connection each time), when curl is here."""
    if shutil.which("curl") is None:
        return
    urls = {"root": base + "/", "customers": base + "/customers"}
    for _ in range(runs):
        for page, url in urls.items():
            out = subprocess.run(
                ["curl", "-s", "-o", "/dev/null", "--compressed", "-w", "%{time_total}", url],
                capture_output=True,
                text=True,
                check=True,
            )
            figures.add(page, "curl", float(out.stdout) * 1000)


ROWS = (
    ("curl", "curl (time_total, new connection)"),
    ("httpx", "httpx.AsyncClient (kept alive)"),
    ("Client.send", "Client.send (restwalk's floor)"),
    ("trip exchange", "restwalk: the exchange ('complete after')"),
    ("trip you waited", "restwalk: key to page (Trip)"),
    *((f"trip {phase}", f"    {phase}") for phase in PHASES),
    ("seen from tmux", "restwalk: key to page (tmux, outside)"),
)


def print_table(title: str, figures: Figures) -> None:
    print(f"\n{title}: medians, ms")
    print(f"  {'':38}" + "".join(f"{page:>12}" for page in PAGES))
    for name, label in ROWS:
        cells = [figures.median(name, page) for page in PAGES]
        if all(cell is None for cell in cells):
            continue
        print(
            f"  {label:38}"
            + "".join(f"{cell:12.1f}" if cell is not None else f"{'-':>12}" for cell in cells)
        )
    for page in PAGES:
        floor = figures.median("Client.send", page)
        waited = figures.median("trip you waited", page) or figures.median("seen from tmux", page)
        if floor is None or waited is None:
            continue
        target = floor + FRAME_MS
        verdict = "met" if waited <= target else "NOT met"
        print(
            f"  {page}: key to page {waited:.1f} ms; target Client.send + one frame = "
            f"{target:.1f} ms: {verdict}"
        )


def compile_bytecode() -> None:
    subprocess.run(
        [str(BIN / "python"), "-m", "compileall", "-q", "explorer", "mock_server"],
        cwd=ROOT,
        check=True,
    )


def peers(base: str, runs: int, figures: Figures) -> None:
    """Client.send, httpx and curl on the same URLs."""
    asyncio.run(client_runs(base, runs, figures))
    curl_runs(base, runs, figures)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", choices=("separate", "bundled"))
    parser.add_argument(
        "--checkout",
        type=Path,
        help="run the restwalk of another checkout of the repository (its sources on "
        "PYTHONPATH, this one's environment): figures before and after a change",
    )
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("bench_exchange: tmux is needed", file=sys.stderr)
        return 2
    compile_bytecode()
    load = os.getloadavg()[0]
    print(
        f"{args.runs} follows of each page per server; load average {load:.2f} on "
        f"{os.cpu_count()} CPUs (a shared machine slows every figure)"
    )
    restwalk = [str(BIN / "restwalk")]
    with tempfile.TemporaryDirectory() as home:
        env = {"HOME": home, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
        env.update((k, v) for k, v in os.environ.items() if k.startswith("TEXTUAL_"))
        if args.checkout is not None:
            restwalk = [str(BIN / "python"), "-m", "explorer"]
            env["PYTHONPATH"] = str(args.checkout.resolve())
            print(f"restwalk from {args.checkout}")
        if args.only in (None, "separate"):
            figures = Figures()
            with separate_mock() as base:
                seed_customers(base)
                restwalk_runs([str(BIN / "restwalk"), base + "/"], env, base, args.runs, figures)
                peers(base, args.runs, figures)
            print_table("restwalk-mock in a process of its own", figures)
        if args.only in (None, "bundled"):
            figures = Figures()
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            # The bundled mock lives as long as restwalk: seeded once it is up, and the
            # other clients measured against it while restwalk idles.
            restwalk_runs(
                restwalk,
                {**env, "RESTWALK_MOCK_PORT": str(port)},
                base,
                args.runs,
                figures,
                setup=lambda: seed_customers(base),
                after=lambda: peers(base, args.runs, figures),
            )
            print_table("the bundled mock (restwalk with no URL, in its process)", figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
