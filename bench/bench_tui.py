"""Benchmark the restwalk TUI against Posting on the same work, driven in tmux.

For each app, median of N runs (default 5; the apps take turns, so a busy spell
slows both), everything served from 127.0.0.1:

1. first full screen: from launch until the app's first complete screen is drawn
   (restwalk: its bundled mock server's root response shown; Posting: its empty
   request screen with the footer); and the CPU time the UI's process had used by
   then (restwalk's bundled mock runs in a child process of its own, not counted);
2. a 20 MB JSON response: from pressing Enter on its URL until the top of the
   body is on screen;
3. a scroll key on that body: from the key until the screen changes;
4. resident memory (RSS of the app's process tree) with the body open.

And restwalk's first full screen under a cold cache, as on its first run after
install: its modules (``explorer``, ``mock_server``) copied without their
``__pycache__`` and run with ``PYTHONDONTWRITEBYTECODE``, so every run compiles
them from source (the libraries it uses keep the bytecode pip compiled).

Posting comes from PyPI into a virtual environment of its own (``--posting``,
default ``bench/.posting-venv``; created on first use with ``posting`` and
``tree-sitter==0.25.2``, which it needs to start on this machine).

    .venv/bin/python bench/bench_tui.py [--runs 5] [--big-runs-posting 5]
        [--first-screen-only] [--skip-posting]

restwalk's modules are compiled to bytecode first, as pip compiles an installed
package's (``make run`` does the same for this editable checkout).
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import orjson
from tmux_control import ControlClient

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 120, 40
BIG_MARKER = '"_embedded"'
#: restwalk's first screen at most this fraction of Posting's, in the same run.
TARGET_RATIO = 0.45


def big_json(target_bytes: int = 20_000_000) -> bytes:
    """A deterministic JSON document of about ``target_bytes``: a HAL-like page of items."""
    items = []
    size = 0
    n = 0
    while size < target_bytes:
        item = {
            "id": n,
            "name": f"Customer {n}",
            "email": f"customer{n}@example.com",
            "address": {
                "streetAddress": f"{n} Main Street",
                "city": "Springfield",
                "zipCode": "62701",
            },
            "tags": ["alpha", "beta", "gamma"],
            "balance": n * 1.25,
            "_links": {
                "self": {"href": f"/customers/{n}"},
                "orders": {"href": f"/orders?customerId={n}"},
            },
        }
        items.append(item)
        size += len(orjson.dumps(item)) + 1
        n += 1
    return orjson.dumps({"count": n, "_embedded": {"customers": items}})


@contextlib.contextmanager
def serve_big(body: bytes) -> Iterator[str]:
    """Serve ``body`` as ``/big.json`` on a free 127.0.0.1 port; yields its URL."""

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/big.json"
    finally:
        server.shutdown()


class Tmux:
    """One tmux session running one command, at a fixed size."""

    def __init__(self, name: str, command: list[str], cwd: Path, env: dict[str, str]) -> None:
        self.name = name
        self._control: ControlClient | None = None
        env_args = [f"{k}={v}" for k, v in env.items()]
        subprocess.run(
            [
                "tmux",
                "new-session",
                "-d",
                "-s",
                name,
                "-x",
                str(WIDTH),
                "-y",
                str(HEIGHT),
                "-c",
                str(cwd),
                "env",
                *env_args,
                *command,
            ],
            check=True,
        )

    def screen(self) -> str:
        """The pane's text, read through one control-mode client kept for the session."""
        if self._control is None:
            self._control = ControlClient(self.name)
        return self._control.ask(f"capture-pane -p -t {self.name}")

    def keys(self, *keys: str, literal: bool = False) -> None:
        args = ["tmux", "send-keys", "-t", self.name, *(["-l"] if literal else []), *keys]
        subprocess.run(args, check=True)

    def wait_for(self, predicate: Callable[[str], bool], timeout: float) -> float:
        """Seconds until ``predicate(screen)`` holds; raises TimeoutError after ``timeout``."""
        start = time.perf_counter()
        while True:
            if predicate(self.screen()):
                return time.perf_counter() - start
            if time.perf_counter() - start > timeout:
                raise TimeoutError(f"{self.name}: screen never matched:\n{self.screen()}")
            time.sleep(0.005)

    def pane_pid(self) -> int:
        """The process the pane runs (the app's: ``env`` execs it)."""
        out = subprocess.run(
            ["tmux", "display-message", "-p", "-t", self.name, "#{pane_pid}"],
            capture_output=True,
            text=True,
            check=True,
        )
        return int(out.stdout.strip())

    def cpu_s(self) -> float:
        """CPU seconds (user + system) the pane's process has used so far."""
        fields = Path(f"/proc/{self.pane_pid()}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        """Resident memory of the pane's process tree, in MB."""
        pids = [self.pane_pid()]
        total = 0
        while pids:
            pid = pids.pop()
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
                children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
                pids.extend(int(c) for c in children)
        return total / 1024

    def close(self) -> None:
        if self._control is not None:
            self._control.close()
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@dataclass
class App:
    """How to start one app and drive it through the benchmark's steps."""

    name: str
    command: list[str]
    first_screen: Callable[[str], bool]
    open_url: Callable[[Tmux, str], None]
    focus_body: Callable[[Tmux], None]
    scroll_key: str
    #: Environment variables the app runs with, besides HOME and TERM.
    env: dict[str, str] = field(default_factory=dict)


def settled_rss(tmux: Tmux, timeout: float = 20.0) -> float:
    """RSS once background work has settled: two readings 1 s apart within 2 MB."""
    time.sleep(1.0)
    previous = tmux.rss_mb()
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        time.sleep(1.0)
        current = tmux.rss_mb()
        if abs(current - previous) < 2:
            return current
        previous = current
    return previous


def restwalk_app() -> App:
    def first_screen(screen: str) -> bool:
        return "restwalk-mock" in screen and "200" in screen

    def open_url(tmux: Tmux, url: str) -> None:
        tmux.keys("C-l")
        time.sleep(0.2)
        tmux.keys("C-u")
        tmux.keys(url, literal=True)
        time.sleep(0.2)
        tmux.keys("Enter")

    def focus_body(tmux: Tmux) -> None:
        tmux.keys("b")

    return App(
        "restwalk",
        [str(ROOT / ".venv/bin/restwalk")],
        first_screen,
        open_url,
        focus_body,
        "PageDown",
    )


def posting_app(venv: Path) -> App:
    def first_screen(screen: str) -> bool:
        return "^j Send" in screen and "Collection is empty" in screen

    def open_url(tmux: Tmux, url: str) -> None:
        tmux.keys(url, literal=True)
        time.sleep(0.2)
        tmux.keys("C-j")

    def focus_body(tmux: Tmux) -> None:
        # Posting's response body takes focus from the URL bar with ctrl+o (jump) then the
        # body; tab order is simpler: the body is reachable by shift+tab from the URL.
        tmux.keys("Escape")

    return App(
        "posting", [str(venv / "bin/posting")], first_screen, open_url, focus_body, "PageDown"
    )


@contextlib.contextmanager
def tmux_server() -> Iterator[None]:
    """Keep one idle session for the whole run: tmux's server exits with its last
    session, and a session started in that instant fails ("server exited unexpectedly")."""
    name = f"bench-keepalive-{os.getpid()}"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "sleep", "86400"], check=True)
    try:
        yield
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


