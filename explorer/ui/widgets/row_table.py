"""RowTable: rows of text in fixed-width columns, with a row cursor, drawn line by line.

The links panel and the headers tab are tables of a few short strings per row.
Textual's ``DataTable`` renders each cell through Rich, and drew the links
panel's 16 rows in about 17 ms, each time a page was shown. This table knows
its column widths up front and makes each visible line, when first drawn, as
one string cut to the view (the Line API): it draws in well under a
millisecond, and a page of 10,000 rows costs no more than one of ten.

Rows a table's owner says are less sure (the links panel's guesses) are drawn muted,
except under the cursor, where the cursor's colours keep them readable.

Keys: up/down, page up/down, home/end (first and last row), left/right scroll,
Enter selects. A click selects the row under the mouse. The header row stays in
place when the rows scroll.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip

from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.lean_strip import LeanStrip
from explorer.ui.widgets.line_view import LineView
from explorer.ui.widgets.style_key import ComponentStyles
from explorer.ui.widgets.style_sums import plus

__all__ = ["RowTable"]


def _fit(text: str, width: int) -> str:
    """``text`` cut or padded to ``width`` cells, on one line (control characters visible,
    other unprintable ones as spaces): cells hold server text, shown and never obeyed."""
    if text.isascii() and text.isprintable():  # one cell a character: the common case
        return text[:width].ljust(width)
    text = visible_line(text)
    return set_cell_size("".join(c if c.isprintable() else " " for c in text), width)


class RowTable(LineView, can_focus=True):
    """A header row and rows of cells in fixed-width columns; one row is the cursor's."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select", "Select", show=False),
        Binding("up", "cursor_up", "Up", show=False),
        Binding("down", "cursor_down", "Down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home,ctrl+home", "first", "First row", show=False),
        Binding("end,ctrl+end", "last", "Last row", show=False),
        Binding("left", "scroll_left", "Scroll left", show=False),
        Binding("right", "scroll_right", "Scroll right", show=False),
    ]
    COMPONENT_CLASSES = {
        "row-table--header",
        "row-table--cursor",
        "row-table--even-row",
        "row-table--hover",
        "row-table--muted",
    }
    # The looks of Textual's DataTable, so the two can sit side by side.
    DEFAULT_CSS = """
    RowTable {
        background: $surface;
        color: $foreground;
        overflow: auto auto;
        &:focus {
            background-tint: $foreground 5%;
            & > .row-table--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .row-table--header { background-tint: $foreground 5%; }
        }
        & > .row-table--header { text-style: bold; background: $panel; color: $foreground; }
        &:ansi > .row-table--header { background: ansi_bright_blue; color: ansi_default; }
        & > .row-table--even-row { background: $surface-lighten-1 50%; }
        &:dark > .row-table--even-row { background: $surface-darken-1 40%; }
        & > .row-table--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .row-table--hover { background: $block-hover-background; }
        & > .row-table--muted { color: $text-muted; }
    }
    """

    class _RowMessage(Message):
        def __init__(self, table: RowTable, row: int) -> None:
            super().__init__()
            self.table = table
            self.row = row
            #: The rows ``row`` counts in (what :meth:`set_rows` was given): a screen that
            #: has set other rows since can tell the message is about the old ones.
            self.rows = table.rows

        @property
        def control(self) -> RowTable:
            return self.table

    class Highlighted(_RowMessage):
        """The cursor moved onto row ``row`` (from 0)."""

    class Selected(_RowMessage):
        """Row ``row`` (from 0) was chosen: Enter on it, or a click."""

    cursor_row: reactive[int] = reactive(0, repaint=False, init=False)
    """The row under the cursor (from 0; 0 when there are no rows)."""

    def __init__(
        self,
        columns: Sequence[tuple[str, int]],
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._widths = tuple(width for _label, width in columns)
        self._labels = tuple(label for label, _width in columns)
        self._header = self._line(self._labels)
        self._width = cell_len(self._header)
        self._rows: Sequence[Sequence[str]] = ()
        self._muted: Callable[[int], bool] | None = None
        self._lines: dict[int, str] = {}
        self._hover: int | None = None
        self._components = ComponentStyles(self)
        #: The component classes' styles, for the pass of :meth:`render_lines` under way.
        self._pass_styles: dict[str, Style] | None = None
        #: The rows' styles (but the cursor's) by (even, muted, hover), and the component
        #: styles they were made of (made anew when those are).
        self._row_styles: tuple[dict[str, Style], dict[tuple[bool, bool, bool], Style]] | None
        self._row_styles = None
        self.virtual_size = Size(self._width, 1)

    # -- content ------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self._rows)

    @property
    def rows(self) -> Sequence[Sequence[str]]:
        """The rows shown (the sequence given to :meth:`set_rows`)."""
        return self._rows

    def set_rows(
        self,
        rows: Sequence[Sequence[str]],
        muted: Callable[[int], bool] | None = None,
        *,
        announce: bool = True,
    ) -> None:
        """Show ``rows`` (one string per column, cut to its width); cursor on the first.
        A row ``muted`` says True of (given its index) is drawn muted. ``announce``: post
        :class:`Highlighted` for the first row (an owner that has shown what it means
        already needs none).

        ``rows`` is kept, not copied: each row is made into a line when first drawn.
        """
        self._rows = rows
        self._muted = muted
        self._lines.clear()
        self._hover = None
        if self.container_size:  # (laid out: the bars are decided after the scroll)
            self.set_reactive(RowTable.virtual_size, Size(self._width, len(self._rows) + 1))
        else:
            self.virtual_size = Size(self._width, len(self._rows) + 1)
        self.scroll_home_now()
        self.show_scrollbars_now()  # (after: a view with no scrollbar does not scroll)
        self.set_reactive(RowTable.cursor_row, 0)
        self.refresh()
        if self._rows and announce:
            self.post_message(self.Highlighted(self, 0))

    def set_width(self, column: int, width: int) -> None:
        """Make ``column`` ``width`` cells wide (the links panel's numbers grow with how many
        links there are): the header and every row are drawn again."""
        if self._widths[column] == width:
            return
        self._widths = (*self._widths[:column], width, *self._widths[column + 1 :])
        self._header = self._line(self._labels)
        self._width = cell_len(self._header)
        self._lines.clear()
        self.size_virtually(Size(self._width, len(self._rows) + 1))
        self.refresh()

    def rows_changed(self) -> None:
        """The rows given to :meth:`set_rows` changed in place (a stream's: new ones at the
        end, the oldest gone from the start): draw them again. The cursor and the scroll
        stay, within the rows."""
        self._lines.clear()
        self._hover = None
        self.size_virtually(Size(self._width, len(self._rows) + 1))
        if self._rows and self.cursor_row >= len(self._rows):
            self.set_reactive(RowTable.cursor_row, len(self._rows) - 1)
        self.refresh()

    def _text(self, row: int) -> str:
        """Row ``row`` as drawn, made when first drawn: a page of 10,000 rows costs nothing."""
        text = self._lines.get(row)
        if text is None:
            text = self._lines[row] = self._line(self._rows[row])
        return text

    def _line(self, cells: Sequence[str]) -> str:
        # One cell of padding on either side, as DataTable draws them.
        return "".join(
            f" {_fit(cell, width)} " for cell, width in zip(cells, self._widths, strict=False)
        )

    # -- drawing ------------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        self._pass_styles = self._components.now()
        try:
            return super().render_lines(crop)
        finally:
            self._pass_styles = None

    def _component_styles_now(self) -> dict[str, Style]:
        """The component classes' styles: the pass's, or worked out now outside a pass."""
        styles = self._pass_styles
        return self._components.now() if styles is None else styles

    def render_line(self, y: int) -> Strip:
        # Drawn the view's whole width, scrollbars' gutter included (what lies under the
        # bars is padding): Textual's styling would pad each line to it, a strip made anew.
        scroll_x, scroll_y, width = self.view
        full = max(self.drawn_width, width)
        base = self.base_style
        if y == 0:
            header = self._component_styles_now()["row-table--header"]
            text, style = self._header, plus(base, header)
        else:
            row = scroll_y + y - 1
            if row >= len(self._rows):
                return Strip.blank(full, base)
            text, style = self._text(row), plus(base, self._row_style(row))
        end = scroll_x + width
        if text.isascii() and width > 0:  # one cell a character: cut here, one strip made
            if len(text) <= scroll_x:
                return LeanStrip([Segment(" " * full, base)], full)
            shown = text[scroll_x:end]
            segments = [Segment(shown, style)]
            if len(shown) < full:
                segments.append(Segment(" " * (full - len(shown)), base))
            return LeanStrip(segments, full)
        segments = [Segment(text, style)]
        cells = cell_len(text)
        if cells < end:
            segments.append(Segment(" " * (end - cells), base))
        if scroll_x == 0 and cells <= end:
            # Nothing to cut (Textual's crop gives the strip back): padded to the full
            # width as extend_cell_length pads it, one strip made, not three.
            if end < full:
                segments.append(Segment(" " * (full - end), base))
            return LeanStrip(segments, max(end, full))
        return Strip(segments).crop(scroll_x, end).extend_cell_length(full, base)

    def _row_style(self, row: int) -> Style:
        components = self._component_styles_now()
        if row == self.cursor_row:
            return components["row-table--cursor"]
        key = (bool(row % 2), self._muted is not None and self._muted(row), row == self._hover)
        kept = self._row_styles
        if kept is None or kept[0] is not components:
            kept = self._row_styles = (components, {})
        style = kept[1].get(key)
        if style is None:
            style = Style()
            even, muted, hover = key
            if even:
                style += components["row-table--even-row"]
            if muted:
                style += components["row-table--muted"]
            if hover:
                style += components["row-table--hover"]
            kept[1][key] = style
        return style

    # -- the cursor ---------------------------------------------------------------------------

    def move_cursor(self, row: int) -> None:
        """Put the cursor on ``row`` (clamped to the rows) and scroll it into view."""
        if self._rows:
            self.cursor_row = max(0, min(row, len(self._rows) - 1))

    def watch_cursor_row(self, row: int) -> None:
        self._scroll_to_row(row)
        self.refresh()
        self.post_message(self.Highlighted(self, row))

    def _visible_rows(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def _scroll_to_row(self, row: int) -> None:
        top = round(self.scroll_y)
        shown = self._visible_rows()
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + shown:
            self.scroll_to(y=row - shown + 1, animate=False, immediate=True)

    def action_cursor_up(self) -> None:
        self.move_cursor(self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(self.cursor_row + 1)

    def action_page_up(self) -> None:
        self.move_cursor(self.cursor_row - self._visible_rows())

    def action_page_down(self) -> None:
        self.move_cursor(self.cursor_row + self._visible_rows())

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(len(self._rows) - 1)

    def action_select(self) -> None:
        if self._rows:
            self.post_message(self.Selected(self, self.cursor_row))

    # -- the mouse ----------------------------------------------------------------------------

    def _row_at(self, y: int) -> int | None:
        row = round(self.scroll_y) + y - 1
        return row if y > 0 and 0 <= row < len(self._rows) else None

    def on_click(self, event: events.Click) -> None:
        row = self._row_at(event.y)
        if row is not None:
            self.move_cursor(row)
            self.post_message(self.Selected(self, row))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        row = self._row_at(event.y)
        if row != self._hover:
            self._hover = row
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()
