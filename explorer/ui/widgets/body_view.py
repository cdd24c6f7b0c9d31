"""BodyView: a response body, or any text, in a :class:`~explorer.ui.widgets.text_view.TextView`.

The text view draws what it is given, where it is visible; this view decides what
that is. A body is formatted (pretty JSON, highlighted text, binary summarized): up
to :data:`INLINE_FORMAT_LIMIT` at once, a larger one in a thread worker while the
top of the document, re-indented from its first bytes, is shown at once.

A search (:meth:`BodyView.search`) runs in a thread worker too, a block of
lines at a time (:mod:`explorer.core.text.text_search`; a regular expression or a
large text in a child process, :mod:`explorer.core.bodies.search_process`, which
closing the search kills), and streams its matches to the view: the first one is
shown as soon as it is found, the count grows as the rest are, up to the bound
a search keeps. A filter's result (:meth:`BodyView.show_filtered`) replaces the text
shown until :meth:`BodyView.unfilter` brings the body back.
"""

from __future__ import annotations

import re
import sys
from collections import OrderedDict
from functools import partial

from textual import work
from textual.message import Message
from textual.worker import get_current_worker

from explorer.core.bodies.display import (
    DisplayText,
    decoded,
    format_body,
    format_text,
    quick_json_lines,
)
from explorer.core.bodies.memory import one_large_parse
from explorer.core.bodies.search_process import search_text
from explorer.core.text.sizes import size_text
from explorer.core.text.text_search import Match, SearchError, TextSearch
from explorer.ui.let_go import let_go
from explorer.ui.painted import call_after_paint
from explorer.ui.widgets.text_view import INLINE_FORMAT_LIMIT, PYGMENTS_MODULE, TextView

__all__ = ["INLINE_FORMAT_LIMIT", "BodyView"]


