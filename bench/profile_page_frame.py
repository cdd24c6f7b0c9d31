"""Where the CPU of a followed link's page goes, from the key to the page drawn.

restwalk is driven with Textual's Pilot (headless, 120x40) against ``restwalk-mock``
in a process of its own, seeded to 20 customers as ``bench_exchange.py`` does; it
follows the root's ``rw:customers`` and the customers page's ``up`` in turn. During
each follow, from the key until the page's frame is painted (restwalk's own
PaintWatch says when: the end of the Trip tab's wait), Textual's and restwalk's
steps are timed on the UI thread's CPU clock (``time.thread_time``: another process
on a shared machine does not count, though it still slows this one's caches), each
step's own time apart from the wrapped steps it calls:

- the page taken in (``TabScreen.arrived``) and given to the widgets (``show_page``);
- the frame: layout (``Compositor.reflow``), widgets told their new sizes, each
  widget class's drawing (``render_lines``; a scrollbar by its owner), the
  compositor cutting the screen into the update, and the update made into terminal
  text (which a headless run skips: done here as a terminal run does it, its text
  dropped);
- style updates (a focus or class change restyles the widgets under it).

The rest of the thread's time is "other": the exchange, the key's and the
widgets' messages, Textual's bookkeeping. Medians over the follows, in ms, per page.

    .venv/bin/python bench/profile_page_frame.py [--runs 20] [--cprofile FILE] [--height 40]

``--height 100``: both pages' links fit, so no scrollbar comes or goes between them (at
40 rows the links table's does, and that lays the screen out).

``--json FILE`` writes every follow's figures (by page, by step: lists of ms), for
``ab_page_frame.py``, which runs two checkouts in turn.

``--cprofile`` writes a cProfile of the follows up to each paint too (read it with
``pstats``). Another checkout's restwalk: ``PYTHONPATH=CHECKOUT`` in front.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_exchange import seed_customers, separate_mock
from textual._compositor import Compositor
from textual.app import App
from textual.css.stylesheet import Stylesheet
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget

from explorer.ui.app import create_app
from explorer.ui.screens.tab_screen import TabScreen
from explorer.ui.widgets.links_panel import LinksPanel

WIDTH, HEIGHT = 120, 40
PAGES = ("root", "customers")


class Meter:
    """Own CPU time of the wrapped steps (a step's time less its wrapped callees')."""

    def __init__(self) -> None:
        self.on = False
        self.own: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[list[float]] = []  # [start, time of wrapped callees]

    def wrap(self, owner: Any, name: str, label: Callable[[Any], str] | str) -> None:
        original = getattr(owner, name)
        meter = self

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            if not meter.on:
                return original(*args, **kwargs)
            key = label if isinstance(label, str) else label(args[0])
            frame = [time.thread_time(), 0.0]
            meter._stack.append(frame)
            try:
                return original(*args, **kwargs)
            finally:
                meter._stack.pop()
                spent = time.thread_time() - frame[0]
                meter.own[key] += spent - frame[1]
                meter.calls[key] += 1
                if meter._stack:
                    meter._stack[-1][1] += spent

        setattr(owner, name, timed)

    def reset(self) -> None:
        self.own.clear()
        self.calls.clear()


def _draw_label(widget: Widget) -> str:
    """A widget's drawing, by its class (a scrollbar: whose, and which)."""
    name = type(widget).__name__
    if name in ("ScrollBar", "ScrollBarCorner"):
        owner = widget.parent
        which = "vertical " if getattr(widget, "vertical", False) else ""
        where = owner.id or type(owner).__name__ if owner is not None else "?"
        return f"draw: {which}{name} of {where}"
    return f"draw: {name}"


