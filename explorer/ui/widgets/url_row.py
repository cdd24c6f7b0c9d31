"""The browser's URL row: the method, the URL bar, the credential's badge and the
``.http`` files' badge, one line at the top of a tab's screen.

:class:`UrlRow` shows what it is given (attributes down): the request on its way
(:meth:`UrlRow.show_request`) or the page shown (:meth:`UrlRow.show_address`).
What its children post (a URL opened, a curl line read, a badge's dialog) goes up
to the screen as their own messages, but ``S`` (save the request), which the row
answers: the request is the page's, or the URL typed
(:meth:`~explorer.core.session.session.Session.to_save`). The method is changed
only when it differs: a change lays the row out again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Horizontal
from textual.widgets import Label

from explorer.ui.widgets.auth_badge import AuthBadge
from explorer.ui.widgets.http_file_badge import HttpFileBadge
from explorer.ui.widgets.url_input import UrlBar

if TYPE_CHECKING:
    from textual.app import ComposeResult

    from explorer.core.http.request import RequestSpec
    from explorer.core.session import Page
    from explorer.core.session.tab import Tab


class UrlRow(Horizontal):
    """The method, the URL bar and the badges of ``tab``'s URL row."""

    def __init__(self, tab: Tab, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tab = tab
        # Kept, not queried: a query walks the screen's widgets (a page shown asked for
        # these some ten times, half a millisecond).
        self.method = Label("GET", id="method", markup=False)
        self.bar = UrlBar(
            placeholder="http://127.0.0.1:8000/, /path, host:port or a curl command", id="url"
        )
        self.auth_badge = AuthBadge(tab, id="auth-badge")
        self.http_badge = HttpFileBadge(tab, id="env-badge")

    def compose(self) -> ComposeResult:
        yield self.method
        yield self.bar
        yield self.auth_badge
        yield self.http_badge

    def on_http_file_badge_save_asked(self, event: HttpFileBadge.SaveAsked) -> None:
        """``S``: the request shown saved, or a GET of the URL typed before any page."""
        event.stop()
        self.http_badge.save_request(self.tab.session.to_save(self.bar.value))

    def show_request(self, spec: RequestSpec) -> None:
        """The method and URL of ``spec``."""
        self._show_method(spec.method)
        self.bar.show_url(spec.url)

    def show_address(self, page: Page) -> None:
        """The method and URL of ``page`` (what ``r`` sends again): where its redirects
        led, relative to the URL asked."""
        self._show_method(page.spec.method)
        url = page.exchange.response.url if page.exchange else page.spec.url
        self.bar.show_url(url, base=page.spec.url)

    def _show_method(self, method: str) -> None:
        """The method in front of the URL bar, changed only when it differs (a change
        lays the row out again)."""
        label = self.method
        if str(label.content) != method:
            label.update(method)
