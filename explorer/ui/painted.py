"""Waiting until a frame has reached the terminal, before work that holds the GIL.

Textual hands each frame to a writer thread, and that thread needs the GIL to
write it out. A parse that holds the GIL (orjson does: about half a second for
20 MB) started right after the refresh could keep the frame it follows off the
screen until the parse ended: the 20 MB body's top then took a second to
appear instead of a quarter. A short grace after the refresh, with the UI
thread idle, lets the writer go first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual.widget import Widget

__all__ = ["FLUSH_GRACE", "after_paint", "call_after_paint"]

#: Seconds the UI thread stays idle after a refresh so the frame gets written.
FLUSH_GRACE = 0.02


async def after_paint(widget: Widget) -> None:
    """Return once ``widget``'s next refresh is drawn and has had time to reach the screen."""
    painted = asyncio.Event()
    widget.call_after_refresh(painted.set)
    await painted.wait()
    await asyncio.sleep(FLUSH_GRACE)


def call_after_paint(widget: Widget, callback: Callable[[], object]) -> None:
    """Call ``callback`` once ``widget``'s next refresh has had time to reach the screen."""
    widget.call_after_refresh(widget.set_timer, FLUSH_GRACE, callback)