def instrument(meter: Meter) -> None:
    """Wrap the steps of a page's frame (see the module's docstring)."""
    meter.wrap(TabScreen, "show_page", "restwalk: show_page (widgets given the page)")
    meter.wrap(TabScreen, "arrived", "restwalk: arrived (tab.arrive)")
    meter.wrap(Compositor, "reflow", "layout: Compositor.reflow")
    meter.wrap(Compositor, "reflow_visible", "layout: Compositor.reflow_visible")
    meter.wrap(Widget, "_size_updated", "layout: widgets' _size_updated")
    meter.wrap(Screen, "_refresh_layout", "frame: _refresh_layout (rest)")
    meter.wrap(Screen, "_on_timer_update", "frame: _on_timer_update (rest)")
    meter.wrap(Compositor, "render_update", "frame: compositor cutting (render_update)")
    meter.wrap(Compositor, "update_widgets", "frame: compositor update_widgets")
    meter.wrap(Stylesheet, "update_nodes", "styles: Stylesheet.update_nodes")
    # Every widget class's drawing, by class: render_lines on the base class and on
    # every class that overrides it.
    classes: set[type[Widget]] = {Widget}
    pending = [Widget]
    while pending:
        for sub in pending.pop().__subclasses__():
            if sub not in classes:
                classes.add(sub)
                pending.append(sub)
    for cls in classes:
        if "render_lines" in cls.__dict__:
            meter.wrap(cls, "render_lines", _draw_label)
    # A headless run hands no update to a terminal: make its text as a terminal run does.
    original_display = App._display

    def display(self: App[Any], screen: Screen[Any], renderable: Any) -> None:
        original_display(self, screen, renderable)
        if renderable is not None and hasattr(renderable, "render_segments"):
            renderable.render_segments(self.console)

    App._display = display  # type: ignore[method-assign]
    meter.wrap(App, "_display", "frame: update to terminal text")


def link_keys(app: App[Any], rel: str) -> list[str]:
    """The keys that follow the first link ``rel``: its number, then Enter when another
    link's number starts with it."""
    links = app.screen.query_one(LinksPanel).links
    number = str(next(n for n, link in enumerate(links, start=1) if link.rel == rel))
    keys = list(number)
    if any(str(n) != number and str(n).startswith(number) for n in range(1, len(links) + 1)):
        keys.append("enter")
    return keys


class Follow:
    """One follow's CPU: the steps' own up to the page painted, and the thread's."""

    def __init__(self, meter: Meter, profile: cProfile.Profile | None) -> None:
        self.meter = meter
        self.profile = profile
        self.start = 0.0
        self.painted: float | None = None
        self.steps: dict[str, float] = {}

    def begin(self) -> None:
        self.meter.reset()
        self.meter.on = True
        if self.profile is not None:
            self.profile.enable()
        self.start = time.thread_time()

    def paint(self) -> None:
        """The page is painted (called by restwalk's own PaintWatch)."""
        if self.painted is None:
            self.painted = time.thread_time()
            self.meter.on = False
            if self.profile is not None:
                self.profile.disable()
            self.steps = dict(self.meter.own)

    def figures(self, idle: float) -> dict[str, float]:
        """The follow's figures in ms (``idle``: the thread's clock once all was done)."""
        if self.painted is None:
            raise RuntimeError("the page was never painted")
        to_paint = self.painted - self.start
        got = {name: spent * 1000 for name, spent in self.steps.items()}
        got["other (messages, events, the exchange, ...)"] = (
            to_paint - sum(self.steps.values())
        ) * 1000
        got["= thread CPU, key to page painted"] = to_paint * 1000
        got["  thread CPU, key to idle (the frames after too)"] = (idle - self.start) * 1000
        return got


def page_shown(app: App[Any], url: str) -> bool:
    """True once the tab shows ``url``'s page, read and drawn."""
    screen = app.screen
    page = screen.session.shown if isinstance(screen, TabScreen) else None
    return (
        page is not None
        and page.exchange is not None
        and page.exchange.response.url == url
        and not page.reading
        and (page.wait is None or page.wait.shown_at is not None)
    )


async def until(ready: Callable[[], bool]) -> None:
    """Wait for ``ready()`` (30 s at most), looking every millisecond."""
    deadline = time.monotonic() + 30
    while not ready():
        if time.monotonic() > deadline:
            raise TimeoutError("the page never came")
        await asyncio.sleep(0.001)


