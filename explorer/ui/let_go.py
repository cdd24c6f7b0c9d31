"""What a refresh drops, freed a moment later, not before the frame it asked for.

A widget refreshed whole drops the lines it drew last (Textual's ``StylesCache.clear``),
and freeing them, each strip and its segments, took some 0.3 ms of a followed page's
way to the screen: the body view's, the links table's, the status line's and the
breadcrumb's. :func:`let_go` keeps what is dropped until :data:`LET_GO_AFTER` seconds
later (past the frame, which comes within one tick of the 60 Hz grid, and its
drawing), then frees it all at once, while the person reads.

Outside an event loop (nothing to free it later) it is freed at once, as before.
"""

from __future__ import annotations

import asyncio

__all__ = ["LET_GO_AFTER", "let_go"]

#: Seconds what is dropped is kept before it is freed: past the next frame.
LET_GO_AFTER = 0.1

#: What is kept until it is freed, and the timer that frees it (with its loop).
_kept: list[object] = []
_freeing: tuple[asyncio.AbstractEventLoop, asyncio.TimerHandle] | None = None


def let_go(dropped: object) -> None:
    """Keep ``dropped`` (its last reference) until :data:`LET_GO_AFTER` seconds from the
    first thing kept since the last freeing, then free it."""
    global _freeing
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return  # (no loop: its reference goes, and it is freed now)
    _kept.append(dropped)
    if _freeing is None or _freeing[0] is not loop or _freeing[1].cancelled():
        _freeing = (loop, loop.call_later(LET_GO_AFTER, _free))


def _free() -> None:
    global _freeing
    _freeing = None
    _kept.clear()
