"""A widget's refresh told to its screen from a plain callback, not a wake of its own
message loop.

Textual asks a widget to refresh by posting it a ``Prompt``: its message loop (a
task of its own) wakes, dispatches the prompt to no handler (a walk up its class's
bases), goes idle and only then tells the screen what to draw again (``Update``,
``Layout``). A followed page refreshes some eleven widgets at once (the URL bar, the
views and their four scrollbars, the status line, the breadcrumb, the links panel):
eleven task wakes, 1 to 1.5 ms between the page given to the widgets and its frame
started. :class:`QuickRefresh` does what that idle does (``_check_refresh``) in a
callback of the event loop's, the next thing the loop runs, and puts a widget to
repaint straight into the screen's dirty widgets, as the screen's handler of the
``Update`` message would (ten dispatches a page, each a walk up the screen's bases).

What does not change: the refresh still reaches the screen after the code that asked
for it has returned, so a widget asked several times in one step is told once; a
widget with messages waiting goes idle after them, as ever; ``call_next`` callbacks,
and a refresh asked from another thread, go the prompt's way.

The one place this leans on Textual's internals: ``Widget._check_refresh`` (what
the idle does), ``_message_queue``, ``_next_callbacks``, ``_running``,
``_thread_id``, and the screen's ``_dirty_widgets`` and ``_compositor`` (what
``Screen._on_update`` does), pinned by the textual range in pyproject and tested
(tests/explorer/ui/test_quick_refresh.py).
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING

from textual.dom import NoScreen
from textual.widget import Widget

__all__ = ["QuickRefresh"]

if TYPE_CHECKING:
    _Widget = Widget
else:
    _Widget = object


class QuickRefresh(_Widget):
    """A widget whose refresh (and scroll, and restyle) reaches its screen from one event
    loop callback, not from a wake of its own message loop (see the module's docstring).

    A mixin, named first among a widget class's bases (as
    :class:`~explorer.ui.widgets.style_key.KeptStyles`)."""

    #: A callback is on its way to tell the screen (at most one at a time).
    _refresh_due = False

    def check_idle(self) -> None:
        if not self._running or not self._message_queue.empty():
            return  # (not started yet; or it goes idle after its messages, as ever)
        if self._refresh_due:
            return
        if self._thread_id != threading.get_ident():
            super().check_idle()  # (posted thread-safely, as Textual does)
            return
        self._refresh_due = True
        asyncio.get_running_loop().call_soon(self._refresh_now)

    def _refresh_now(self) -> None:
        self._refresh_due = False
        if self._next_callbacks:  # call_next's callbacks run at its loop's idle
            super().check_idle()
        elif self._message_queue.empty():
            self._check_refresh()

    def _check_refresh(self) -> None:
        # A repaint goes into the screen's dirty widgets here, as the screen's handler of
        # the Update message Textual posts would put it (ten of them a followed page,
        # each a dispatch up the screen's class's bases); layouts, scrolls and restyles go
        # Textual's way.
        if self._repaint_required and self._parent is not None and not self._closing:
            try:
                screen = self.screen
            except NoScreen:
                pass
            else:
                self._repaint_required = False
                if self.display and screen in screen._compositor:
                    screen._dirty_widgets.add(self)
                    screen.check_idle()
        super()._check_refresh()
