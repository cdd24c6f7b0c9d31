"""The browser screen's survey keys: ``g`` the map screen, ``D`` compare two pages.

:class:`BrowserSurvey` is the part of the browser screen that opens the map
screen (the session's map, the REST audit) and compares the page shown with
another: a page of the history, or the same request in another API version,
side by side. The core maps, measures and compares; this routes.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen

from explorer.core.hypermedia.link import Link
from explorer.core.session.loading import load_page
from explorer.core.session.trail import Page

if TYPE_CHECKING:
    from explorer.core.http.client import Client
    from explorer.core.session import Session
    from explorer.core.session.version import VersionChoice

# The screens and dialogs are imported where they open: the first screen does not wait.


class BrowserSurvey(Screen[None]):
    """Opens the map screen and the diff of two pages."""

    session: Session
    client: Client

    if TYPE_CHECKING:  # the browser screen's

        def follow_link(self, link: Link) -> None: ...

    def action_map(self) -> None:
        from explorer.core.survey.entry import entries_of
        from explorer.ui.screens.map_screen import MapScreen

        entries = entries_of(self.session)
        if entries is None:
            self.notify("Nothing is mapped yet: open a URL first (ctrl+l).")
            return
        self.app.push_screen(MapScreen(self.session, self.client, entries), self._from_map)

    def _from_map(self, link: Link | None) -> None:
        if link is not None:
            self.follow_link(link)

    @work(group="diff")
    async def action_diff(self) -> None:
        """Pick the other page, fetch it if it is another version, compare, show."""
        from explorer.ui.dialogs.diff_pick import ANOTHER_VERSION, DiffPicker

        shown = self.session.shown
        if shown is None or shown.exchange is None:
            self.notify("No answer to compare yet: open a URL first (ctrl+l).")
            return
        choice = await self.app.push_screen_wait(DiffPicker(self.session.trail.pages, shown))
        if choice is None:
            return
        if choice == ANOTHER_VERSION:
            asked = await self._other_version(shown)
            if asked is None:
                return
            other, label = asked
            await self._compare(shown, other, right_label=label)
        else:
            assert isinstance(choice, Page)
            await self._compare(choice, shown)

    async def _other_version(self, shown: Page) -> tuple[Page, str] | None:
        """The shown request in the version the person picks, and how it was asked for
        (a header leaves the URL as it was); None when they cancel or it fails."""
        from explorer.core.session.version import VersionChoice
        from explorer.ui.dialogs.version import VersionDialog

        current = self.session.version(shown.spec.url) or VersionChoice(None, "uri")
        choice: VersionChoice | None = await self.app.push_screen_wait(VersionDialog(current))
        if choice is None or not choice.active:
            return None
        spec = replace(
            shown.spec,
            api_version=choice.version,
            version_style=choice.style,
            version_name=choice.name,
            base_path=choice.base_path,
        )
        self.notify(f"Asking for {spec.url} in version {choice.version}…", timeout=2)
        page = await load_page(self.client, spec, via="diff")
        if page.error is not None:
            self.notify(page.error.message, title="No answer to compare", severity="error")
            return None
        assert page.exchange is not None
        return page, f"{page.exchange.response.url}  [{choice.label}]"

    async def _compare(self, left: Page, right: Page, *, right_label: str | None = None) -> None:
        from explorer.core.survey.compare import compare
        from explorer.ui.screens.diff_screen import DiffScreen

        assert left.exchange is not None
        assert right.exchange is not None
        comparison = await asyncio.to_thread(
            compare, left.exchange.response, right.exchange.response
        )
        if right_label is not None:
            comparison = replace(comparison, right_url=right_label)
        await self.app.push_screen(DiffScreen(comparison))
