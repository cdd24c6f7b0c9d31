"""BodyView: a response body of any size, rendered only where it is visible.

Textual's TextArea takes about 15 s to take in 5 MB, so this view never
builds a widget, a ``Text`` or even a ``str`` per line of the body. It holds a
:class:`~explorer.core.body.DisplayText` (one ``bytes`` value indexed by
block) and, through the Line API, renders just the rows on screen.

Large JSON is pretty-printed in a thread worker; meanwhile the top of the
document, re-indented from its first bytes, is shown at once. Syntax
highlighting (pygments) also runs in a thread worker, for the visible rows
only, and each highlighted row is cached; until it is ready a row shows plain.
"""

from __future__ import annotations

from collections import OrderedDict
from functools import partial

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound
from rich.segment import Segment
from rich.style import Style
from rich.syntax import PygmentsSyntaxTheme
from rich.text import Text
from textual import work
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from explorer.core.body import DisplayText, format_body, format_text, quick_json_lines
from explorer.core.memory import one_large_parse
from explorer.ui.painted import call_after_paint

#: Bodies up to this size are formatted at once, on the UI thread (it takes milliseconds).
INLINE_FORMAT_LIMIT = 256 * 1024
#: Rows longer than this are highlighted only around the visible columns.
LONG_ROW = 2000
_HIGHLIGHT_CACHE = 4000
_HIGHLIGHT_MARGIN = 60


