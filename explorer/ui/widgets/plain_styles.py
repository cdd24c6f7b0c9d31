"""A widget's lines styled the short way when its box is plain: Textual's output, cell for cell.

Textual styles every line a widget draws (``StylesCache.render_line``): it reads the
border, the outline, the padding, the hatch and the tint from the widget's styles and
makes two closures, a line at a time, then copies the line into a new strip. For a
view without a border, an outline, padding above or below, a hatch, a tint, opacity or
text opacity (the body view and the tables: some 70 lines a page; the status line, the
breadcrumb and the link detail, padded left and right), all of that leaves the line as
the widget drew it, cut or padded to the content's width, then padded left and right.
:class:`PlainStylesCache` decides once a pass whether the box is plain, and then does
only that; for any other box it is Textual's own.

The one place restwalk leans on Textual's internals for this (``StylesCache``'s
``render`` and ``render_line``, whose arguments it takes as they are, and the
``line_pad`` it pads a line with): pinned by the
textual range in pyproject, and tested to draw what Textual draws
(tests/explorer/ui/test_plain_styles.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.style import Style
from rich.terminal_theme import TerminalTheme
from textual._ansi_theme import DEFAULT_TERMINAL_THEME
from textual._segment_tools import line_pad
from textual._styles_cache import StylesCache
from textual.color import Color
from textual.content import Content
from textual.css.styles import StylesBase
from textual.filter import LineFilter
from textual.geometry import Region, Size, Spacing
from textual.strip import Strip
from textual.style import Style as TextualStyle
from textual.visual import VisualType
from textual.widgets import Static

__all__ = ["PlainStatic", "PlainStylesCache", "plain_box"]

_Label = tuple[Content, Color, Color, TextualStyle] | None


def plain_box(styles: StylesBase, padding: Spacing, opacity: float) -> bool:
    """True when Textual's styling leaves a line as drawn, padded at most on its left and
    right: no border, outline, padding above or below, hatch, tint, opacity or text
    opacity."""
    return (
        not padding.top
        and not padding.bottom
        and not any(edge for edge, _color in styles.border)
        and not any(edge for edge, _color in styles.outline)
        and not (styles.has_rule("hatch") and styles.hatch != "none")
        and not styles.tint.a
        and opacity == 1.0
        and styles.text_opacity == 1.0
    )


class PlainStylesCache(StylesCache):
    """Textual's :class:`StylesCache`, with the plain box's lines styled the short way."""

    def __init__(self) -> None:
        super().__init__()
        #: For the pass under way: the content's background style when the box is plain,
        #: and the padding on its left and right.
        self._plain: Style | None = None
        self._pads = (0, 0)

    def render(
        self,
        styles: StylesBase,
        size: Size,
        base_background: Color,
        background: Color,
        render_content_line: Callable[[int], Strip],
        filters: Sequence[LineFilter],
        border_title: _Label,
        border_subtitle: _Label,
        content_size: Size | None = None,
        padding: Spacing | None = None,
        crop: Region | None = None,
        opacity: float = 1.0,
        ansi_theme: TerminalTheme = DEFAULT_TERMINAL_THEME,
        native_ansi: bool = False,
    ) -> list[Strip]:
        padding = styles.padding if padding is None else padding
        if plain_box(styles, padding, opacity):
            inner, _outer = self.get_inner_outer(base_background, background)
            self._plain = inner.rich_style
            self._pads = (padding.left, padding.right)
        try:
            return super().render(
                styles,
                size,
                base_background,
                background,
                render_content_line,
                filters,
                border_title,
                border_subtitle,
                content_size=content_size,
                padding=padding,
                crop=crop,
                opacity=opacity,
                ansi_theme=ansi_theme,
                native_ansi=native_ansi,
            )
        finally:
            self._plain = None

    def render_line(
        self,
        styles: StylesBase,
        y: int,
        size: Size,
        content_size: Size,
        padding: Spacing,
        base_background: Color,
        background: Color,
        render_content_line: Callable[[int], Strip],
        border_title: _Label,
        border_subtitle: _Label,
        opacity: float,
        ansi_theme: TerminalTheme,
        native_ansi: bool,
    ) -> Strip:
        inner = self._plain
        if inner is None:
            return super().render_line(
                styles,
                y,
                size,
                content_size,
                padding,
                base_background,
                background,
                render_content_line,
                border_title,
                border_subtitle,
                opacity,
                ansi_theme,
                native_ansi,
            )
        # Textual's part C (content, no border, no padding above: the gutter is the left
        # padding at most), then ``Strip(post(line), width)`` with a post that changes
        # nothing.
        content_width, content_height = content_size
        if y < content_height:
            line = render_content_line(y).adjust_cell_length(content_width, inner)
        else:
            line = Strip.blank(content_width, inner)
        width = size.width
        pad_left, pad_right = self._pads
        if pad_left or pad_right:
            return Strip(line_pad(line, pad_left, pad_right, inner), width)
        return line if line.cell_length == width else Strip(line, width)


class PlainStatic(Static):
    """A :class:`Static` whose lines are styled the short way when its box is plain (the
    status line, the breadcrumb and the link detail: each followed page redraws them)."""

    def __init__(
        self,
        content: VisualType = "",
        *,
        markup: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(content, markup=markup, name=name, id=id, classes=classes)
        self._styles_cache = PlainStylesCache()
