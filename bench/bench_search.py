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

    .venv/bin/python bench/bench_search.py [--runs 3]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_tui import big_json

from explorer.core.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.widgets.find_bar import FindBar
from explorer.ui.widgets.response_tabs import ResponseTabs

SEARCHES = [
    ("near the top", "customer12@"),
    ("mid-document", "customer33333@"),
    ("nowhere (whole scan)", "zzzz"),
]
JSONPATH = "$._embedded.customers[?match(@.name, 'Customer 1234.*')].address"
JQ = '._embedded.customers[] | select(.name | test("^Customer 1234")) | .address'


async def until(condition: Callable[[], object], timeout: float = 120) -> float:
    """Seconds until ``condition()`` holds, polling every millisecond."""
    start = time.perf_counter()
    while not condition():
        if time.perf_counter() - start > timeout:
            raise TimeoutError("never happened")
        await asyncio.sleep(0.001)
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


async def one_run(body: bytes) -> dict[str, float]:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"Content-Type": "application/json"})

    app: RestwalkApp = create_app(
        "http://big/big.json", client=Client(transport=httpx.MockTransport(handler))
    )
    figures: dict[str, float] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await until(lambda: app.screen is app.browser)
        await pilot.pause()
        tabs = app.browser.query_one(ResponseTabs)
        view = tabs.body_view
        await until(lambda: app.browser.session.shown is not None and not view.formatting)
        await app.workers.wait_for_complete()
        await pilot.pause()
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
