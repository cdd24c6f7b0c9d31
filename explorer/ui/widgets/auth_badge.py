"""The credential badge at the right of the URL bar, and the keys of what it shows.

The badge says what goes with requests to the page's server: the credential, the
API version asked for, the headers kept (:meth:`~explorer.core.session.Session.badge`).
It owns the keys that act on those, wherever the focus is on the browser screen
(:mod:`explorer.ui.page_keys`): ``x`` logs out of the server (the tab forgets its
credential, tokens and cookies), ``s`` lists credentials, cookies and kept headers
and drops a header the person picks. Logging in goes on the network: that is the
screen's ``a``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Label

from explorer.core.text.plural import counted
from explorer.ui.typed_ahead import opens_dialog

if TYPE_CHECKING:
    from explorer.core.session.tab import Tab


class AuthBadge(Label):
    """``alice (basic) · v2 (header) · +1 header`` for the page's server; ``x`` and ``s``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "logout", "Log out", show=False, tooltip="Forget this server's credential"),
        opens_dialog(
            "s", "session", "Session", show=False, tooltip="Credentials, cookies, kept headers"
        ),
    ]

    def __init__(self, tab: Tab, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.tab = tab
        #: The URL of the page shown (or typed, before any page): whose server it is.
        self.url = ""

    def show(self, url: str) -> None:
        """Show what goes with requests to ``url``'s server."""
        self.url = url
        badge = self.tab.session.badge(url)
        if badge != str(self.content):  # (the same badge again: nothing to draw or lay out)
            self.update(badge)

    def action_logout(self) -> None:
        out = self.tab.log_out(self.url)
        if not out.had and not out.cookies:
            self.notify(f"Nothing to log out of: no credential or cookie for {out.origin}.")
        else:
            cookies = counted(out.cookies, "cookie")
            self.notify(
                f"Forgot {out.forgotten} and {cookies} of {out.origin}.", title="Logged out"
            )
        self.show(self.url)

    def action_session(self) -> None:
        from explorer.ui.dialogs.session_info import SessionDialog

        client = self.tab.client
        dialog = SessionDialog(self.tab.session, client.cookie_list(), client.token_sources)
        self.app.push_screen(dialog, self._dropped)

    def _dropped(self, dropped: tuple[str, str] | None) -> None:
        if dropped is not None:
            origin, name = dropped
            self.tab.session.drop_header(origin, name)
            self.notify(f"{name} is no longer sent to {origin}.")
            self.show(self.url)
