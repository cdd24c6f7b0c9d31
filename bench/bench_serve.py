"""What does a browser tab of ``restwalk serve`` cost?

Starts ``restwalk serve --port 0`` and opens sessions as the page's script does (the
websocket, no browser): the time from connecting to restwalk's first screen for one
tab at a time, the same for N tabs opened at once (a class arriving), and the memory
(RSS) of one tab's process, its bundled mock server included. Wall-clock times: on a
busy machine they grow with the load (``uptime`` says how busy it is).

Run: ``.venv/bin/python bench/bench_serve.py [--tabs 5] [--rounds 3]``
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.explorer.serving import Serving, serving, terminal

FIRST_SCREEN = "Links ("


def _rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(found.group(1)) / 1024 if found else float("nan")


async def _one(served: Serving) -> tuple[float, float]:
    """One tab: seconds to its first screen, and its process's RSS in MB then."""
    started = time.monotonic()
    async with terminal(served) as tab:
        await tab.shows(FIRST_SCREEN)
        took = time.monotonic() - started
        pid = await asyncio.to_thread(served.session_started)
        return took, _rss_mb(pid)


async def _many(served: Serving, count: int) -> float:
    """``count`` tabs opened at once: seconds until every one shows its first screen."""
    started = time.monotonic()
    async with asyncio.TaskGroup() as group:
        for _ in range(count):
            group.create_task(_shown(served))
    return time.monotonic() - started


async def _shown(served: Serving) -> None:
    async with terminal(served) as tab:
        await tab.shows(FIRST_SCREEN)


async def main(tabs: int, rounds: int) -> None:
    with serving() as served:
        singles = [await _one(served) for _ in range(rounds)]
        together = await _many(served, tabs)
    times = [took for took, _ in singles]
    memory = [rss for _, rss in singles]
    print(f"one tab, first screen: median {statistics.median(times):.2f} s (of {rounds})")
    print(f"one tab's process: {statistics.median(memory):.0f} MB RSS (mock included)")
    print(f"{tabs} tabs at once, every first screen: {together:.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tabs", type=int, default=5, help="tabs opened at once")
    parser.add_argument("--rounds", type=int, default=3, help="single tabs timed")
    options = parser.parse_args()
    asyncio.run(main(options.tabs, options.rounds))
