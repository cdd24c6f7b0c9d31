"""The history screen: every kept exchange, newest first, searched as you type.

The search line reads the words of :mod:`explorer.core.storage.history_query`
(URL text, ``GET``, ``404`` or ``4xx``, ``since:2h``). Enter on an entry closes
the screen with its id, for the browser to reopen it; ctrl+e exports the
entries listed as a HAR file. SQLite is read off the UI thread; a newer search
drops an older one's answer.

Enter opens a row of the list the search line asks for, or nothing: while the
answer to what was just typed is on its way, the rows shown are an older
search's, and a choice among them (or one made on a list replaced since) is
refused with a note.
"""

from __future__ import annotations

import time

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Static

from explorer.core.storage.history import HistoryError, HistoryStore
from explorer.core.storage.history_entry import HistoryEntry
from explorer.core.storage.history_query import HistoryQuery, QueryError, parse_query
from explorer.core.text.plural import noun
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.row_table import RowTable
from explorer.ui.widgets.safe_input import SafeInput

#: Entries listed at most (the newest); the search narrows the rest.
SHOWN = 500

#: The URL comes right after the status, the times and the cache mark after it: at 80
#: columns a URL's path must still show (it was cut after the host there).
COLUMNS: tuple[tuple[str, int], ...] = (
    ("time", 14),
    ("method", 7),
    ("status", 6),
    ("URL", 120),
    ("ms", 6),
    ("from", 6),
)
#: The index of the URL among :data:`COLUMNS`.
URL_COLUMN = 3


def entry_row(entry: HistoryEntry) -> tuple[str, ...]:
    """One entry as the table's cells (the URL as stored: the server's text, made visible).

    The time says the day and the second (``11-27 09:41:03``), or the date alone for an
    entry of another year. An answer of the session's cache says ``cache`` where the
    others' come from the server; a fresh one was never sent, so it took no time to
    speak of (``—``).
    """
    fresh = entry.cache == "fresh"
    moment = time.localtime(entry.at)
    this_year = moment.tm_year == time.localtime().tm_year
    return (
        time.strftime("%m-%d %H:%M:%S" if this_year else "%Y-%m-%d", moment),
        visible_line(entry.method),
        str(entry.status),
        visible_line(entry.url),
        "—" if fresh else f"{entry.duration * 1000:.0f}",
        "cache" if entry.from_cache else "",
    )


class HistoryScreen(Screen[int | None]):
    """Search the history; Enter reopens an entry in the browser (the id is the result)."""

    #: The browser's action this screen is: its key is not offered here.
    OWN_ACTIONS = frozenset({"history"})

    DEFAULT_CSS = """
    HistoryScreen #history-search { dock: top; }
    HistoryScreen #history-note { height: auto; padding: 0 1; color: $text-muted; }
    HistoryScreen RowTable { height: 1fr; }
    """

    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding(
            "ctrl+e", "export", "Export HAR", priority=True, tooltip="Export the entries as HAR"
        ),
        Binding("ctrl+f", "search", "Search", show=False),
        Binding("down", "results", "To the entries", show=False),
    ]

    def __init__(self, store: HistoryStore, *, recording: bool = True) -> None:
        super().__init__()
        self.store = store
        self.recording = recording
        self.entries: list[HistoryEntry] = []
        self.search_query = HistoryQuery()
        #: Which search was asked last, and which the shown entries answer (an older answer
        #: arriving late is dropped; Enter waits until the two are the same).
        self._asked = 0
        self._answered = 0
        #: The table's rows for :attr:`entries` (a choice made on other rows is stale).
        self._rows: list[tuple[str, ...]] = []
        #: Why the last search got no answer (a bad word, an unreadable file), if it did not.
        self._problem = ""

    def compose(self) -> ComposeResult:
        yield SafeInput(
            placeholder="Search: URL text, GET, 404 or 4xx, since:2h, until:2026-11-27",
            id="history-search",
        )
        yield Static("", id="history-note", markup=False)
        yield RowTable(COLUMNS, id="history-table")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#history-search", Input).focus()
        self.search("")

    def on_key(self, event: events.Key) -> None:
        """A character typed in the table goes to the search line, as on the learn screen."""
        search = self.query_one("#history-search", Input)
        if event.is_printable and event.character and self.focused is not search:
            event.stop()
            event.prevent_default()
            search.focus()
            search.insert_text_at_cursor(event.character)

    @on(Input.Changed, "#history-search")
    def _typed(self, event: Input.Changed) -> None:
        self.search(event.value)

    @on(Input.Submitted, "#history-search")
    def _to_table(self) -> None:
        self.action_results()

    def search(self, text: str) -> None:
        """List the entries ``text`` asks for (read on a thread)."""
        self._asked += 1  # an answer on its way for older words is dropped
        self._problem = ""
        try:
            query = parse_query(text)
        except QueryError as error:
            self._failed(str(error), self._asked)
            return
        self._read(query, self._asked)

    @work(thread=True, exclusive=True, group="history-read")
    def _read(self, query: HistoryQuery, asked: int) -> None:
        try:
            entries = self.store.search(query, limit=SHOWN)
            total = self.store.count(query) if len(entries) == SHOWN else len(entries)
        except HistoryError as error:
            self.app.call_from_thread(self._failed, str(error), asked)
            return
        self.app.call_from_thread(self._show, query, entries, total, asked)

    def _show(
        self, query: HistoryQuery, entries: list[HistoryEntry], total: int, asked: int
    ) -> None:
        if asked != self._asked:
            return
        self._answered = asked
        self.search_query = query
        self.entries = entries
        self._rows = [entry_row(entry) for entry in entries]
        self.query_one(RowTable).set_rows(self._rows)
        shown = f"{len(entries)} of {total}" if total > len(entries) else str(total)
        what = noun(total, "entry", "entries")
        note = f"{shown} {what}, newest first. Enter reopens one; r there sends it again."
        if any(entry.from_cache for entry in entries):
            note += " From cache: the session's cache answered (— ms: nothing was sent)."
        if not total:
            note = "Nothing kept matches." if not query.empty else "Nothing kept yet."
        if not self.recording:
            note += " Recording is off ([history] enabled = false in config.toml)."
        self._note(note)

    def _failed(self, problem: str, asked: int) -> None:
        """Search ``asked`` got no list: say why (the rows shown stay, not to be chosen)."""
        if asked == self._asked:
            self._problem = problem
            self._note(problem)

    def _note(self, text: str) -> None:
        self.query_one("#history-note", Static).update(text)

    @on(RowTable.Selected, "#history-table")
    def _chosen(self, event: RowTable.Selected) -> None:
        if self._answered != self._asked or event.rows is not self._rows:
            self._note(
                self._problem
                or "Searching for what the search line says: Enter again once the list shows it."
            )
            return
        if 0 <= event.row < len(self.entries):
            self.dismiss(self.entries[event.row].id)

    def action_results(self) -> None:
        # At once, not when the queue comes to it (focus()): a second Down come with this
        # one from the terminal is then the list's, and moves to the second entry.
        self.set_focus(self.query_one(RowTable))

    def action_search(self) -> None:
        self.query_one("#history-search", Input).focus()

    def action_export(self) -> None:
        from explorer.ui.har_export import export_history

        export_history(self.app, self.store, self.search_query)

    def action_close(self) -> None:
        self.dismiss(None)
