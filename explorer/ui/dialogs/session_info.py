"""What the session keeps: credentials, API versions, kept headers and cookies.

Enter on a kept header stops sending it: the dialog returns ``(origin, name)``
for the browser screen to drop. Cookie values and credentials are not shown; ``t``
opens an OAuth 2.0 login's token view (:mod:`explorer.ui.dialogs.token_view`),
each of its claims explained.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from explorer.core.http.request import OAuthBearer
from explorer.core.oauth.login import Login
from explorer.core.session import Session
from explorer.core.session.credentials import auth_label
from explorer.ui.widgets.key_bar import KeyBar


def session_text(session: Session, cookies: list[tuple[str, str, str]]) -> Text:
    """Credentials and versions per server, and the cookie jar, as plain text."""
    text = Text()
    text.append("Credentials\n", style="bold")
    credentials = session.credentials()
    for origin, auth in credentials:
        text.append(f"  {origin}  {auth_label(auth)}\n")
    if any(isinstance(auth, OAuthBearer) for _, auth in credentials):
        text.append("  t shows the OAuth 2.0 token's claims, each explained\n")
    if not credentials:
        text.append("  none (a logs in; x logs out of the page's server)\n")
    text.append("Cookies\n", style="bold")
    for domain, path, name in cookies:
        text.append(f"  {name}  for {domain}{path}\n")
    if not cookies:
        text.append("  none\n")
    return text


class SessionDialog(ModalScreen[tuple[str, str] | None]):
    """The session's state; Enter on a kept header drops it, Escape closes."""

    DEFAULT_CSS = """
    SessionDialog { align: center middle; }
    SessionDialog > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 85%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    SessionDialog OptionList { height: auto; max-height: 12; }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("t", "token", "OAuth token"),
    ]

    def __init__(
        self,
        session: Session,
        cookies: list[tuple[str, str, str]],
        logins: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.cookies = cookies
        #: The OAuth 2.0 logins of the session's credentials, in its order.
        self.logins = [
            login
            for _, auth in session.credentials()
            if isinstance(auth, OAuthBearer)
            and isinstance(login := (logins or {}).get(auth.login), Login)
        ]
        self.kept = [
            (origin, name, value)
            for origin, _ in session.origins()
            for name, value in session.kept_headers(origin)
        ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(session_text(self.session, self.cookies), id="session-state")
            yield Label("Headers kept per server (Enter stops sending one)")
            options = [
                Option(Text(f"{origin}  {name}: {value}"), id=str(index))
                for index, (origin, name, value) in enumerate(self.kept)
            ]
            yield OptionList(*options, id="kept-headers")
            if not self.kept:
                yield Static("  none: the composer's 'Keep these headers' keeps them")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        origin, name, _ = self.kept[int(event.option.id or 0)]
        self.dismiss((origin, name))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self.logins) if action == "token" else True

    def action_token(self) -> None:
        from explorer.ui.dialogs.token_view import TokenViewDialog

        if self.logins:
            login = self.logins[0]
            self.app.push_screen(TokenViewDialog(lambda shown: login.view(show_token=shown)))

    def action_close(self) -> None:
        self.dismiss(None)
