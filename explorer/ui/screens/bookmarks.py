"""The bookmarks: each rel path by name; Enter walks one again, d forgets it.

The list is read when the screen opens. A bookmarks file that cannot be used
is shown as its one-line problem (and left as it is).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from explorer.core.storage.bookmarks import Bookmark, BookmarksError, BookmarkStore
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.row_table import RowTable

COLUMNS: tuple[tuple[str, int], ...] = (("name", 24), ("path from the entry point", 200))


class BookmarksScreen(ModalScreen[Bookmark | None]):
    """Every bookmark; the one chosen is the result, for the browser to walk."""

    DEFAULT_CSS = """
    BookmarksScreen { align: center middle; }
    BookmarksScreen > Vertical {
        width: 95%; max-width: 120; height: 80%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    BookmarksScreen RowTable { height: 1fr; }
    BookmarksScreen #bookmarks-note { height: auto; color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("d,delete", "delete", "Delete", tooltip="Forget the bookmark under the cursor"),
    ]

    def __init__(self, store: BookmarkStore) -> None:
        super().__init__()
        self.store = store
        self.bookmarks: list[Bookmark] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label("Bookmarks: Enter walks the links again from the entry point", markup=False)
            yield RowTable(COLUMNS, id="bookmarks-table")
            yield Static("", id="bookmarks-note", markup=False)
        yield KeyBar()

    def on_mount(self) -> None:
        self._fill()
        self.query_one(RowTable).focus()

    def _fill(self) -> None:
        try:
            self.bookmarks = self.store.all()
        except BookmarksError as error:
            self.bookmarks = []
            self._note(f"{error}. Fix or move the file: restwalk does not write over it.")
            self.query_one(RowTable).set_rows([])
            return
        rows = [
            (visible_line(b.name), visible_line(f"{b.path.entry} > {_steps(b)}"))
            for b in self.bookmarks
        ]
        self.query_one(RowTable).set_rows(rows)
        if not self.bookmarks:
            self._note("No bookmarks yet: m on a page bookmarks the links that lead to it.")
        else:
            self._note(f"Kept in {self.store.path}; d forgets the one under the cursor.")

    def _note(self, text: str) -> None:
        self.query_one("#bookmarks-note", Static).update(text)

    @on(RowTable.Selected, "#bookmarks-table")
    def _chosen(self, event: RowTable.Selected) -> None:
        if 0 <= event.row < len(self.bookmarks):
            self.dismiss(self.bookmarks[event.row])

    def action_delete(self) -> None:
        table = self.query_one(RowTable)
        if not 0 <= table.cursor_row < len(self.bookmarks):
            return
        name = self.bookmarks[table.cursor_row].name
        try:
            self.store.delete(name)
        except BookmarksError as error:
            self._note(str(error))
            return
        self.notify(f"Forgot the bookmark {name!r}.")
        self._fill()

    def action_close(self) -> None:
        self.dismiss(None)


def _steps(bookmark: Bookmark) -> str:
    return " > ".join(step.follow for step in bookmark.path.steps) or "(the entry point)"
