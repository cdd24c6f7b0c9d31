"""A followed page's frame drawn again and again: its CPU, with little of the machine's noise.

``profile_page_frame.py`` times real follows, a frame each, on a machine whose speed
moves 1.5x within minutes: a change of half a millisecond hides in it. This follows
root -> customers -> root -> customers as it does (headless, 120x40, against
``restwalk-mock`` seeded as ``bench_exchange.py`` seeds it), notes which widgets the
last page's frame repainted (and which parts of them) and which parts of the screen it
updated, then draws that frame again ``--repeats`` times: each time the widgets
dirtied as the page dirtied them, the lines they keep from their last drawing
forgotten (the body's and the table's drawn lines, the scrollbars' strips), the update
cut by the screen's compositor and made into terminal text. The least and the first
quartile of the repeats' thread CPU are what the frame costs when nothing else gets in
the way.

What a new page finds cold stays warm (Textual's layout of a text, the highlighter's
lines, the processor's caches): a replayed frame costs less than a page's first one;
compare checkouts with it, in turns, not with ``profile_page_frame.py``'s figures.

    .venv/bin/python bench/replay_page_frame.py [--repeats 300] [--steps] [--page root]

``--steps``: each widget class's drawing and the compositor's own part, least and
quartile. Another checkout's restwalk: ``PYTHONPATH=CHECKOUT`` in front.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_exchange import seed_customers, separate_mock
from profile_page_frame import follows
from textual._compositor import Compositor
from textual.geometry import Region
from textual.widget import Widget

from explorer.ui.app import create_app

#: What a widget keeps of its last drawing, forgotten before each replay.
KEPT = ("_drawn", "_shown", "_lines")


class Recording:
    """What a follow's page frame repainted: each widget with the regions it was dirtied
    with (none: the whole of it), and the screen's update regions."""

    def __init__(self) -> None:
        self.on = False
        self.widgets: dict[Widget, list[tuple[Region, ...]]] = defaultdict(list)
        self.update: set[Region] | None = None

    def install(self) -> Callable[[], None]:
        """Note dirtied widgets and the first update while :attr:`on`; the undo."""
        set_dirty, render_update = Widget._set_dirty, Compositor.render_update
        recording = self

        def noted_dirty(widget: Widget, *regions: Region) -> None:
            if recording.on:
                recording.widgets[widget].append(regions)
            set_dirty(widget, *regions)

        def noted_update(compositor: Compositor, *args: Any, **kwargs: Any) -> Any:
            if recording.on and recording.update is None and compositor._dirty_regions:
                recording.update = set(compositor._dirty_regions)
            return render_update(compositor, *args, **kwargs)

        Widget._set_dirty = noted_dirty  # type: ignore[method-assign]
        Compositor.render_update = noted_update  # type: ignore[method-assign]

        def undo() -> None:
            Widget._set_dirty = set_dirty  # type: ignore[method-assign]
            Compositor.render_update = render_update  # type: ignore[method-assign]

        return undo


def forget(widget: Widget) -> None:
    """Forget what ``widget`` kept of its last drawing (see :data:`KEPT`)."""
    for name in KEPT:
        kept = widget.__dict__.get(name)
        if isinstance(kept, dict):
            kept.clear()
        elif kept is not None:
            setattr(widget, name, None)


class Steps:
    """Each widget class's drawing, timed on the thread's clock (its own: a drawing it
    calls for itself, through ``super``, is its)."""

    def __init__(self) -> None:
        self.now: dict[str, float] = defaultdict(float)
        self._drawing: list[Widget] = []

    def install(self) -> None:
        classes: set[type[Widget]] = set()
        pending = [Widget]
        while pending:
            cls = pending.pop()
            classes.add(cls)
            pending.extend(sub for sub in cls.__subclasses__() if sub not in classes)
        for cls in classes:
            if "render_lines" in cls.__dict__:
                self._wrap(cls)

    def _wrap(self, cls: type[Widget]) -> None:
        draw = cls.__dict__["render_lines"]
        steps = self

        def timed(widget: Widget, crop: Region) -> Any:
            if steps._drawing and steps._drawing[-1] is widget:
                return draw(widget, crop)
            start = time.thread_time()
            steps._drawing.append(widget)
            try:
                return draw(widget, crop)
            finally:
                steps._drawing.pop()
                steps.now[type(widget).__name__] += time.thread_time() - start

        cls.render_lines = timed  # type: ignore[method-assign]


async def replay(base: str, page: str, repeats: int, steps: Steps | None) -> dict[str, list[float]]:
    """Follow the root's customers link and the customers' ``up`` link, then the one to
    ``page`` again and draw its frame ``repeats`` times: each repeat's thread CPU (and
    its steps'), in us."""
    app = create_app(base + "/")
    recording = Recording()
    undo = recording.install()
    figures: dict[str, list[float]] = defaultdict(list)
    async for step in follows(app, base, 1):
        recording.on = step.run >= 2 and step.target == page  # (two follows warm up)
        await step.press()
        await step.pilot.pause(0.3)
        if not recording.on:
            continue
        recording.on = False
        undo()
        screen = app.screen
        compositor = screen._compositor
        assert recording.update is not None, "the page's frame updated nothing"
        widgets = {w: r for w, r in recording.widgets.items() if w.screen is screen}
        bars = [w for w in compositor.visible_widgets if type(w).__name__ == "QuickScrollBar"]
        for _ in range(repeats):
            for widget, dirtied in widgets.items():
                for regions in dirtied:
                    widget._set_dirty(*regions)
                forget(widget)
            for bar in bars:  # (a page's scrollbars are drawn anew: their thumbs moved)
                forget(bar)
            compositor._dirty_regions.update(recording.update)
            if steps is not None:
                steps.now.clear()
            start = time.thread_time()
            update = compositor.render_update()
            cut = time.thread_time()
            assert update is not None
            update.render_segments(app.console)
            end = time.thread_time()
            figures["= the frame"].append((end - start) * 1e6)
            if steps is not None:
                drawn = sum(steps.now.values())
                figures["frame: compositor cutting"].append((cut - start - drawn) * 1e6)
                figures["frame: update to terminal text"].append((end - cut) * 1e6)
                for name, spent in steps.now.items():
                    figures[f"draw: {name}"].append(spent * 1e6)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=300)
    parser.add_argument("--page", choices=("root", "customers"), default="customers")
    parser.add_argument("--steps", action="store_true", help="each step's figures too")
    args = parser.parse_args()
    steps = Steps() if args.steps else None
    if steps is not None:
        steps.install()
    with separate_mock() as base:
        seed_customers(base)
        figures = asyncio.run(replay(base, args.page, args.repeats, steps))
    print(
        f"  {'us of thread CPU, over ' + str(args.repeats) + ' repeats':44}"
        f"{'least':>8}{'p25':>8}{'median':>8}"
    )
    for name, values in sorted(figures.items(), key=lambda item: -min(item[1])):
        values.sort()
        quartile = values[len(values) // 4]
        print(f"  {name:44}{values[0]:8.0f}{quartile:8.0f}{statistics.median(values):8.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
