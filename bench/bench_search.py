"""Benchmark search and filter on a 20 MB JSON body in the restwalk TUI (headless).

The app runs in-process (``App.run_test``, 120x40) on the same deterministic 20 MB
document as ``bench_tui.py``, served through an in-process transport. Once the body
is formatted (1.6 M lines) and its links read:

1. search-to-first-match: from the query being typed in the search line until the
   current match is set and scrolled to (a match near the top, one in the middle of
   the document, and one that is nowhere, which is a whole scan), and until the count
   is final;
2. filtering keeps the screen responsive: while a JSONPath filter (and a jq one, with
   the ``jq`` package) runs on the body (in a child process: core.filter_process), a
   10 ms timer on the UI's event loop measures how late it fires (the longest and the
   99th percentile stall: the time a key or a repaint would wait), and a key pressed
   meanwhile is timed until handled;
3. the same filter by the ``jq`` command (if on the PATH) on the same file, as the
   peer: what a person piping the body into jq waits.

Then a 50 MB body on one line (``{"a": "yyyy…"}``, QA pass 3), with wrap off and on:
the time from ``y`` being typed to the first match and to the final count (the search
keeps 100,000 matches: ``100,000+``), and from ``zzzz`` to "no match" (the whole line
scanned); the longest UI stall meanwhile; the app's RSS (``ps -o rss=``) before, after,
and a second after Escape closed a search still running (``y+z``, quadratic on that
line), the CPU the app used in that second, and how long its search child took to go.
The peers, on the same file in the same run: the ``jq`` command (``.a | test("y")``:
reading the document and finding a first match; jq 1.6's ``match(…; "g")`` did not
end in a minute on a 1 MB line, so it cannot count), and ``grep -o`` stopped after
100,001 matches, and ``grep -c zzzz``, each with its peak RSS.

    .venv/bin/python bench/bench_search.py [--runs 3] [--one-line-only]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx
from textual.pilot import Pilot

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_tui import big_json

from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.find_bar import FindBar
from explorer.ui.widgets.response_tabs import ResponseTabs

SEARCHES = [
    ("near the top", "customer12@"),
    ("mid-document", "customer33333@"),
    ("nowhere (whole scan)", "zzzz"),
]
JSONPATH = "$._embedded.customers[?match(@.name, 'Customer 1234.*')].address"
JQ = '._embedded.customers[] | select(.name | test("^Customer 1234")) | .address'


async def until(
    condition: Callable[[], object], timeout: float = 120, every: float = 0.001
) -> float:
    """Seconds until ``condition()`` holds, polling ``every`` second (a millisecond)."""
    start = time.perf_counter()
    while not condition():
        if time.perf_counter() - start > timeout:
            raise TimeoutError("never happened")
        await asyncio.sleep(every)
    return time.perf_counter() - start


class LoopProbe:
    """A timer on the event loop every ``period`` s; records how late each one fires."""

    def __init__(self, period: float = 0.01) -> None:
        self.period = period
        self.delays: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            due = time.perf_counter() + self.period
            await asyncio.sleep(self.period)
            self.delays.append(max(0.0, time.perf_counter() - due))

    def __enter__(self) -> LoopProbe:
        self._task = asyncio.ensure_future(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()

    def figures(self) -> tuple[float, float]:
        """(longest stall, 99th percentile stall), in ms."""
        ordered = sorted(self.delays) or [0.0]
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        return 1000 * ordered[-1], 1000 * p99


def json_app(url: str, body: bytes) -> RestwalkApp:
    """The TUI on ``url``, which answers ``body`` as JSON."""

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"Content-Type": "application/json"})

    return create_app(url, client=Client(transport=httpx.MockTransport(handler)))


async def shown(app: RestwalkApp, pilot: Pilot[int]) -> BodyView:
    """The body view, once the page is shown and formatted and every worker done."""
    await until(lambda: app.screen is app.browser)
    await pilot.pause()
    view = app.browser.query_one(ResponseTabs).body_view
    await until(lambda: app.browser.session.shown is not None and not view.formatting)
    await app.workers.wait_for_complete()
    await pilot.pause()
    return view


async def one_run(body: bytes) -> dict[str, float]:
    app = json_app("http://big/big.json", body)
    figures: dict[str, float] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        view = await shown(app, pilot)
        await pilot.press("slash")
        search_bar = app.browser.query_one("#search-bar", FindBar)
        for label, query in SEARCHES:
            search_bar.input.value = ""
            await pilot.pause()
            view.scroll_to(0, 0, animate=False, immediate=True, force=True)
            start = time.perf_counter()
            search_bar.input.value = query
            found = query != "zzzz"
            with LoopProbe() as probe:
                if found:
                    await until(lambda: view.current_match is not None)
                    figures[f"search {label}: first match ms"] = 1000 * (
                        time.perf_counter() - start
                    )
                await until(
                    lambda: (
                        view.search_status == "no match"
                        or (
                            " of " in view.search_status
                            and not view.search_status.endswith("so far")
                        )
                    )
                )
            figures[f"search {label}: count final ms"] = 1000 * (time.perf_counter() - start)
            figures[f"search {label}: longest UI stall ms"] = probe.figures()[0]
        await pilot.press("escape")
        await pilot.press("vertical_line")
        filter_bar = app.browser.query_one("#filter-bar", FindBar)
        for language, expression in (("jsonpath", JSONPATH), ("jq", JQ)):
            if filter_bar.language != language:
                await pilot.press("alt+l")
            filter_bar.input.value = ""
            await pilot.pause(0.4)
            await app.workers.wait_for_complete()
            start = time.perf_counter()
            filter_bar.input.value = expression
            with LoopProbe() as probe:
                # A key while it runs: the cursor moves in the filter line.
                await asyncio.sleep(0.6)
                key_start = time.perf_counter()
                await pilot.press("home")
                key_ms = 1000 * (time.perf_counter() - key_start)
                await until(lambda: view.filtered and view.notes[0].startswith(("JSONPath", "jq")))
            figures[f"filter {language}: result s"] = time.perf_counter() - start
            longest, p99 = probe.figures()
            figures[f"filter {language}: key handled ms"] = key_ms
            figures[f"filter {language}: longest UI stall ms"] = longest
            figures[f"filter {language}: p99 UI stall ms"] = p99
            await pilot.press("escape")
            await pilot.press("vertical_line")
    return figures


def jq_cli(body: bytes) -> float | None:
    """Seconds the jq command takes for the same filter on the same file (None: no jq)."""
    jq = shutil.which("jq")
    if jq is None:
        return None
    with tempfile.NamedTemporaryFile(suffix=".json") as file:
        file.write(body)
        file.flush()
        start = time.perf_counter()
        subprocess.run([jq, JQ, file.name], check=True, capture_output=True)
        return time.perf_counter() - start


def rss_mb(pid: int) -> float:
    """The resident set of process ``pid`` as ``ps -o rss=`` says, in MB."""
    out = subprocess.run(["ps", "-o", "rss=", "-p", str(pid)], capture_output=True, text=True)
    return int(out.stdout.strip() or 0) / 1024


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    return [int(word) for word in out.stdout.split()]


def cpu_seconds() -> float:
    """User and system CPU this process has used so far (every thread)."""
    times = os.times()
    return times.user + times.system


async def one_line_run(body: bytes) -> dict[str, float]:
    """The 50 MB one-line body: search figures with wrap off and on, then Escape."""
    app = json_app("http://big/line.json", body)
    me = os.getpid()
    figures: dict[str, float] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        view = await shown(app, pilot)
        figures["RSS shown, before a search MB"] = rss_mb(me)
        await pilot.press("slash")
        bar = app.browser.query_one("#search-bar", FindBar)
        for wrap in (False, True):
            if view.wrap != wrap:
                await pilot.press("escape", "W")
                await app.workers.wait_for_complete()
                await pilot.pause()
                await pilot.press("slash")
            label = "wrap on" if wrap else "wrap off"
            bar.input.value = ""
            await pilot.pause()
            start = time.perf_counter()
            with LoopProbe() as probe:
                bar.input.value = "y"
                await until(lambda: view.current_match is not None)
                figures[f"{label}: 'y' first match ms"] = 1000 * (time.perf_counter() - start)
                await until(lambda: view.search_status.endswith("100,000+"))
                figures[f"{label}: 'y' 100,000+ counted ms"] = 1000 * (time.perf_counter() - start)
                start = time.perf_counter()
                bar.input.value = "zzzz"
                await until(lambda: view.search_status == "no match")
                figures[f"{label}: 'zzzz' whole line, no match ms"] = 1000 * (
                    time.perf_counter() - start
                )
            longest, p99 = probe.figures()
            figures[f"{label}: longest UI stall ms"] = longest
            figures[f"{label}: p99 UI stall ms"] = p99
            figures[f"{label}: RSS after MB"] = rss_mb(me)
        # A search that would run for hours (y+z backtracks over the line from each y):
        # a key while it runs, then Escape; the child must go, and the app stay still.
        key_start = time.perf_counter()
        await pilot.press("home")
        figures["no search: key handled ms (the Pilot's own)"] = 1000 * (
            time.perf_counter() - key_start
        )
        await pilot.press("alt+r")
        bar.input.value = "y+z"
        await until(lambda: bool(children(me)), every=0.005)
        await asyncio.sleep(1)
        key_start = time.perf_counter()
        await pilot.press("home")
        figures["y+z running: key handled ms"] = 1000 * (time.perf_counter() - key_start)
        (child,) = children(me)
        figures["y+z running: child RSS MB"] = rss_mb(child)
        escape_start = time.perf_counter()
        await pilot.press("escape")
        figures["Escape: key handled ms"] = 1000 * (time.perf_counter() - escape_start)
        # Gone once reaped: its /proc entry stays while it is a zombie.
        await until(lambda: not os.path.exists(f"/proc/{child}"), timeout=30)
        figures["Escape: child gone ms (from the key)"] = 1000 * (
            time.perf_counter() - escape_start
        )
        rss, cpu = rss_mb(me), cpu_seconds()
        await asyncio.sleep(1)
        figures["Escape: RSS then MB"] = rss
        figures["Escape: RSS 1 s later MB"] = rss_mb(me)
        figures["Escape: app CPU in that second s"] = cpu_seconds() - cpu
    return figures


def peer(command: list[str], stop_after_lines: int | None = None) -> tuple[float, float | None]:
    """(seconds, peak RSS MB, by ``/usr/bin/time -f %M`` when there is one) of ``command``;
    its output closed once it printed ``stop_after_lines`` lines (it ends on SIGPIPE)."""
    timer = shutil.which("time") or ""
    timed = [timer, "-f", "%M", *command] if timer.startswith("/usr/bin") else command
    start = time.perf_counter()
    child = subprocess.Popen(timed, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None
    assert child.stderr is not None
    if stop_after_lines is None:
        child.stdout.read()
    else:
        for _ in range(stop_after_lines):
            if not child.stdout.readline():
                break
    child.stdout.close()
    err = child.stderr.read().decode()
    child.wait()
    child.stderr.close()
    seconds = time.perf_counter() - start
    kilobytes = [line for line in err.split() if line.isdigit()]
    return seconds, int(kilobytes[-1]) / 1024 if timed is not command and kilobytes else None


def one_line(runs: int) -> None:
    """Print the 50 MB one-line figures and the peers'."""
    body = b'{"a": "' + b"y" * 50_000_000 + b'"}'
    print(f"\n50 MB on one line: {len(body) / 1e6:.1f} MB; {runs} runs; median shown")
    results = []
    for run in range(runs):
        figures = asyncio.run(one_line_run(body))
        print(f"  run {run + 1}: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items()))
        results.append(figures)
    for key in results[0]:
        print(f"{key:48}{statistics.median(r[key] for r in results):>10.1f}")
    with tempfile.NamedTemporaryFile(suffix=".json") as file:
        file.write(body)
        file.flush()
        peers = {}
        jq = shutil.which("jq")
        if jq is not None:
            peers["jq '.a | test(\"y\")' (a first match)"] = [jq, '.a | test("y")', file.name]
        peers["grep -o y, stopped at 100,001 matches"] = ["grep", "-o", "y", file.name]
        peers["grep -c zzzz (whole line, no match)"] = ["grep", "-c", "zzzz", file.name]
        for name, command in peers.items():
            stop = 100_001 if command[1] == "-o" else None
            measured = [peer(command, stop) for _ in range(runs)]
            seconds = statistics.median(m[0] for m in measured)
            peaks = [m[1] for m in measured if m[1] is not None]
            peak = f", peak RSS {statistics.median(peaks):.0f} MB" if peaks else ""
            print(f"peer: {name}: {1000 * seconds:.0f} ms{peak}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--one-line-only", action="store_true", help="only the 50 MB one-line body")
    args = parser.parse_args()
    if args.one_line_only:
        one_line(args.runs)
        return 0
    body = big_json()
    print(f"20 MB document: {len(body) / 1e6:.1f} MB; {args.runs} runs; median shown")
    runs = []
    for run in range(args.runs):
        figures = asyncio.run(one_run(body))
        print(f"  run {run + 1}: " + ", ".join(f"{k} {v:.3f}" for k, v in figures.items()))
        runs.append(figures)
    print()
    for key in runs[0]:
        print(f"{key:48}{statistics.median(r[key] for r in runs):>10.3f}")
    peer = [jq_cli(body) for _ in range(args.runs)]
    if peer[0] is not None:
        seconds = statistics.median(p for p in peer if p is not None)
        print(f"{'peer: jq command, same filter, same file: s':48}{seconds:>10.3f}")
    first = statistics.median(r["search near the top: first match ms"] for r in runs)
    print(f"search-to-first-match near the view: {first:.0f} ms (target < 300 ms)")
    one_line(args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
