"""What the session keeps: credentials, API versions, kept headers and cookies.

Enter on a kept header stops sending it: the dialog returns ``(origin, name)``
for the browser screen to drop. Cookie values and credentials are not shown.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

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

    BINDINGS = [Binding("escape", "close", "Close")]

    def __init__(self, session: Session, cookies: list[tuple[str, str, str]]) -> None:
        super().__init__()
        self.session = session
        self.cookies = cookies
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

    def action_close(self) -> None:
        self.dismiss(None)
