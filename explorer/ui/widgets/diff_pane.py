"""DiffPane: one side of a side-by-side diff, its changed lines marked, rendered where visible.

It is given lines (``(text, mark)``, the mark ``breaking``, ``safe``, ``value``
or None) and draws only the rows on screen through the Line API, so a large
body costs nothing until it is scrolled to. Text is server text: each line is
made visible (control characters shown) before it becomes a ``Text``.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from explorer.core.text.terminal_text import visible_line

__all__ = ["MARK_STYLES", "DiffPane"]

#: How each kind of mark colours a line, and the sign in its gutter.
MARK_STYLES: dict[str, tuple[str, Style]] = {
    "breaking": ("✗", Style(color="white", bgcolor="dark_red")),
    "safe": ("+", Style(color="black", bgcolor="green4")),
    "value": ("~", Style(color="black", bgcolor="dark_goldenrod")),
}
_GUTTER = 2


class DiffPane(ScrollView, can_focus=True):
    """Lines of one body, the changed ones marked; scrolls with the keys and the mouse."""

    DEFAULT_CSS = """
    DiffPane { background: $surface; overflow: auto auto; }
    DiffPane:focus { background-tint: $foreground 5%; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[tuple[str, str | None]] = []

    def show(self, lines: list[tuple[str, str | None]]) -> None:
        """Show ``lines``: (text, mark) each."""
        self.lines = [(visible_line(text), mark) for text, mark in lines]
        width = max((len(text) for text, _ in self.lines), default=0) + _GUTTER
        self.virtual_size = Size(width, len(self.lines))
        self.scroll_to(0, 0, animate=False)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.size.width
        base = self.rich_style
        if row >= len(self.lines):
            return Strip.blank(width, base)
        text, mark = self.lines[row]
        sign, style = MARK_STYLES.get(mark or "", (" ", Style()))
        line = Text(f"{sign} {text}", no_wrap=True, end="", style=style if mark else "")
        strip = Strip(list(line.render(self.app.console)), line.cell_len)
        return (
            strip.crop(scroll_x, scroll_x + width).apply_style(base).extend_cell_length(width, base)
        )
