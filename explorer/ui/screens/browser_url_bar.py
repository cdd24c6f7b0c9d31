"""The browser screen's URL bar: ctrl+l goes in, Enter opens what it holds, Escape leaves.

:class:`BrowserUrlBar` routes the bar's keys. Enter opens a URL (``/path`` and
``host:port`` resolved against the page) or a curl command line; Escape puts the
page's URL back and returns to the page, as a browser's address bar does (a
request on its way is cancelled by Escape outside the bar, or by a second one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.screen import Screen
from textual.widgets import Input

from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.url_input import UrlInput


class BrowserUrlBar(Screen[None]):
    """ctrl+l, Enter and Escape in the URL bar."""

    if TYPE_CHECKING:  # the browser screen's and its carry half's

        def open_url(self, text: str) -> None: ...

        def open_curl(self, text: str) -> None: ...

    def action_focus_url(self) -> None:
        url = self.query_one("#url", UrlInput)
        url.focus()
        url.select_all()

    @on(Input.Submitted, "#url")
    def url_submitted(self, event: Input.Submitted) -> None:
        from explorer.core.carry.curl import looks_like_curl

        if looks_like_curl(event.value):
            self.open_curl(event.value)
        elif event.value.strip():
            self.open_url(event.value)
            self.query_one(LinksPanel).table.focus()

    def leave_url_bar(self) -> bool:
        """Escape in the URL bar: the page's URL back, the focus on the page. True when
        that undid an edit (Escape has then done its work); False outside the bar too."""
        bar = self.query_one("#url", UrlInput)
        if not bar.has_focus:
            return False
        edited = bar.revert()
        self.query_one(LinksPanel).table.focus()
        return edited
