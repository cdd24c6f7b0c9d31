"""The start page, asked for before its screen is shown.

The TUI asks for the start page as soon as it starts and holds its first frame
for a moment (:meth:`StartPage.prefetch`): a quick answer is then shown in the
screen's very first frame, with no "sending" drawn before it. A slow one goes on
as the screen's first request (:meth:`StartPage.take` hands it over), its body
counted since it was asked for (:attr:`StartPage.progress`). The tab's screen
owns one; nothing here knows of a screen.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from explorer.core.http.progress import BodyProgress
from explorer.core.http.request import RequestSpec

if TYPE_CHECKING:
    from explorer.core.session import Page
    from explorer.core.session.tab import Tab


class StartPage:
    """The tab's start page at ``url``, on its way before its screen is shown."""

    def __init__(self, tab: Tab, url: str | None) -> None:
        self.tab = tab
        self.url = url
        #: Its body as it comes.
        self.progress = BodyProgress(tab.client.clock)
        self._future: asyncio.Future[Page] | None = None

    async def prefetch(self, hold: float) -> None:
        """Start loading the start page; wait up to ``hold`` s."""
        assert self.url is not None
        spec = RequestSpec(url=self.url)
        start = asyncio.ensure_future(self.tab.open(spec, progress=self.progress))
        self._future = start
        try:
            await asyncio.wait_for(asyncio.shield(start), hold)
        except TimeoutError:
            pass
        except asyncio.CancelledError:  # the app is closing
            start.cancel()
            raise

    def take(self) -> asyncio.Future[Page] | None:
        """The start page on its way, or come, taken once (None: not asked for, or to be
        asked again: it was cancelled, which it is only when the app closed while it
        waited)."""
        start, self._future = self._future, None
        return None if start is None or start.cancelled() else start
