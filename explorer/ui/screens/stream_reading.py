"""A tab's live stream read as it comes: each event shown, the status line counting.

A page whose body does not end (server-sent events, JSON lines) is read on by a
worker of the tab's screen (group ``stream``), each event added to the response
tabs' stream view as it comes, until the stream ends, Escape stops it or another
page is asked for; then it is closed. :class:`StreamReading` is given the screen it
runs on and the widgets it fills; the tab's screen owns one.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.worker import Worker

    from explorer.core.session.live_stream import LiveStream
    from explorer.core.session.tab import Tab
    from explorer.ui.widgets.response_tabs import ResponseTabs
    from explorer.ui.widgets.status_line import StatusLine


class StreamReading:
    """Reads the tab's live stream in a worker of ``screen``'s, into ``tabs``' stream view."""

    def __init__(
        self, screen: Screen[None], tab: Tab, tabs: ResponseTabs, status: StatusLine
    ) -> None:
        self.screen = screen
        self.tab = tab
        self.tabs = tabs
        self.status = status

    @property
    def reading(self) -> bool:
        """True while a stream is read."""
        return any(w.group == "stream" and w.is_running for w in self.screen.workers)

    def read(self, live: LiveStream) -> Worker[None]:
        """Read ``live`` as it comes (the stream read before is stopped)."""
        return self.screen.run_worker(partial(self._read, live), exclusive=True, group="stream")

    async def _read(self, live: LiveStream) -> None:
        """Read ``live`` as it comes, each event shown; stopped, it is closed."""
        view = self.tabs.stream_view
        await self.tabs.show_stream(live)
        self.show_progress(live, reading=True)
        why = "stopped reading (r reads it again)"
        try:
            async for item in live.items():
                view.add(item)
            why = "the stream ended (r reads it again)"
        finally:
            if self.screen.is_attached:  # (not when the app is closing)
                view.stopped(f"{why}: {live.summary()}")
                self.show_progress(live, reading=False)
            if self.tab.live is live:
                await self.tab.stop_live()
            else:
                await live.aclose()

    def stop(self) -> bool:
        """Stop reading the stream shown; True when one was read."""
        if not self.reading:
            return False
        self.screen.workers.cancel_group(self.screen, "stream")
        return True

    def show_progress(self, live: LiveStream, *, reading: bool) -> None:
        """The status line counts the events and bytes that came."""
        shown = self.tab.session.shown
        if shown is not None and shown.exchange is live.exchange:
            self.status.show_stream(shown, live.summary(), reading=reading)
