"""The process's cyclic garbage collector, paused by whoever needs it to rest.

Some work makes many objects and no garbage, and the collector only costs it time:
start-up (the imports, the app), parsing a large body for its links, a followed
page from the key to its frame. Each of them pauses the collector here rather
than with ``gc.disable()``/``gc.enable()`` of its own: the pauses overlap (a body is
read for links in a thread while the UI draws the next page), and the collector
comes back on only when the last of them ends, and only if it is meant to be on
(:func:`switch`). Reference counting frees nearly everything meanwhile; only
cycles wait for the collector.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["pause", "paused", "pausing", "resume", "switch"]

_lock = threading.Lock()
#: Pauses not ended yet.
_pauses = 0
#: Whether the collector is meant to run when no pause holds it.
_on = True


def pause() -> None:
    """Pause the collector until a :func:`resume` matches this call."""
    global _pauses
    with _lock:
        if _pauses == 0:
            gc.disable()
        _pauses += 1


def resume() -> None:
    """End a :func:`pause`; the last one ended turns the collector back on if it is
    meant to be on. One too many is ignored (the pause it would end has ended)."""
    global _pauses
    with _lock:
        if _pauses == 0:
            return
        _pauses -= 1
        if _pauses == 0 and _on:
            gc.enable()


@contextmanager
def paused() -> Iterator[None]:
    """The collector paused for the ``with`` block."""
    pause()
    try:
        yield
    finally:
        resume()


def switch(on: bool) -> None:
    """Whether the collector is meant to run (``restwalk`` switches it off while it
    starts, on once its first screen is drawn); a pause still holds it meanwhile."""
    global _on
    with _lock:
        _on = on
        if _pauses == 0:
            if on:
                gc.enable()
            else:
                gc.disable()


def pausing() -> int:
    """How many pauses hold the collector now (for tests and figures)."""
    with _lock:
        return _pauses
