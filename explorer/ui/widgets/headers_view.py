"""Response headers in a table; the highlighted one is explained underneath.

Names and values are the server's: shown as plain text, control characters visible.
"""

from __future__ import annotations

import re

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static

from explorer.core.knowledge.headers import header_info
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.row_search import RowSearch
from explorer.ui.widgets.row_table import RowTable

NAME_WIDTH = 26
VALUE_WIDTH = 120


class HeadersView(Vertical):
    """Name/value rows; moving onto a row explains it, Enter asks for the full entry."""

    DEFAULT_CSS = """
    HeadersView > RowTable { height: 1fr; }
    HeadersView > #header-note { height: auto; max-height: 5; padding: 0 1; color: $text-muted; }
    """

    class Explain(Message):
        """The user asked for the full explanation of header ``name``."""

        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names: tuple[str, ...] = ()
        self.headers: tuple[tuple[str, str], ...] = ()
        self._search = RowSearch("header")

    def compose(self) -> ComposeResult:
        yield RowTable((("Header", NAME_WIDTH), ("Value", VALUE_WIDTH)))
        yield Static("", id="header-note")

    def show_headers(self, headers: tuple[tuple[str, str], ...]) -> None:
        """Replace the rows with ``headers`` in the order received."""
        self.names = tuple(name for name, _value in headers)
        self.headers = headers
        self.query_one(RowTable).set_rows(headers)
        self.query_one("#header-note", Static).update(
            "Move onto a header to see what it means; Enter explains it fully."
            if headers
            else "No headers."
        )

    # -- searching: the rows whose "name: value" matches, the cursor on the current one --------

    @property
    def table(self) -> RowTable:
        """The table of headers."""
        return self.query_one(RowTable)

    @property
    def search_status(self) -> str:
        """``2 of 5 headers``, ``no match``: the count the find bar shows."""
        return self._search.status

    def search(self, pattern: re.Pattern[str] | None) -> None:
        """Find ``pattern`` in each header as ``name: value``; the cursor goes to the first."""
        row = self._search.find(pattern, (f"{name}: {value}" for name, value in self.headers))
        if row is not None:
            self.table.move_cursor(row)

    def step_match(self, step: int) -> None:
        """Move the cursor ``step`` matching headers on, round the end."""
        row = self._search.step(step)
        if row is not None:
            self.table.move_cursor(row)

    def on_row_table_highlighted(self, event: RowTable.Highlighted) -> None:
        event.stop()
        name = self.names[event.row]
        info = header_info(name)
        note = f"{info.name}: {info.meaning}" if info else f"{name}: no entry in restwalk's notes."
        self.query_one("#header-note", Static).update(Text(visible_line(note) + "  (Enter: more)"))

    def on_row_table_selected(self, event: RowTable.Selected) -> None:
        event.stop()
        self.post_message(self.Explain(self.names[event.row]))