def ensure_posting(venv: Path) -> None:
    if (venv / "bin/posting").exists():
        return
    print(f"installing Posting into {venv} ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run(
        [str(venv / "bin/pip"), "install", "-q", "posting", "tree-sitter==0.25.2"], check=True
    )


def compile_bytecode() -> None:
    """Compile restwalk's modules, as pip does for an installed package (Posting's were at
    its install): this checkout is installed editable, and with PYTHONDONTWRITEBYTECODE
    set nothing would ever cache them. ``make run`` does the same."""
    python = ROOT / ".venv/bin/python"
    subprocess.run(
        [str(python), "-m", "compileall", "-q", "explorer", "mock_server"], cwd=ROOT, check=True
    )
    print("restwalk's bytecode compiled (compileall), as an installed package's is")


def cold_copy(directory: Path) -> Path:
    """restwalk's modules copied into ``directory`` without their bytecode, as a fresh
    install's before its first run; returns the path to put first on PYTHONPATH."""
    for package in ("explorer", "mock_server"):
        shutil.copytree(
            ROOT / package, directory / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    return directory


def cold_app(app: App, modules: Path) -> App:
    """``app`` (restwalk) run from ``modules`` with no bytecode cached nor written."""
    env = {"PYTHONPATH": str(modules), "PYTHONDONTWRITEBYTECODE": "1"}
    return replace(app, name=f"{app.name} cold", env=env)


def run_once(app: App, big_url: str | None, run: int, workdir: Path) -> dict[str, float]:
    env = {"HOME": str(workdir), "TERM": "xterm-256color", "COLORTERM": "truecolor", **app.env}
    name = app.name.replace(" ", "-")
    tmux = Tmux(f"bench-{name}-{os.getpid()}-{run}", app.command, workdir, env)
    figures: dict[str, float] = {}
    try:
        figures["first screen s"] = tmux.wait_for(app.first_screen, timeout=60)
        figures["UI CPU to it s"] = tmux.cpu_s()
        if big_url is not None:
            time.sleep(0.5)
            app.open_url(tmux, big_url)
            figures["20 MB visible s"] = tmux.wait_for(lambda s: BIG_MARKER in s, timeout=300)
            # Once background work (formatting, link finding) has settled, as a
            # person reading the body would be: memory with it open, then a scroll.
            figures["RSS with it open MB"] = settled_rss(tmux)
            app.focus_body(tmux)
            time.sleep(0.5)
            before = tmux.screen()
            tmux.keys(app.scroll_key)
            figures["scroll key ms"] = 1000 * tmux.wait_for(lambda s: s != before, timeout=30)
    finally:
        tmux.close()
    return figures


def median_table(results: dict[str, list[dict[str, float]]]) -> None:
    keys = [
        "first screen s",
        "UI CPU to it s",
        "20 MB visible s",
        "scroll key ms",
        "RSS with it open MB",
    ]
    print(f"{'':26}" + "".join(f"{name:>14}" for name in results))
    for key in keys:
        row = f"{key:26}"
        for runs in results.values():
            values = [r[key] for r in runs if key in r]
            row += f"{statistics.median(values):>14.3f}" if values else f"{'-':>14}"
        print(row)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--big-runs-posting",
        type=int,
        default=5,
        help="runs of the 20 MB step for Posting (each can take minutes)",
    )
    parser.add_argument("--posting", type=Path, default=ROOT / "bench/.posting-venv")
    parser.add_argument("--skip-posting", action="store_true")
    parser.add_argument(
        "--first-screen-only", action="store_true", help="measure only the first full screen"
    )
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        print("bench_tui: tmux is needed", file=sys.stderr)
        return 2
    apps = [restwalk_app()]
    if not args.skip_posting:
        ensure_posting(args.posting)
        apps.append(posting_app(args.posting))
    compile_bytecode()
    body = big_json()
    print(f"20 MB document: {len(body) / 1e6:.1f} MB; {args.runs} runs each; median shown")
    with serve_big(body) as url, tempfile.TemporaryDirectory() as tmp, tmux_server():
        apps.append(cold_app(apps[0], cold_copy(Path(tmp) / "cold")))
        results: dict[str, list[dict[str, float]]] = {app.name: [] for app in apps}
        # Runs alternate between the apps, so a machine busier for a while slows both.
        for run in range(args.runs):
            for app in apps:
                # (the cold-cache run is measured to its first screen only)
                big = not args.first_screen_only and (
                    app.name == "restwalk"
                    or (app.name == "posting" and run < args.big_runs_posting)
                )
                figures = run_once(app, url if big else None, run, Path(tmp))
                print(
                    f"  {app.name} run {run + 1}: "
                    + ", ".join(f"{k} {v:.3f}" for k, v in figures.items()),
                    flush=True,
                )
                results[app.name].append(figures)
    median_table(results)
    if "posting" in results:
        ours = statistics.median(r["first screen s"] for r in results["restwalk"])
        theirs = statistics.median(r["first screen s"] for r in results["posting"])
        print(f"first screen: restwalk/posting = {ours / theirs:.2f} (target <= {TARGET_RATIO})")
        ours = statistics.median(r["UI CPU to it s"] for r in results["restwalk"])
        theirs = statistics.median(r["UI CPU to it s"] for r in results["posting"])
        print(f"UI CPU to the first screen: restwalk/posting = {ours / theirs:.2f}")
    cold = statistics.median(r["first screen s"] for r in results["restwalk cold"])
    print(f"first screen under a cold cache (restwalk's first run after install): {cold:.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
