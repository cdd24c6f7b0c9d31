"""Response headers in a table; the highlighted one is explained underneath."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from explorer.core.knowledge.headers import header_info

NAME_WIDTH = 26
VALUE_WIDTH = 120


class HeadersView(Vertical):
    """Name/value rows; moving onto a row explains it, Enter asks for the full entry."""

    DEFAULT_CSS = """
    HeadersView > DataTable { height: 1fr; }
    HeadersView > #header-note { height: auto; max-height: 5; padding: 0 1; color: $text-muted; }
    """

    class Explain(Message):
        """The user asked for the full explanation of header ``name``."""

        def __init__(self, name: str) -> None:
            super().__init__()
            self.name = name

    def compose(self) -> ComposeResult:
        table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=True)
        # Fixed widths: a table drawn between adding rows and measuring them
        # would keep columns as narrow as their labels.
        table.add_column("Header", width=NAME_WIDTH)
        table.add_column("Value", width=VALUE_WIDTH)
        yield table
        yield Static("", id="header-note")

    def show_headers(self, headers: tuple[tuple[str, str], ...]) -> None:
        """Replace the rows with ``headers`` in the order received."""
        table = self.query_one(DataTable)
        table.clear()
        for index, (name, value) in enumerate(headers):
            table.add_row(name, value, key=f"{index}:{name}")
        self.query_one("#header-note", Static).update(
            "Move onto a header to see what it means; Enter explains it fully."
            if headers
            else "No headers."
        )

    def _name_of(self, key: str | None) -> str:
        return (key or "").split(":", 1)[-1]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        name = self._name_of(event.row_key.value)
        info = header_info(name)
        note = f"{info.name}: {info.meaning}" if info else f"{name}: no entry in restwalk's notes."
        self.query_one("#header-note", Static).update(note + "  (Enter: more)")

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.post_message(self.Explain(self._name_of(event.row_key.value)))
