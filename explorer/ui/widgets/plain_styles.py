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

Each line drawn then goes through the app's filters, each time, and the one a truecolor
terminal has (ANSI colours to true ones, dim text blended) copied every line anew,
while nearly all of them (the body's highlighting, the tables) hold neither: a line
in true colours only, nothing dim, is left as it is, as the filter would leave it.

A :class:`PlainStatic`'s text is laid out and styled by Textual at each drawing: its
lines cut into words and each word measured, though they nearly always fit, and each
run of text's Rich style made anew: it is drawn the same, for less, by
:func:`~explorer.ui.widgets.offset_styles.content_strips`.

The one place restwalk leans on Textual's internals for this (``StylesCache``'s
``render``, whose arguments it takes as they are, its line cache and dirty lines, the
``line_pad`` it pads a line with, and what ``ANSIToTruecolor`` changes; ``Widget``'s
``_render_content`` and its render cache): pinned by the textual range in pyproject,
and tested to draw what Textual draws (tests/explorer/ui/test_plain_styles.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple, cast

from rich.segment import Segment
from rich.style import Style
from rich.terminal_theme import TerminalTheme
from textual._ansi_theme import DEFAULT_TERMINAL_THEME
from textual._segment_tools import line_pad
from textual._styles_cache import StylesCache
from textual.color import Color
from textual.content import Content
from textual.css.styles import RulesMap, StylesBase
from textual.filter import ANSIToTruecolor, LineFilter
from textual.geometry import Region, Size, Spacing
from textual.strip import Strip
from textual.style import Style as TextualStyle
from textual.visual import RenderOptions, Visual, VisualType
from textual.widget import _RenderCache
from textual.widgets import Static

from explorer.ui.let_go import let_go
from explorer.ui.widgets.lean_strip import LeanStrip
from explorer.ui.widgets.offset_styles import content_strips, truecolor_strip
from explorer.ui.widgets.quick_refresh import QuickRefresh
from explorer.ui.widgets.style_key import KeptStyles

__all__ = ["PlainStatic", "PlainStylesCache", "plain_box", "skippable", "true_colours"]

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
    """Textual's :class:`StylesCache`, with the plain box's lines styled the short way, and
    the lines it drops freed after the frame (:mod:`explorer.ui.let_go`)."""

    def clear(self) -> None:
        if self._cache:
            let_go(self._cache)
            self._cache = {}
        self._dirty_lines.clear()

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
        if not plain_box(styles, padding, opacity):
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
        inner, _outer = self.get_inner_outer(base_background, background)
        box = _PlainBox(inner.rich_style, (padding.left, padding.right), size, content_size or size)
        return self._render_plain(box, background, render_content_line, filters, crop)

    def _render_plain(
        self,
        box: _PlainBox,
        background: Color,
        render_content_line: Callable[[int], Strip],
        filters: Sequence[LineFilter],
        crop: Region | None,
    ) -> list[Strip]:
        """Textual's ``StylesCache.render`` for a plain box, but for the filters: a line
        they would leave as it is (true colours only, nothing dim: what the app's
        :class:`~textual.filter.ANSIToTruecolor` leaves alone) is not copied through them."""
        size = box.size
        crop = size.region if crop is None else crop
        width = size.width
        if width != self._width:
            self.clear()
            self._width = width
        cache = self._cache
        is_dirty = self._dirty_lines.__contains__
        skip = skippable(filters)
        strips: list[Strip] = []
        for y in crop.line_range:
            if is_dirty(y) or y not in cache:
                strip = cache[y] = _plain_line(box, y, render_content_line)
            else:
                strip = cache[y]
            if skip:
                if not true_colours(strip):
                    strip = truecolor_strip(cast(ANSIToTruecolor, filters[0]), strip, background)
            else:
                for line_filter in filters:
                    strip = strip.apply_filter(line_filter, background)
            strips.append(strip)
        self._dirty_lines.difference_update(crop.line_range)
        if crop.column_span != (0, width):
            left, right = crop.column_span
            strips = [strip.crop(left, right) for strip in strips]
        return strips


class _PlainBox(NamedTuple):
    """What styles a plain box's line: the content's background style, the padding on its
    left and right, the widget's size and its content's."""

    inner: Style
    pads: tuple[int, int]
    size: Size
    content_size: Size


def _plain_line(box: _PlainBox, y: int, render_content_line: Callable[[int], Strip]) -> Strip:
    """Line ``y`` of a plain box, as Textual's ``StylesCache.render_line`` styles it: its
    part C (content, no border, no padding above: the gutter is the left padding at
    most), then ``Strip(post(line), width)`` with a post that changes nothing."""
    inner = box.inner
    content_width, content_height = box.content_size
    width = box.size.width
    pad_left, pad_right = box.pads
    if y < content_height:
        line = render_content_line(y)
        short = content_width - line.cell_length
        if short > 0 and (pad_left or pad_right):  # (adjusted and padded, one strip made)
            extended = [*line._segments, Segment(" " * short, inner)]
            return LeanStrip(line_pad(extended, pad_left, pad_right, inner), width)
        if short:  # (as wide already: adjust gives it back)
            line = line.adjust_cell_length(content_width, inner)
    else:
        line = Strip.blank(content_width, inner)
    if pad_left or pad_right:
        return LeanStrip(line_pad(line, pad_left, pad_right, inner), width)
    return line if line.cell_length == width else LeanStrip(line, width)


def skippable(filters: Sequence[LineFilter]) -> bool:
    """True when ``filters`` is the app's ANSI-to-truecolor filter alone (the one a line in
    true colours, nothing dim, goes through unchanged)."""
    return len(filters) == 1 and type(filters[0]) is ANSIToTruecolor


@lru_cache(maxsize=4096)
def _true_colour_style(style: Style | None) -> bool:
    """True when the ANSI-to-truecolor filter leaves ``style`` as it is: no colour from the
    terminal's palette, nothing dim (as :meth:`ANSIToTruecolor.truecolor_style` decides)."""
    if style is None:
        return True
    color, bgcolor = style.color, style.bgcolor
    return (
        (color is None or color.triplet is not None)
        and (bgcolor is None or bgcolor.triplet is not None)
        and not style.dim
    )


def true_colours(strip: Strip) -> bool:
    """True when every segment of ``strip`` is in true colours, nothing dim."""
    # (mapped, not a generator: some 300 segments a followed page's frame)
    return all(map(_true_colour_style, map(_STYLE, strip._segments)))


#: A segment's style.
_STYLE = itemgetter(1)


class PlainStatic(QuickRefresh, KeptStyles, Static):
    """A :class:`Static` whose lines are styled the short way when its box is plain (the
    status line, the breadcrumb and the link detail: each followed page redraws them).

    Its text holds no links to click (server text is never markup, and restwalk's own
    holds none): Textual's link styling, a copy of every line drawn and a walk up the
    tree for the link's colours, is left out (``auto_links`` off).
    """

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
        self.set_reactive(Static.auto_links, False)

    def _render_content(self) -> None:
        """Textual's ``Widget._render_content``, a text's lines made with each style worked
        out once and each line that fits its width laid out without the wrapping
        (:class:`_Quick`): the same lines, cell for cell."""
        size = self.size
        visual = self._render()
        if isinstance(visual, Content):
            visual = _Quick(visual)
        strips = Visual.to_strips(self, visual, size.width, size.height, self.visual_style)
        self._render_cache = _RenderCache(size, strips)
        self._dirty_regions.clear()


class _Quick(Visual):
    """A :class:`Content` made into strips by :func:`content_strips`: each style worked
    out once, the lines that fit laid out unwrapped."""

    def __init__(self, content: Content) -> None:
        self._content = content

    def render_strips(
        self, width: int, height: int | None, style: TextualStyle, options: RenderOptions
    ) -> list[Strip]:
        return content_strips(self._content, width, height, style, options)

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self._content.get_optimal_width(rules, container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self._content.get_height(rules, width)
