"""Two checkouts' key-to-page CPU, compared in turns: ``profile_page_frame.py`` run for
each checkout alternately (A, B, A, B, ...), each run a few follows of each page, so a
busy spell of a shared machine (its speed moves 1.5x within minutes here) falls on both.

Prints, per page, the medians over every round of the UI thread's CPU from the key to
the page painted and the steps that moved most, A beside B, and B's change.

    .venv/bin/python bench/ab_page_frame.py CHECKOUT_A CHECKOUT_B [--rounds 6] [--runs 5]

A checkout is a directory with restwalk's sources (``explorer/``, ``mock_server/``);
both run with this checkout's interpreter and packages (``PYTHONPATH`` in front).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOTAL = "= thread CPU, key to page painted"
WALL = "  wall clock, key to page painted (Trip)"


def one_run(checkout: Path, runs: int, out: Path) -> dict[str, dict[str, list[float]]]:
    """``profile_page_frame.py`` against ``checkout``, its figures by page and step."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", "explorer", "mock_server"],
        cwd=checkout,
        env=env,
        check=True,
    )
    subprocess.run(
        [
            sys.executable,
            str(HERE / "profile_page_frame.py"),
            "--runs",
            str(runs),
            "--json",
            str(out),
        ],
        cwd=checkout,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    got: dict[str, dict[str, list[float]]] = json.loads(out.read_text())
    return got


FRAME = "the frame: its frame: and draw: steps' medians, summed"


def _frame(steps: dict[str, list[float]]) -> float:
    """The page's frame: the sum of the medians of its drawing and its compositing."""
    return sum(
        statistics.median(values)
        for step, values in steps.items()
        if step.startswith(("frame:", "draw:")) and values
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--runs", type=int, default=5, help="follows of each page a run")
    args = parser.parse_args()
    figures = {side: defaultdict(lambda: defaultdict(list)) for side in ("A", "B")}
    with tempfile.TemporaryDirectory() as scratch:
        for round_ in range(args.rounds):
            order = (("A", args.a), ("B", args.b))
            for side, checkout in order if round_ % 2 == 0 else reversed(order):
                got = one_run(checkout.resolve(), args.runs, Path(scratch) / f"{side}.json")
                for page, steps in got.items():
                    for step, values in steps.items():
                        figures[side][page][step].extend(values)
            print(f"round {round_ + 1} of {args.rounds} done", file=sys.stderr)
    print(f"A = {args.a}\nB = {args.b}\nmedians over {args.rounds} rounds, ms")
    for page in figures["A"]:
        a, b = figures["A"][page], figures["B"][page]
        steps = sorted(
            set(a) | set(b),
            key=lambda step: (
                step not in (TOTAL, WALL),
                -abs(statistics.median(b.get(step) or [0]) - statistics.median(a.get(step) or [0])),
            ),
        )
        print(f"\n{page}: {'':52}{'A':>8}{'B':>8}{'B-A':>8}")
        for step in steps[:14]:
            ma = statistics.median(a[step]) if a.get(step) else 0.0
            mb = statistics.median(b[step]) if b.get(step) else 0.0
            print(f"  {step.strip():58}{ma:8.2f}{mb:8.2f}{mb - ma:+8.2f}")
        fa, fb = _frame(a), _frame(b)
        print(f"  {FRAME:58}{fa:8.2f}{fb:8.2f}{fb - fa:+8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
