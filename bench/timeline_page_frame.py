"""How much of a followed page's "show" is work and how much is waiting.

restwalk is driven as ``profile_page_frame.py`` drives it (Pilot, headless, 120x40,
``restwalk-mock`` in a process of its own, root <-> customers), and each follow is
stamped on the wall clock (``time.perf_counter``, the client's clock) at:

- the key (the Trip tab's ``asked_at``), ``TabScreen.send``, and every frame drawn
  between the key and the answer (none: nothing is drawn while a link is out);
- the answer taken in (``TabScreen.arrived``) and ``show_page``'s end;
- the screen's update timer resumed (the screen went idle with a refresh pending);
- the timer's tick (``Screen._on_timer_update``), the frame handed to the terminal
  (``App._display``), and restwalk's PaintWatch noting the page painted.

From the answer to the paint, the UI thread's CPU (``time.thread_time``) is the work;
the rest of the wall time is waiting, and "grid wait" is the part of it between the
timer resumed and its tick (Textual draws on a 1/60 s grid). Medians in ms, per page.
Headless, the frame is made into terminal text as a truecolor terminal's run makes it.

    .venv/bin/python bench/timeline_page_frame.py [--runs 20]
        [--tmux [--bundled] [--poll S] [--no-history]]

``--tmux``: restwalk runs in tmux as ``bench_exchange.py`` runs it (a real terminal,
keys from tmux), this module wrapped round it (``--inside FILE``: each follow's
stamps appended to FILE once it is painted). ``--bundled``: against the bundled mock;
``--poll S``: tmux's screen read every S seconds, not every 2 ms as
``bench_exchange.py`` reads it (each read is work for the tmux server, on a core the
app may want);
``--no-history``: restwalk keeps no history (its thread writes each exchange while the
page is drawn, and the UI thread waits for the GIL meanwhile).

Another checkout's restwalk (in tmux too): ``PYTHONPATH=CHECKOUT`` in front.

Also: the key's way to the loop (key -> ``TabScreen.send``) and the exchange as the
UI thread sees it (send -> answer taken in, with its CPU).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_exchange import seed_customers, separate_mock
from profile_page_frame import PAGES, follows
from textual.app import App
from textual.screen import Screen
from textual.timer import Timer

from explorer.ui.app import create_app
from explorer.ui.screens.tab_screen import TabScreen
from explorer.ui.waits import PaintWatch


class Stamps:
    """Wall and CPU times of the steps of one follow (the first of each after the answer)."""

    def __init__(self) -> None:
        self.on = False
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}
        self.displays: list[float] = []  # frames handed to the terminal (wall)
        self.follows = 0  # follows painted (in tmux)

    def mark(self, name: str, *, first: bool = True) -> None:
        if not self.on or (first and name in self.wall):
            return
        self.wall[name] = time.perf_counter()
        self.cpu[name] = time.thread_time()


STAMPS = Stamps()


def wrap(owner: Any, name: str, before: str | None, after: str | None = None) -> None:
    original = getattr(owner, name)

    def stamped(*args: Any, **kwargs: Any) -> Any:
        if before is not None:
            STAMPS.mark(before)
        try:
            return original(*args, **kwargs)
        finally:
            if after is not None:
                STAMPS.mark(after)

    setattr(owner, name, stamped)


def instrument(log: Path | None = None) -> None:
    """Stamp the steps; with ``log``, stamp every follow (a key's page) and append its
    spans to ``log`` once painted (the app running for real, in tmux)."""
    wrap(TabScreen, "send", "send")
    wrap(TabScreen, "arrived", "arrived")
    wrap(TabScreen, "show_page", None, "show_page end")
    wrap(PaintWatch, "_frame", "painted")
    resume = Timer.resume

    def timer_resume(self: Timer) -> None:
        if self.name == "screen_update" and "arrived" in STAMPS.wall:
            STAMPS.mark("timer resumed")
        resume(self)

    Timer.resume = timer_resume  # type: ignore[method-assign]
    tick = Screen._on_timer_update

    def on_timer_update(self: Screen[Any]) -> None:
        if "arrived" in STAMPS.wall:
            STAMPS.mark("tick")
        tick(self)

    Screen._on_timer_update = on_timer_update  # type: ignore[method-assign]
    display = App._display

    def on_display(self: App[Any], screen: Screen[Any], renderable: Any) -> None:
        display(self, screen, renderable)
        if log is None and renderable is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(self.console)  # what a terminal run writes
        if "arrived" in STAMPS.wall:
            STAMPS.mark("displayed")
        else:
            STAMPS.displays.append(time.perf_counter())

    App._display = on_display  # type: ignore[method-assign]

    if log is not None:
        send = TabScreen.send

        def on_send(self: TabScreen, *args: Any, **kwargs: Any) -> None:
            STAMPS.wall.clear()
            STAMPS.cpu.clear()
            STAMPS.on = True
            STAMPS.mark("send")
            send(self, *args, **kwargs)

        TabScreen.send = on_send  # type: ignore[method-assign]
        frame = PaintWatch._frame

        def on_frame(self: PaintWatch, screen: Screen[Any]) -> None:
            page = self._pending
            frame(self, screen)
            if page is not None and page.wait is not None and "painted" in STAMPS.wall:
                url = page.url.rstrip("/")
                target = "customers" if url.endswith("/customers") else "root"
                try:
                    got = spans(STAMPS, page.wait.asked_at)
                except KeyError as missing:
                    got = {f"follows without a stamp {missing}": 1.0}
                with log.open("a") as out:
                    for name, value in got.items():
                        out.write(f"{STAMPS.follows}\t{target}\t{name}\t{value}\n")
                STAMPS.follows += 1
                STAMPS.on = False
                STAMPS.wall.clear()
                STAMPS.displays.clear()

        PaintWatch._frame = on_frame  # type: ignore[method-assign]


def spans(stamps: Stamps, asked_at: float) -> dict[str, float]:
    wall, cpu = stamps.wall, stamps.cpu

    def ms(a: float, b: float) -> float:
        return (b - a) * 1000

    got = {
        "key -> TabScreen.send (the key's way to the loop)": ms(asked_at, wall["send"]),
        "send -> answer taken in (the exchange), wall": ms(wall["send"], wall["arrived"]),
        "  of which CPU of the UI thread": ms(cpu["send"], cpu["arrived"]),
        "answer -> show_page end": ms(wall["arrived"], wall["show_page end"]),
        "show_page end -> timer resumed (messages, idle)": ms(
            wall["show_page end"], wall["timer resumed"]
        ),
        "timer resumed -> tick (the 60 Hz grid)": ms(wall["timer resumed"], wall["tick"]),
        "tick -> frame displayed": ms(wall["tick"], wall["displayed"]),
        "frame displayed -> PaintWatch": ms(wall["displayed"], wall["painted"]),
        "= show (answer -> painted), wall": ms(wall["arrived"], wall["painted"]),
        "  of which CPU of the UI thread (work)": ms(cpu["arrived"], cpu["painted"]),
        "  of which waiting (wall - CPU)": ms(wall["arrived"], wall["painted"])
        - ms(cpu["arrived"], cpu["painted"]),
    }
    before = [t for t in stamps.displays if asked_at < t < wall["arrived"]]
    got["  frames drawn between key and answer"] = float(len(before))
    if before:
        got["  last such frame -> answer (ms, those follows)"] = ms(before[-1], wall["arrived"])
    return got


async def drive(base: str, runs: int) -> dict[str, dict[str, list[float]]]:
    app = create_app(base + "/")
    results: dict[str, dict[str, list[float]]] = {page: defaultdict(list) for page in PAGES}
    async for step in follows(app, base, runs):
        STAMPS.wall.clear()
        STAMPS.cpu.clear()
        STAMPS.displays.clear()
        STAMPS.on = True
        await step.press()
        STAMPS.on = False
        screen = app.screen
        assert isinstance(screen, TabScreen)
        wait = screen.session.shown.wait if screen.session.shown else None
        if step.run >= 2 and wait is not None:
            try:
                for name, value in spans(STAMPS, wait.asked_at).items():
                    results[step.target][name].append(value)
            except KeyError as missing:
                results[step.target][f"follows without a stamp {missing}"].append(1.0)
    return results


def print_results(results: dict[str, dict[str, list[float]]]) -> None:
    names = list(dict.fromkeys(name for got in results.values() for name in got))
    head = "".join(f"{p + ' median':>17}{'max':>7}" for p in PAGES)
    print(f"  {'ms (wall clock unless said)':52}" + head)
    for name in names:
        cells = []
        for page in PAGES:
            got = results[page].get(name)
            cells.append(f"{statistics.median(got):17.2f}{max(got):7.1f}" if got else " " * 24)
        print(f"  {name:52}" + "".join(cells))


def in_tmux(runs: int, bundled: bool, poll: float | None, history: bool) -> int:
    """restwalk in tmux against a separate mock (or its bundled one), this module
    wrapped round it."""
    import tempfile

    import bench_exchange
    from bench_exchange import BIN, Figures, free_port, restwalk_runs

    if poll is not None:  # (each read of the screen is work for the tmux server)
        wait_for = bench_exchange.Tmux.wait_for

        def slower(self: Any, predicate: Callable[[str], bool], timeout: float = 30.0) -> float:
            def later(screen: str) -> bool:
                if predicate(screen):
                    return True
                time.sleep(poll)
                return False

            return wait_for(self, later, timeout)

        bench_exchange.Tmux.wait_for = slower  # type: ignore[method-assign]

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        log = Path(tmp) / "stamps.tsv"
        command = [str(BIN / "python"), __file__, "--inside", str(log)]
        env = {"HOME": tmp, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
        if "PYTHONPATH" in os.environ:  # another checkout's restwalk, as headless
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        if not history:  # no history thread writing each exchange beside the UI's
            config = Path(tmp) / ".config/restwalk/config.toml"
            config.parent.mkdir(parents=True)
            config.write_text("[history]\nenabled = false\n")
        if bundled:
            base = f"http://127.0.0.1:{free_port()}"
            env["RESTWALK_MOCK_PORT"] = base.rsplit(":", 1)[1]
            restwalk_runs(command, env, base, runs, Figures(), setup=lambda: seed_customers(base))
        else:
            base = stack.enter_context(separate_mock())
            seed_customers(base)
            restwalk_runs([*command, base + "/"], env, base, runs, Figures())
        results: dict[str, dict[str, list[float]]] = {page: defaultdict(list) for page in PAGES}
        for line in log.read_text().splitlines():
            follow, page, name, value = line.split("\t")
            if int(follow) >= 2:  # the first two warm up
                results[page][name].append(float(value))
    print_results(results)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--tmux", action="store_true")
    parser.add_argument("--bundled", action="store_true", help="with --tmux: the bundled mock")
    parser.add_argument("--poll", type=float, help="with --tmux: poll tmux every POLL s")
    parser.add_argument("--no-history", action="store_true", help="with --tmux: none kept")
    parser.add_argument("--inside", type=Path, help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args()
    if args.inside is not None:  # restwalk itself, in tmux
        instrument(args.inside)
        from explorer.cli import main as restwalk

        sys.argv = ["restwalk", *rest]
        return restwalk()
    if args.tmux:
        return in_tmux(args.runs, args.bundled, args.poll, not args.no_history)
    # The terminal bench_exchange.py's tmux gives (an 8-colour TERM costs the frame ~3 ms
    # more, its colours brought down).
    os.environ.update(TERM="xterm-256color", COLORTERM="truecolor")
    instrument()
    with separate_mock() as base:
        seed_customers(base)
        results = asyncio.run(drive(base, args.runs))
    print_results(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
