"""A login's token, for a person: what it is, how long it lasts, each claim explained.

The view is the core's (:func:`explorer.core.oauth.claims.token_view`); the countdown
to its expiry is redrawn every second. The token itself is not shown until ``t``
asks for it. Claims are server text: shown as plain text, through the
control-character filter.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from explorer.core.oauth.claims import ClaimLine, TokenView
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar

__all__ = ["TokenViewDialog", "token_table"]


def _rows(table: Table, title: str, rows: tuple[ClaimLine, ...]) -> None:
    if not rows:
        return
    table.add_row(Text(title, style="bold"), "", "")
    for row in rows:
        table.add_row(
            Text(visible_line(row.name)), Text(visible_line(row.value)), Text(row.meaning)
        )


def token_table(view: TokenView) -> Table:
    """The view as a table: the token's facts, then its header, claims and ID token's."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    table.add_column(style="dim")
    facts = (
        ("token", view.kind),
        ("status", view.status),
        ("scope", view.scope),
        ("renewal", view.renewal),
    )
    for name, value in facts:
        table.add_row(Text(name, style="bold"), Text(visible_line(value)), "")
    _rows(table, "header", view.header)
    _rows(table, "claims", view.claims)
    _rows(table, "ID token", view.id_claims)
    if view.token is not None:
        table.add_row(Text("the token", style="bold"), Text(view.token), "")
    return table


class TokenViewDialog(ModalScreen[None]):
    """A login's token view; ``t`` shows the token itself, Escape closes."""

    DEFAULT_CSS = """
    TokenViewDialog { align: center middle; }
    TokenViewDialog > VerticalScroll {
        width: 95%; max-width: 140; height: auto; max-height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("t", "show_token", "Show the token"),
    ]

    def __init__(self, view: Callable[[bool], TokenView | None]) -> None:
        super().__init__()
        self.view = view
        self.show_token = False

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(id="token-view")
        yield KeyBar()

    def on_mount(self) -> None:
        self._draw()
        self.set_interval(1, self._draw)

    def _draw(self) -> None:
        view = self.view(self.show_token)
        shown = self.query_one("#token-view", Static)
        if view is None:
            shown.update("Not logged in by OAuth 2.0 any more.")
            return
        title = Text.assemble(("OAuth 2.0 login ", "bold"), visible_line(view.login), "\n")
        shown.update(Group(title, token_table(view)))

    def action_show_token(self) -> None:
        self.show_token = not self.show_token
        self._draw()

    def action_close(self) -> None:
        self.dismiss(None)
