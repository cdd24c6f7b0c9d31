"""StreamView: a stream's events as rows while they come, the one under the cursor in full.

A row per event (server-sent events: the time it came, its number, type, id and
data; JSON lines and the others: time, number, data), drawn from the tab's
:class:`~explorer.core.streams.kept.KeptEvents` as it grows (a
:class:`~explorer.ui.widgets.row_table.RowTable` makes a line of a row only when it
is drawn), redrawn at most :data:`REFRESH` times a second however fast they come.
The row under the cursor is shown below it whole, JSON indented. While the cursor
is on the last row, it follows the newest.

A line above the rows says what is happening: reading, the view paused (``p``:
reading goes on, the view stays as it was), a connection resumed after the
server's ``retry`` with ``Last-Event-ID``, the stream ended, and how many older
events were dropped to keep memory bounded. A search (``/``, through the response
tabs) finds the rows that hold it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar, overload

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from explorer.core.http.stream_reading import StreamNote
from explorer.core.session.live_stream import LiveStream, StreamItem
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.framing import Framing
from explorer.core.streams.shown import clock_time, dropped_text, event_body, event_row
from explorer.core.text.plural import counted
from explorer.core.text.sizes import size_text
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.row_search import RowSearch
from explorer.ui.widgets.row_table import RowTable

__all__ = ["REFRESH", "StreamView"]

#: Redraws a second, at most.
REFRESH = 10
#: The columns of an event stream's rows, and of the other framings'.
SSE_COLUMNS = (("Time", 12), ("#", 5), ("Type", 16), ("Id", 12), ("Data", 200))
PLAIN_COLUMNS = (("Time", 12), ("#", 5), ("Data", 200))


class _Rows(Sequence[tuple[str, ...]]):
    """The events as rows, made when drawn (the events: the kept ones, or a snapshot)."""

    def __init__(self, events: Sequence[StreamEvent], sse: bool) -> None:
        self.events = events
        self.sse = sse

    def __len__(self) -> int:
        return len(self.events)

    @overload
    def __getitem__(self, index: int) -> tuple[str, ...]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[str, ...]]: ...
    def __getitem__(self, index: int | slice) -> tuple[str, ...] | Sequence[tuple[str, ...]]:
        if isinstance(index, slice):
            return [self[n] for n in range(*index.indices(len(self)))]
        event = self.events[index]
        start = (clock_time(event.arrived), str(event.number))
        if self.sse:
            return (*start, event.type, event.id, event_row(event))
        return (*start, event_row(event))


class StreamView(Vertical):
    """The rows of a stream's events, a line of what is happening, the event under the
    cursor in full."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "p",
            "pause",
            "Pause",
            tooltip="Pause the view of the stream (reading goes on), or show it live again",
        ),
    ]
    DEFAULT_CSS = """
    StreamView { height: 1fr; }
    StreamView > #stream-note { height: auto; max-height: 3; padding: 0 1; background: $boost; }
    StreamView > RowTable { height: 2fr; }
    StreamView > #stream-event { height: auto; max-height: 2; padding: 0 1; background: $panel; }
    StreamView > #stream-detail { height: 1fr; }
    """

    class Progress(Message):
        """The view was brought up to date: ``live`` read on (the status line counts it)."""

        def __init__(self, live: LiveStream) -> None:
            super().__init__()
            self.live = live

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.live: LiveStream | None = None
        #: True while the view stays as it was (reading goes on).
        self.paused = False
        self._reading = False
        self._rows = _Rows((), sse=True)
        self._dirty = False
        #: Rows at the last redraw.
        self._drawn = 0
        self._note = ""
        self._timer: Timer | None = None
        self._search = RowSearch("event")
        # An event stream's rows have a type and an id; the other framings' do not.
        self._tables = {
            True: RowTable(SSE_COLUMNS, id="stream-rows"),
            False: RowTable(PLAIN_COLUMNS, id="stream-lines"),
        }
        self._tables[False].display = False
        self._note_line = Static("", id="stream-note")
        self._event_line = Static("", id="stream-event")
        #: The event under the cursor, in full (or a filter's result).
        self.detail = BodyView(id="stream-detail")

    def compose(self) -> ComposeResult:
        yield self._note_line
        yield from self._tables.values()
        yield self._event_line
        yield self.detail

    @property
    def table(self) -> RowTable:
        """The rows."""
        return self._tables[self._rows.sse]

    # -- attributes down: the stream, and what comes of it ---------------------------------------

    def watch_stream(self, live: LiveStream) -> None:
        """Show ``live``'s events from now on, as they come."""
        self.live = live
        self.paused = False
        self._reading = True
        self._note = "reading: each event is a row as it comes (Escape stops, p pauses the view)"
        sse = live.framing is Framing.SSE
        self._tables[sse].display = True
        self._tables[not sse].display = False
        self._rows = _Rows(live.kept, sse)
        self._drawn = 0
        self.table.set_rows(self._rows)
        self._heading("The event under the cursor is shown below in full.")
        self.detail.clear()
        if self._timer is None:
            self._timer = self.set_interval(1 / REFRESH, self._update)
        self._say()

    def add(self, item: StreamItem) -> None:
        """An event or a note came: shown at the next redraw (a note says what happened)."""
        self._dirty = True
        if isinstance(item, StreamNote):
            self._note = item.text

    def stopped(self, why: str) -> None:
        """Reading stopped (``why``): the rows stay, the view is brought up to date (a view
        paused shows all that came)."""
        self._reading = False
        if self.paused:
            self.action_pause()
        self._note = why
        self._dirty = True
        self._update()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _update(self) -> None:
        if not self._dirty or self.live is None:
            return
        self._dirty = False
        if not self.paused:
            table = self.table
            following = table.cursor_row >= self._drawn - 1  # on the newest: it follows
            table.rows_changed()
            self._drawn = last = len(self._rows)
            if following and last:
                if table.cursor_row == last - 1:
                    self._show_detail(last - 1)  # the row is the same, its event new
                else:
                    table.move_cursor(last - 1)
        self._say()
        self.post_message(self.Progress(self.live))

    def _say(self) -> None:
        live = self.live
        if live is None:
            return
        lines = []
        if self.paused:
            shown = counted(len(self._rows), "event")
            lines.append(f"⏸ the view is paused at {shown} (p shows it live): reading goes on")
        lines.append(visible_line(self._note))
        if live.kept.dropped:
            lines.append(dropped_text(live.kept.dropped))
        self._note_line.update(Text("\n".join(lines)))

    # -- keys ------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``p`` applies while a stream is read."""
        if action == "pause":
            return self._reading and self.display
        return True

    def action_pause(self) -> None:
        """Keep the view as it is while reading goes on, or show it live again."""
        live = self.live
        if live is None:
            return
        self.paused = not self.paused
        if self.paused:  # a snapshot: what the rows hold stays as it is
            self._rows = _Rows(tuple(live.kept), self._rows.sse)
        else:
            self._rows = _Rows(live.kept, self._rows.sse)
        self._drawn = len(self._rows)
        self.table.set_rows(self._rows)
        self.table.move_cursor(len(self._rows) - 1)
        self._say()

    def on_row_table_highlighted(self, event: RowTable.Highlighted) -> None:
        event.stop()
        self._show_detail(event.row)

    def on_row_table_selected(self, event: RowTable.Selected) -> None:
        event.stop()

    def _show_detail(self, row: int) -> None:
        if not 0 <= row < len(self._rows):
            return
        event = self._rows.events[row]
        heading = f"#{event.number}  {clock_time(event.arrived)}"
        if event.type:
            heading += f"  {event.type}"
        if event.id:
            heading += f"  id {event.id}"
        heading += f"  ({size_text(event.size)})"
        if event.cut:
            heading += f"; {size_text(event.cut)} of it left out (over the limit)"
        if event.problem:
            heading += f"; {event.problem}"
        self._heading(heading)
        self.detail.show_text(event_body(event), "json" if event.is_json else None)

    def _heading(self, text: str) -> None:
        self._event_line.update(Text(visible_line(text)))

    # -- searching: the rows that hold the pattern, the cursor on the current one ----------------

    @property
    def search_status(self) -> str:
        """``2 of 5 events``, ``no match``: the count the find bar shows."""
        return self._search.status

    def search(self, pattern: re.Pattern[str] | None) -> None:
        """Find ``pattern`` in the events shown (type, id, data); the cursor to the first."""
        texts = (f"{event.type} {event.id} {event.data}" for event in self._rows.events)
        row = self._search.find(pattern, texts)
        if row is not None:
            self.table.move_cursor(row)

    def step_match(self, step: int) -> None:
        """Move the cursor ``step`` matching events on, round the end."""
        row = self._search.step(step)
        if row is not None:
            self.table.move_cursor(row)
