"""The person's wait for a page, from the key that asked for it to the page painted, for
the Trip tab to cut into phases (:mod:`explorer.core.http.phases`).

Both ends are read on the client's clock, the one its exchanges are timed on. A
key's time is when the terminal's input thread made the event, not when the event
loop got round to it: a loop busy drawing a frame makes the person wait too.
The page is painted when the first frame after it is shown has been handed to the
terminal: the screen's next refresh (a callback after it), or its next layout
(Textual's ``screen_layout_refresh_signal``, right after that frame) if it comes
first. A frame drawn while the screen is under a dialog does not count: the next
layout, when the dialog closes, does.

Meanwhile the cyclic garbage collector rests (:class:`CollectionHold`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual import events
from textual._time import get_time  # the clock of Textual's events (a message's .time)
from textual.screen import Screen
from textual.widget import Widget

from explorer.core import gc_pause
from explorer.core.session.trail import Page

__all__ = ["HOLD_LIMIT", "CollectionHold", "KeyClock", "PaintWatch"]

#: Seconds at most the collector rests for one page (a request cancelled, an answer
#: that never comes, a page shown in a tab not on screen: nothing ends the hold but
#: this).
HOLD_LIMIT = 1.0


class KeyClock:
    """When the last key was pressed, on ``clock``; what a request is asked at."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._key_at: float | None = None
        self._asked_at: float | None = None

    def pressed(self, event: events.Key) -> None:
        """A key came: keep its time (its age on Textual's clock, taken from now on ours)."""
        self._key_at = self.clock() - max(0.0, get_time() - event.time)

    def asked(self) -> float:
        """When the request being sent now was asked for: the last key, if it came after
        the request asked before (it is then what asked); else now (the start page, a
        step of a walk)."""
        now = self.clock()
        key = self._key_at
        asked = key if key is not None and (self._asked_at is None or key > self._asked_at) else now
        self._asked_at = now
        return asked


class PaintWatch:
    """Notes when each page shown is painted, in its :class:`Wait`, and says so."""

    def __init__(self, clock: Callable[[], float], painted: Callable[[Page], None]) -> None:
        self.clock = clock
        self._painted = painted
        self._pending: Page | None = None
        self._screen: Screen[Any] | None = None

    def watch(self, screen: Screen[Any], owner: Widget) -> None:
        """Start watching ``screen``'s frames (``owner``, a widget of it, holds the
        subscription: a screen's own would be dropped with the watch's)."""
        self._screen = screen
        screen.screen_layout_refresh_signal.subscribe(owner, self._frame, immediate=True)

    def shown(self, page: Page) -> None:
        """``page`` was just shown: its wait ends with the next frame."""
        self._pending = page if page.wait is not None and page.wait.shown_at is None else None
        screen = self._screen
        if self._pending is not None and screen is not None:
            # (a page that moves nothing is drawn without a layout)
            screen.call_after_refresh(self._frame, screen)

    def _frame(self, screen: Screen[Any]) -> None:
        if not screen.is_current:  # laid out under a dialog: not drawn yet
            return
        page, self._pending = self._pending, None
        if page is None or page.wait is None:
            return
        page.wait.shown_at = self.clock()
        self._painted(page)


class CollectionHold:
    """The cyclic garbage collector held off from a key that asks for a page until the
    page is painted, or :data:`HOLD_LIMIT` seconds.

    The exchange, taking the page in and its frame make some ten thousand objects and
    no garbage: with the collector on, 13 to 21 collections ran on the UI thread
    between the key and the paint of a followed page of the mock (2 to 5 ms of it),
    and now and then a full one (20 to 40 ms). Held off, what is due runs after the
    paint, while the person reads.
    """

    def __init__(self) -> None:
        self._expiry: asyncio.TimerHandle | None = None

    @property
    def holding(self) -> bool:
        """True while this hold pauses the collector."""
        return self._expiry is not None

    def hold(self) -> None:
        """Hold the collector off until :meth:`release`, at most :data:`HOLD_LIMIT` from
        now (a hold already on is extended)."""
        if self._expiry is None:
            gc_pause.pause()
        else:
            self._expiry.cancel()
        self._expiry = asyncio.get_running_loop().call_later(HOLD_LIMIT, self.release)

    def release(self) -> None:
        """End the hold (nothing when none is on)."""
        expiry, self._expiry = self._expiry, None
        if expiry is not None:
            expiry.cancel()
            gc_pause.resume()
