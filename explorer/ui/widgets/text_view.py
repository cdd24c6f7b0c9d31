"""TextView: a text of any size, drawn only where it is visible.

Textual's TextArea takes about 15 s to take in 5 MB, so this view never
builds a widget, a ``Text`` or even a ``str`` per line of the text. It holds a
:class:`~explorer.core.bodies.display.DisplayText` (one ``bytes`` value indexed by
block) and, through the Line API, renders just the rows on screen: notes above the
text, its lines whole (sideways scrolling) or wrapped at the view's width (a large
text's rows indexed in a thread worker), a search's matches marked.

Syntax highlighting (pygments) runs in a thread worker, for the visible rows only,
and each highlighted row is cached; until it is ready a row shows plain (a short one
is highlighted as first drawn). Its lexer is looked up when the first rows are
highlighted, after they are drawn plain: the first screen does not wait for
pygments' import. What text is shown, and the search run in it, are the
:class:`~explorer.ui.widgets.body_view.BodyView`'s.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.geometry import Size
from textual.strip import Strip
from textual.worker import get_current_worker

from explorer.core.bodies.display import DisplayText
from explorer.core.text.text_search import Match, Matches, TextSearch
from explorer.ui.widgets.lean_strip import LeanStrip
from explorer.ui.widgets.line_view import LineView
from explorer.ui.widgets.style_sums import on_base
from explorer.ui.widgets.wrap_index import WrapIndex

if TYPE_CHECKING:
    from pygments.lexer import Lexer

    from explorer.ui.widgets.line_highlighter import LineHighlighter

#: Texts up to this size are formatted (a body) and wrapped at once, on the UI thread
#: (it takes milliseconds); larger ones in a thread worker.
INLINE_FORMAT_LIMIT = 256 * 1024
#: Rows longer than this are highlighted only around the visible columns.
LONG_ROW = 2000
#: Rows up to this long are highlighted when first drawn (some 30 us each): a page's
#: first frame is drawn highlighted, not plain and then again highlighted a frame later.
#: Longer ones are highlighted in a thread worker, so a screen of them never holds a
#: frame up.
QUICK_ROW = 200
_HIGHLIGHT_CACHE = 4000
#: Lines kept as drawn (see :meth:`TextView.render_line`), forgotten all at once past this.
_DRAWN_KEPT = 2000
_HIGHLIGHT_MARGIN = 60
#: Imported with pygments by the first body that is highlighted (not by the first screen).
PYGMENTS_MODULE = "explorer.ui.widgets.line_highlighter"
_MATCH = Style(color="black", bgcolor="yellow")
_CURRENT_MATCH = Style(color="black", bgcolor="dark_orange", bold=True)
_CURSOR = Style(bgcolor="grey30")


class TextView(LineView):
    """Draws a text (pretty, highlighted), wrapped or not, scrolling smoothly at any size."""

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._text = DisplayText(b"")
        self._notes: tuple[str, ...] = ()
        self._generation = 0
        #: The text's language (a pygments alias; None: plain text), and its lexer once
        #: looked up (see :meth:`_highlight_visible`).
        self._language: str | None = None
        self._lexer: Lexer | None = None
        self._lexer_looked_up = False
        self._highlighter: LineHighlighter | None = None
        self._highlighted: OrderedDict[int, Strip] = OrderedDict()
        #: Lines as last drawn, by (line, first cell): what they were drawn with, the strip.
        self._drawn: dict[tuple[int, int], tuple[tuple[object, ...], Strip]] = {}
        self._pending = False
        self._width = 0
        #: The search whose matches are marked (run by the body view).
        self._search = TextSearch()
        #: The line a copy takes ("the line under the cursor"): clicked, or the current match.
        self.cursor_line: int | None = None
        self._wrap = False
        self._wrap_index: WrapIndex | None = None

    # -- the text shown ----------------------------------------------------------------------

    @property
    def line_count(self) -> int:
        """How many rows the view has now (notes included)."""
        return len(self._notes) + len(self._text)

    @property
    def notes(self) -> tuple[str, ...]:
        """Remarks shown above the text (invalid JSON, bad UTF-8, still formatting...)."""
        return self._notes

    def row_text(self, row: int) -> str:
        """The plain text of ``row`` (a note or a line of the body)."""
        if row < len(self._notes):
            return self._notes[row]
        return self._text.line(row - len(self._notes))

    @property
    def wrap(self) -> bool:
        """True when long lines wrap (no sideways scrolling)."""
        return self._wrap

    def set_wrap(self, wrap: bool) -> None:
        """Wrap long lines at the view's width, or show them whole again (sideways scrolling);
        the line at the top stays at the top."""
        top = self._top_line()
        self._wrap = wrap
        self._wrap_index = None
        self._rewrap()
        self.scroll_to(0, self._row_of(top), animate=False, immediate=True, force=True)

    @property
    def text(self) -> DisplayText:
        """The text shown now (a filter's result while one is shown)."""
        return self._text

    # -- wrapping --------------------------------------------------------------------------

    def _size_virtually(self) -> None:
        index = self._wrap_index
        if index is None:
            self.size_virtually(Size(self._width, self.line_count))
        else:
            self.size_virtually(Size(index.width, len(self._notes) + index.rows))

    def _rewrap(self) -> None:
        """Index the text's rows at the view's width (a large text's in a thread)."""
        width = self.scrollable_content_region.width
        if not self._wrap or width <= 0:
            self._size_virtually()
            return
        if self._text.size <= INLINE_FORMAT_LIMIT:
            self._wrap_index = WrapIndex(self._text, width)
        else:
            self._wrap_in_thread(self._generation, self._text, width)
        self._size_virtually()
        self.refresh()

    @work(thread=True, exclusive=True, group="wrap", description="wrap lines")
    def _wrap_in_thread(self, generation: int, text: DisplayText, width: int) -> None:
        worker = get_current_worker()
        index = WrapIndex(text, width, lambda: worker.is_cancelled)
        if index.complete:
            self.app.call_from_thread(self._wrapped, generation, index)

    def _wrapped(self, generation: int, index: WrapIndex) -> None:
        if generation == self._generation and self._wrap:
            top = self._top_line()
            self._wrap_index = index
            self._size_virtually()
            self.scroll_to(0, self._row_of(top), animate=False, immediate=True, force=True)
            self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        index = self._wrap_index
        if self._wrap and (index is None or index.width != self.scrollable_content_region.width):
            self._rewrap()

    def _row_of(self, line: int, column: int = 0) -> int:
        """The screen row (of the whole text, notes included) showing character ``column``
        of ``line``."""
        index = self._wrap_index
        if index is None:
            return len(self._notes) + line
        row = index.first_row(line)
        if column:
            row += index.piece_of_column(line, self._text.line(line), column)
        return len(self._notes) + row

    def _line_at(self, row: int) -> int:
        """The line shown on screen row ``row`` (of the whole text; notes give -1)."""
        number = row - len(self._notes)
        index = self._wrap_index
        if number < 0 or index is None:
            return number
        return index.locate(number)[0]

    # -- the search's matches, the cursor ---------------------------------------------------

    @property
    def matches(self) -> Matches:
        """The matches of the search found so far."""
        return self._search.matches

    @property
    def current_match(self) -> Match | None:
        """The match the view is on, if any."""
        return self._search.current_match

    def _top_line(self) -> int:
        return max(self._line_at(int(self.scroll_offset.y)), 0)

    def on_click(self, event: events.Click) -> None:
        """A click puts the cursor on a line: the line a copy takes."""
        number = self._line_at(int(self.scroll_offset.y) + event.y)
        if 0 <= number < len(self._text):
            self.cursor_line = number
            self.refresh()

    # -- highlighting ----------------------------------------------------------------------

    @property
    def _highlights(self) -> bool:
        """True when the text is highlighted: it has a language, which has a lexer (or its
        lexer is not looked up yet)."""
        return self._language is not None and (not self._lexer_looked_up or self._lexer is not None)

    def _schedule_highlight(self) -> None:
        if self._pending or not self._highlights:
            return
        self._pending = True
        self.call_after_refresh(self._highlight_visible)

    def _look_up_lexer(self) -> None:
        from explorer.ui.widgets.line_highlighter import LineHighlighter, lexer_for

        self._lexer = lexer_for(self._language)
        self._lexer_looked_up = True
        if self._lexer is not None and self._highlighter is None:
            self._highlighter = LineHighlighter()

    def _highlight_visible(self) -> None:
        self._pending = False
        if not self._lexer_looked_up:  # (after the rows were drawn plain: pygments now)
            self._look_up_lexer()
        if self._lexer is None:
            return
        top = max(int(self.scroll_offset.y) - len(self._notes) - _HIGHLIGHT_MARGIN, 0)
        bottom = int(self.scroll_offset.y) + self.size.height + _HIGHLIGHT_MARGIN
        wanted = [
            n
            for n in range(top, min(bottom, len(self._text)))
            if n not in self._highlighted and len(self._text.line(n)) <= LONG_ROW
        ]
        if wanted:
            self._highlight_rows(self._generation, self._text, self._lexer, wanted)

    @work(thread=True, exclusive=True, group="highlight", description="highlight rows")
    def _highlight_rows(
        self, generation: int, text: DisplayText, lexer: Lexer, rows: list[int]
    ) -> None:
        highlighter = self._highlighter
        assert highlighter is not None  # (made with the lexer)
        done = {n: highlighter.strip(lexer, text.line(n)) for n in rows}
        self.app.call_from_thread(self._highlighted_rows, generation, done)

    def _highlighted_rows(self, generation: int, done: dict[int, Strip]) -> None:
        if generation != self._generation:
            return
        self._highlighted.update(done)
        self._trim_highlighted()
        self.refresh()

    def _trim_highlighted(self) -> None:
        """Forget the rows highlighted longest ago, past the rows kept."""
        while len(self._highlighted) > _HIGHLIGHT_CACHE:
            self._highlighted.popitem(last=False)

    # -- rendering -------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Row ``y`` of the widget: the note, highlighted line, or plain line under it (or
        the piece of it on that row, when wrapping), with the search's matches marked."""
        scroll_x, scroll_y, _ = self.view
        row = scroll_y + y
        width = self.drawn_width
        base = self.base_style
        notes = len(self._notes)
        index = self._wrap_index
        if row < notes:
            note = self._notes[row]
            style = base + Style(color="yellow", italic=True)
            return Strip([Segment(note, style)]).crop_extend(scroll_x, scroll_x + width, base)
        if index is not None:
            if row - notes >= index.rows:
                return Strip.blank(width, base)
            number, piece = index.locate(row - notes)
            line = self._text.line(number)
            left, right = index.piece_range(number, line, piece)
        else:
            if row >= self.line_count:
                return Strip.blank(width, base)
            number = row - notes
            line = self._text.line(number)
            if len(line) > self._width:
                self._width = len(line)
                self._size_virtually()
            left, right = scroll_x, scroll_x + width
        if number == self.cursor_line:
            base += _CURSOR
        # A line drawn in its final form (highlighted, or never to be; no match marked) is
        # kept for what it was drawn with: a scroll or a repaint draws it again for nothing.
        marks = bool(self._search.matches)
        kept = None if marks else self._drawn.get((number, left))
        if kept is not None and kept[0] == (
            self._generation,
            self._highlighted.get(number),
            right,
            width,
            base,
        ):
            return kept[1]
        strip = self._line_strip(number, line, left, right)
        # (Strip.apply_style and .extend_cell_length in one: one strip made, not two)
        segments = on_base(strip, base)
        length = strip.cell_length
        if length < width:
            segments.append(Segment(" " * (width - length), base))
        drawn = LeanStrip(segments, max(length, width))
        highlighted = self._highlighted.get(number)
        if not marks and (highlighted is not None or not self._highlights or len(line) > LONG_ROW):
            if len(self._drawn) >= _DRAWN_KEPT:
                self._drawn.clear()
            self._drawn[number, left] = ((self._generation, highlighted, right, width, base), drawn)
        return drawn

    def _line_strip(self, number: int, line: str, left: int, right: int) -> Strip:
        """Cells ``left`` to ``right`` of line ``number``: highlighted, matches marked."""
        highlighted = self._highlighted.get(number)
        if highlighted is None and self._highlights and len(line) <= LONG_ROW:
            if self._lexer is not None and self._highlighter and len(line) <= QUICK_ROW:
                highlighted = self._highlighted[number] = self._highlighter.strip(self._lexer, line)
                self._trim_highlighted()
            else:
                self._schedule_highlight()
        matches = self._search.matches
        # Only the matches in view: a long line may hold every match kept.
        shown = matches.on_line(number, left, right) if matches else []
        if not shown:  # nothing to mark: the segments as they are (a Text costs 5x more)
            if highlighted is not None:
                return highlighted.crop(left, right)
            if line.isascii():  # (a cell a character; cut to the view: a line may be megabytes)
                piece = line[left:right]
                return LeanStrip([Segment(piece)], len(piece))
        if highlighted is None and (len(line) > LONG_ROW or (not shown and line.isascii())):
            # Cut to the view first (a long line may be megabytes): only that is styled.
            text = Text(line[left:right], no_wrap=True, end="")
            self._mark(text, number, shown, -left)
            return Strip(list(text.render(self.app.console)), text.cell_len)
        # A short line, styled whole then cut (``left`` and ``right`` count cells).
        if highlighted is not None:
            text = Text.assemble(*((s.text, s.style or "") for s in highlighted), end="")
            text.no_wrap = True
        else:
            text = Text(line, no_wrap=True, end="")
        self._mark(text, number, matches.on_line(number) if matches else [], 0)
        return Strip(list(text.render(self.app.console)), text.cell_len).crop(left, right)

    def _mark(self, text: Text, number: int, spans: list[tuple[int, int]], shift: int) -> None:
        """Style the search's matches on line ``number`` in ``text`` (columns + ``shift``;
        a match begun before the text's first column is styled from there)."""
        current = self.current_match
        for start, end in spans:
            is_current = current is not None and (current.line, current.start) == (number, start)
            style = _CURRENT_MATCH if is_current else _MATCH
            text.stylize(style, max(start + shift, 0), end + shift)