@dataclass
class Step:
    """One follow of :func:`follows`: its run (the first two warm up), the page it goes to,
    and ``press``, its last key sent and the page waited for (its other keys are in)."""

    run: int
    target: str
    pilot: Pilot[Any]
    press: Callable[[], Awaitable[None]]


async def follows(app: App[Any], base: str, runs: int) -> AsyncIterator[Step]:
    """Open ``app`` on the mock at ``base`` and follow root -> customers -> root ...,
    ``runs`` times each after two warm-up follows, a step at a time."""
    urls = {"root": base + "/", "customers": base + "/customers"}
    async with app.run_test(size=(WIDTH, HEIGHT)) as pilot:
        await until(lambda: page_shown(app, urls["root"]))
        await pilot.pause(1.0)
        page = "root"
        for run in range(2 * runs + 2):
            target = "customers" if page == "root" else "root"
            keys = link_keys(app, "rw:customers" if page == "root" else "up")
            if len(keys) > 1:
                await pilot.press(*keys[:-1])
            await pilot.pause(0.1)

            async def press(key: str = keys[-1], url: str = urls[target]) -> None:
                await pilot.press(key)
                await until(lambda: page_shown(app, url))

            yield Step(run, target, pilot, press)
            await pilot.pause(0.3)
            page = target


async def drive(
    base: str, runs: int, meter: Meter, profile: cProfile.Profile | None
) -> dict[str, dict[str, list[float]]]:
    """Follow root -> customers -> root ... ``runs`` times each; the figures by page."""
    app = create_app(base + "/")
    results: dict[str, dict[str, list[float]]] = {page: defaultdict(list) for page in PAGES}
    async for step in follows(app, base, runs):
        screen = app.screen
        assert isinstance(screen, TabScreen)
        paints = screen._paints
        told = paints._painted
        follow = Follow(meter, profile)

        def painted(shown_page: Any, follow: Follow = follow, told: Any = told) -> None:
            follow.paint()
            told(shown_page)

        paints._painted = painted
        follow.begin()
        await step.press()
        await step.pilot.pause()
        idle = time.thread_time()
        paints._painted = told
        wait = screen.session.shown.wait if screen.session.shown else None
        if step.run >= 2:
            for name, ms in follow.figures(idle).items():
                results[step.target][name].append(ms)
            if wait is not None and wait.shown_at is not None:
                waited = (wait.shown_at - wait.asked_at) * 1000
                results[step.target]["  wall clock, key to page painted (Trip)"].append(waited)
    return results


def print_results(results: dict[str, dict[str, list[float]]]) -> None:
    def median(name: str, page: str) -> float | None:
        got = results[page].get(name)
        return statistics.median(got) if got else None

    names = sorted(
        {name for got in results.values() for name in got},
        key=lambda name: (
            name.startswith(("=", " ")),
            -max(median(name, page) or 0.0 for page in PAGES),
        ),
    )
    print(f"  {'medians, ms (each step its own CPU, up to the page painted)':60}", end="")
    print("".join(f"{page:>11}" for page in PAGES))
    for name in names:
        cells = (median(name, page) for page in PAGES)
        print(
            f"  {name:60}"
            + "".join(f"{cell:11.2f}" if cell is not None else f"{'-':>11}" for cell in cells)
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--cprofile", type=Path)
    parser.add_argument("--height", type=int, default=40, help="the terminal's rows")
    parser.add_argument("--json", type=Path, help="also write every follow's figures here")
    args = parser.parse_args()
    global HEIGHT
    HEIGHT = args.height
    meter = Meter()
    instrument(meter)
    profile = cProfile.Profile() if args.cprofile else None
    with separate_mock() as base:
        seed_customers(base)
        results = asyncio.run(drive(base, args.runs, meter, profile))
    print_results(results)
    if args.json is not None:
        args.json.write_text(json.dumps(results))
    if profile is not None:
        profile.dump_stats(args.cprofile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
