"""Does a flood of wrong passwords starve a correct login? restwalk-mock under one.

For each ``--floods`` N, starts a fresh ``restwalk-mock`` (rate limit off, so
only hashing is measured; a fresh one so no outcome is remembered), sends N
logins with wrong passwords for ``bob`` at once (``POST /auth/token``, each a
different password), waits until they are on their way, then times one correct
login for ``alice``, its status, and how many wrong ones had been answered by
then. Then the same with the wrong passwords for ``alice`` herself: per-user
backoff slows that user's logins (guessing her password is what it is for), not
the others', and past 16 waiting logins for one user the next is a 429.

Each figure is the median of ``--runs``. ``--baseline DIR`` runs a checkout
(DIR's ``mock_server``) the same way, for a before and after.

Run: ``.venv/bin/python bench/bench_login_flood.py [--floods 0,5,20,50] [--runs 3]
[--baseline DIR]``
"""

from __future__ import annotations

import argparse
import asyncio
import select
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
SERVER = (sys.executable, "-m", "mock_server", "--port", "0", "--rate-limit", "off")
QUIET = ("--log-level", "warning")
START_TIMEOUT = 20.0
#: How long the flood is given to reach the server before the correct login goes.
HEAD_START = 0.2


@contextmanager
def mock_server(source: Path) -> Iterator[str]:
    """A ``restwalk-mock`` process from the checkout ``source``; its base URL."""
    process = subprocess.Popen([*SERVER, *QUIET], cwd=source, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT)
        if not ready:
            raise RuntimeError("restwalk-mock printed no URL line")
        yield process.stdout.readline().split()[3]
    finally:
        # Logins the bench gave up on may still wait for their account: no graceful wait.
        process.kill()
        process.wait(15)


async def one_run(url: str, flood: int, flooded_user: str) -> tuple[float, int, int]:
    """A correct login for alice under ``flood`` wrong ones: seconds, its status, wrong done."""
    limits = httpx.Limits(max_connections=flood + 5)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=300) as client:
        done = 0

        async def wrong(n: int) -> None:
            nonlocal done
            form = {"username": flooded_user, "password": f"wrong-{n}"}
            answer = await client.post("/auth/token", data=form)
            # 429: more logins than an account lets wait (its queue is bounded).
            assert answer.status_code in (401, 429), answer.status_code
            done += 1

        flooding = [asyncio.create_task(wrong(n)) for n in range(flood)]
        await asyncio.sleep(HEAD_START if flood else 0)
        started = time.perf_counter()
        form = {"username": "alice", "password": "wonderland"}
        answer = await client.post("/auth/token", data=form)
        took = time.perf_counter() - started
        answered = done
        for task in flooding:
            task.cancel()
        await asyncio.gather(*flooding, return_exceptions=True)
        return took, answer.status_code, answered


def measure(source: Path, flood: int, flooded_user: str, runs: int) -> tuple[float, int, float]:
    """Median seconds of the correct login, its last status, median wrong ones done before."""
    times, answered = [], []
    status = 0
    for _ in range(runs):
        with mock_server(source) as url:
            took, status, done = asyncio.run(one_run(url, flood, flooded_user))
        times.append(took)
        answered.append(done)
    return statistics.median(times), status, statistics.median(answered)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floods", default="0,5,20,50", help="wrong logins in flight")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="also run this checkout's mock_server")
    args = parser.parse_args()
    floods = [int(n) for n in args.floods.split(",")]
    sources = [("restwalk-mock", ROOT)]
    if args.baseline is not None:
        sources.append((f"baseline {args.baseline.resolve().name}", args.baseline.resolve()))
    print(
        f"{'server':28} {'flooded':8} {'wrong':>6} {'alice logs in':>14} {'status':>6} "
        f"{'wrong done':>11}"
    )
    for name, source in sources:
        for flooded_user in ("bob", "alice"):
            for flood in floods:
                if flood == 0 and flooded_user == "alice":
                    continue
                took, status, done = measure(source, flood, flooded_user, args.runs)
                print(
                    f"{name:28} {flooded_user:8} {flood:6} {took * 1000:11.0f} ms {status:6} "
                    f"{done:11.0f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