class BodyView(TextView, can_focus=True):
    """Shows a body (pretty, highlighted) or any text, scrolling smoothly at any size."""

    DEFAULT_CSS = """
    BodyView {
        background: $surface;
        color: $text;
        overflow: auto auto;
        &:focus { background-tint: $foreground 5%; }
    }
    """

    class SearchChanged(Message):
        """Matches were found, or the current match moved: the count to show is new."""

        def __init__(self, view: BodyView) -> None:
            super().__init__()
            self.view = view

    class Ready(Message, bubble=False):
        """A body formatted off the UI thread is shown whole (its line count is final).

        A body formatted at once (every page of a few hundred kB) says nothing: nothing
        in the app listens, and each followed page's message woke the view's message
        loop between the page given to the widgets and its frame. Handled on the view
        itself: it does not go up to its containers."""

        def __init__(self, view: BodyView, lines: int) -> None:
            super().__init__()
            self.view = view
            self.lines = lines

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.formatting = False
        #: Bumped by each new body: a format result for an older one is dropped.
        self._body_generation = 0
        #: The body's own text while a filter's result is shown instead.
        self._unfiltered: DisplayText | None = None
        self._awaiting_format = False
        #: Formatted while a filter's result was shown: Ready is said once it is shown.
        self._ready_due = False

    # -- public interface ------------------------------------------------------------------

    @property
    def filtered(self) -> bool:
        """True while a filter's result is shown instead of the body."""
        return self._unfiltered is not None

    def clear(self) -> None:
        """Show nothing."""
        self._new_body()
        self._set(DisplayText(b""), ())

    def show_text(self, text: str, language: str | None = None) -> None:
        """Show ``text`` as it is, highlighted as ``language`` (a pygments alias), from its top."""
        self._new_body()
        self._scroll_home()
        self._set(format_text(text, language), ())

    def show(self, body: bytes, media_type: str | None, charset: str = "utf-8") -> None:
        """Show a response body from its top: JSON pretty-printed, text highlighted, binary
        summarized; text in another ``charset`` than UTF-8 decoded from it."""
        self._new_body()
        self._scroll_home()
        if len(body) <= INLINE_FORMAT_LIMIT:
            formatted = format_body(body, media_type, charset=charset)
            self._set(formatted, formatted.notes)
            return
        generation = self._set_placeholder(body, media_type, charset)
        # Start after the top is painted: parsing holds the GIL for a while.
        # A newer body meanwhile makes this one's result stale (see _formatted).
        call_after_paint(
            self, partial(self._format_in_thread, generation, body, media_type, charset)
        )

    def show_display(self, text: DisplayText) -> None:
        """Show ``text``, prepared off the UI thread (pages stacked by ``+``), from its top."""
        self._new_body()
        self._scroll_home()
        self._set(text, text.notes)

    def show_filtered(self, text: DisplayText) -> None:
        """Show a filter's result in place of the body (which :meth:`unfilter` brings back)."""
        if self._unfiltered is None:
            self._unfiltered = self._text
        self._scroll_home()
        self._set(text, text.notes)

    def unfilter(self) -> None:
        """Show the body again after a filter's result."""
        if self._unfiltered is not None:
            text, self._unfiltered = self._unfiltered, None
            self._scroll_home()
            self._set(text, text.notes, final=not self._awaiting_format)
            if self._ready_due:  # (formatted while a filter's result was shown)
                self._ready_due = False
                self.post_message(self.Ready(self, self.line_count))

    # -- loading ---------------------------------------------------------------------------

    def _new_body(self) -> None:
        self._body_generation += 1
        self._unfiltered = None
        self._awaiting_format = False
        self._ready_due = False
        self.cursor_line = None

    def _scroll_home(self) -> None:
        """A new text starts at its top, whatever the last one was scrolled to."""
        self.scroll_home_now()

    def _set(self, text: DisplayText, notes: tuple[str, ...], *, final: bool = True) -> int:
        self._generation += 1
        self._text = text
        self._notes = notes
        # The last body's lines are freed after the frame that shows this one (let_go).
        let_go((self._highlighted, self._drawn))
        self._highlighted = OrderedDict()
        self._drawn = {}
        self._language = text.language
        self._lexer = None
        self._lexer_looked_up = False
        if PYGMENTS_MODULE in sys.modules:
            # Looked up now, so its rows are highlighted as first drawn; only the first
            # body of all (the first screen's) is drawn plain while pygments is imported.
            self._look_up_lexer()
        self._width = max([text.width, *(len(n) for n in notes)], default=0)
        self.formatting = not final
        self._wrap_index = None
        self._rewrap()
        if self._search.pattern is not None:
            self.search(self._search.pattern)  # the same search, in the new text
        self.refresh()
        return self._generation

    def _set_placeholder(self, body: bytes, media_type: str | None, charset: str) -> int:
        size = size_text(len(body))
        head = body.lstrip()[:1]
        if (media_type and media_type.endswith("json")) or head in (b"{", b"["):
            preview = "\n".join(quick_json_lines(body, max_lines=max(self.size.height, 100) * 2))
            text = format_text(preview, "json")
        else:
            text = format_text(decoded(body[:65536], charset), None)
        text.notes = (f"Formatting {size}; the top is shown meanwhile.",)
        self._set(text, text.notes, final=False)
        self._awaiting_format = True
        return self._body_generation

    # An explicit description: by default Textual builds one from the arguments,
    # and the repr of a 20 MB body costs the UI thread a tenth of a second.
    @work(thread=True, exclusive=True, group="format", description="format body")
    def _format_in_thread(
        self, generation: int, body: bytes, media_type: str | None, charset: str
    ) -> None:
        with one_large_parse(len(body)):
            formatted = format_body(body, media_type, charset=charset)
        # Decoded here, the top's lines cost the UI thread nothing when first drawn (a
        # 50 MB line takes a quarter of a second; the text keeps it decoded).
        formatted.lines(0, max(self.size.height, 1))
        self.app.call_from_thread(self._formatted, generation, formatted)

    def _formatted(self, generation: int, formatted: DisplayText) -> None:
        if generation != self._body_generation:
            return  # a newer body replaced this one meanwhile
        self._awaiting_format = False
        if self._unfiltered is not None:  # a filter's result is shown: the body waits
            self._unfiltered = formatted
            self._ready_due = True
            return
        self._set(formatted, formatted.notes)
        self.post_message(self.Ready(self, self.line_count))

    # -- searching -------------------------------------------------------------------------

    @property
    def search_status(self) -> str:
        """``3 of 41``, ``no match``, ``12 so far``: the count the find bar shows."""
        return self._search.status

    @property
    def search_note(self) -> str:
        """A remark on the count (only the first matches kept), or ""."""
        return self._search.note

    @property
    def search_error(self) -> bool:
        """True when the search could not run (:attr:`search_status` says why)."""
        return self._search.error is not None

    def search(self, pattern: re.Pattern[str] | None) -> None:
        """Find ``pattern`` in the text shown (None: stop searching), in a thread worker
        (the last search, if running, is stopped); the first match at or after the top
        line shown becomes the current one."""
        self._search = TextSearch(pattern)
        self.workers.cancel_group(self, "search")
        if pattern is not None:
            self._search_in_thread(self._search, self._text, pattern)
        self.post_message(self.SearchChanged(self))
        self.refresh()

    def step_match(self, step: int) -> None:
        """Go ``step`` matches on (or back), round the end, and scroll to it."""
        if self._search.step(step, self._top_line()):
            self._show_current()

    @work(thread=True, exclusive=True, group="search", description="search")
    def _search_in_thread(
        self, search: TextSearch, text: DisplayText, pattern: re.Pattern[str]
    ) -> None:
        worker = get_current_worker()

        def report(batch: list[Match], done: bool) -> None:
            self.app.call_from_thread(self._found, search, batch, done)

        try:
            search_text(pattern, text, report, cancelled=lambda: worker.is_cancelled)
        except SearchError as error:
            self.app.call_from_thread(self._search_failed, search, error.message)

    def _search_failed(self, search: TextSearch, message: str) -> None:
        if search is self._search:
            search.fail(message)
            self.post_message(self.SearchChanged(self))

    def _found(self, search: TextSearch, batch: list[Match], done: bool) -> None:
        if search is not self._search:
            return  # a newer search (or text) replaced this one
        if search.add(batch, done, self._top_line()):
            self._show_current()
        self.post_message(self.SearchChanged(self))
        self.refresh()

    def _show_current(self) -> None:
        """Scroll the current match into view (a third from the top) and put the cursor on it."""
        match = self.current_match
        if match is None:
            return
        self.cursor_line = match.line
        row = self._row_of(match.line, match.start)
        top = int(self.scroll_offset.y)
        height = max(self.size.height, 1)
        y = top if top <= row < top + height else max(row - height // 3, 0)
        left = int(self.scroll_offset.x)
        width = max(self.size.width, 1)
        x = left if left <= match.start and match.end <= left + width else max(match.start - 8, 0)
        if self._wrap_index is not None:
            x = 0
        self.scroll_to(x, y, animate=False, immediate=True, force=True)
        self.post_message(self.SearchChanged(self))
        self.refresh()