class BodyView(ScrollView, can_focus=True):
    """Shows a body (pretty, highlighted) or any text, scrolling smoothly at any size."""

    DEFAULT_CSS = """
    BodyView {
        background: $surface;
        color: $text;
        overflow: auto auto;
        &:focus { background-tint: $foreground 5%; }
    }
    """

    class Ready(Message):
        """The whole text is formatted and shown (its line count is final)."""

        def __init__(self, view: BodyView, lines: int) -> None:
            super().__init__()
            self.view = view
            self.lines = lines

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._text = DisplayText(b"")
        self._notes: tuple[str, ...] = ()
        self._generation = 0
        self._lexer: Lexer | None = None
        self._theme = PygmentsSyntaxTheme("monokai")
        self._token_styles: dict[object, Style] = {}
        self._highlighted: OrderedDict[int, Text] = OrderedDict()
        self._pending = False
        self._width = 0
        self.formatting = False

    # -- public interface ------------------------------------------------------------------

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

    def clear(self) -> None:
        """Show nothing."""
        self._set(DisplayText(b""), ())

    def show_text(self, text: str, language: str | None = None) -> None:
        """Show ``text`` as it is, highlighted as ``language`` (a pygments alias), from its top."""
        self._scroll_home()
        self._set(format_text(text, language), ())

    def show(self, body: bytes, media_type: str | None) -> None:
        """Show a response body from its top: JSON pretty-printed, text highlighted, binary
        summarized."""
        self._scroll_home()
        if len(body) <= INLINE_FORMAT_LIMIT:
            formatted = format_body(body, media_type)
            self._set(formatted, formatted.notes)
            return
        generation = self._set_placeholder(body, media_type)
        # Start after the top is painted: parsing holds the GIL for a while.
        # A newer body meanwhile makes this one's result stale (see _formatted).
        call_after_paint(self, partial(self._format_in_thread, generation, body, media_type))

    # -- loading ---------------------------------------------------------------------------

    def _scroll_home(self) -> None:
        """A new text starts at its top, whatever the last one was scrolled to."""
        self.scroll_to(0, 0, animate=False, immediate=True, force=True)

    def _set(self, text: DisplayText, notes: tuple[str, ...], *, final: bool = True) -> int:
        self._generation += 1
        self._text = text
        self._notes = notes
        self._highlighted.clear()
        self._lexer = _lexer_for(text.language)
        self._width = max([text.width, *(len(n) for n in notes)], default=0)
        self.formatting = not final
        self.virtual_size = Size(self._width, self.line_count)
        if final:
            self.post_message(self.Ready(self, self.line_count))
        self.refresh()
        return self._generation

    def _set_placeholder(self, body: bytes, media_type: str | None) -> int:
        size = f"{len(body) / 1_000_000:.1f} MB"
        head = body.lstrip()[:1]
        if (media_type and media_type.endswith("json")) or head in (b"{", b"["):
            preview = "\n".join(quick_json_lines(body, max_lines=max(self.size.height, 100) * 2))
            text = format_text(preview, "json")
        else:
            text = format_text(body[:65536].decode("utf-8", errors="replace"), None)
        note = f"Formatting {size}; the top is shown meanwhile."
        return self._set(text, (note,), final=False)

    # An explicit description: by default Textual builds one from the arguments,
    # and the repr of a 20 MB body costs the UI thread a tenth of a second.
    @work(thread=True, exclusive=True, group="format", description="format body")
    def _format_in_thread(self, generation: int, body: bytes, media_type: str | None) -> None:
        with one_large_parse(len(body)):
            formatted = format_body(body, media_type)
        self.app.call_from_thread(self._formatted, generation, formatted)

    def _formatted(self, generation: int, formatted: DisplayText) -> None:
        if generation != self._generation:
            return  # a newer body replaced this one meanwhile
        self._set(formatted, formatted.notes)

    # -- highlighting ----------------------------------------------------------------------

    def _schedule_highlight(self) -> None:
        if self._pending or self._lexer is None:
            return
        self._pending = True
        self.call_after_refresh(self._highlight_visible)

    def _highlight_visible(self) -> None:
        self._pending = False
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
        done = {n: self._highlight_line(lexer, text.line(n)) for n in rows}
        self.app.call_from_thread(self._highlighted_rows, generation, done)

    def _token_style(self, token_type: object) -> Style:
        # The theme's foreground only: its background would box each token on our surface.
        style = self._token_styles.get(token_type)
        if style is None:
            themed = self._theme.get_style_for_token(token_type)  # type: ignore[arg-type]
            style = Style(color=themed.color, bold=themed.bold, italic=themed.italic)
            self._token_styles[token_type] = style
        return style

    def _highlight_line(self, lexer: Lexer, line: str) -> Text:
        text = Text(no_wrap=True, end="")
        for token_type, value in lexer.get_tokens(line):
            text.append(value.rstrip("\n"), self._token_style(token_type))
        return text

    def _highlighted_rows(self, generation: int, done: dict[int, Text]) -> None:
        if generation != self._generation:
            return
        self._highlighted.update(done)
        while len(self._highlighted) > _HIGHLIGHT_CACHE:
            self._highlighted.popitem(last=False)
        self.refresh()

    # -- rendering -------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Row ``y`` of the widget: the note, highlighted line, or plain line under it."""
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if row >= self.line_count:
            return Strip.blank(width, base)
        if row < len(self._notes):
            note = self._notes[row]
            style = base + Style(color="yellow", italic=True)
            return Strip([Segment(note, style)]).crop_extend(scroll_x, scroll_x + width, base)
        number = row - len(self._notes)
        line = self._text.line(number)
        if len(line) > self._width:
            self._width = len(line)
            self.virtual_size = Size(self._width, self.line_count)
        highlighted = self._highlighted.get(number)
        if highlighted is None:
            if self._lexer is not None and len(line) <= LONG_ROW:
                self._schedule_highlight()
            visible = line[scroll_x : scroll_x + width]
            return Strip([Segment(visible, base)]).extend_cell_length(width, base)
        segments = list(highlighted.render(self.app.console))
        strip = Strip(segments, highlighted.cell_len)
        return strip.apply_style(base).crop_extend(scroll_x, scroll_x + width, base)


def _lexer_for(language: str | None) -> Lexer | None:
    if not language:
        return None
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None
