"""Scrollbars made straight into strips, and drawn again only when what they show changes.

Textual's :class:`~textual.scrollbar.ScrollBar` draws through Rich (a renderable, a
console pass, then the widget's styles a row at a time): a millisecond or more for a
bar 30 rows high. A page followed redraws the body's two and the links table's
two, and a scroll view asks its bars to draw again at every layout, changed or
not, which took a frame of its own after the page's. :class:`QuickScrollBar` makes
the same segments (Textual's own :meth:`ScrollBarRender.render_bar`: the same
glyphs, colours and click targets) into strips at once, keeps them, and drops a
repaint asked for what is on the screen already.

A bar with nothing to scroll (one kept in place by ``overflow: scroll``) is drawn as an
empty gutter in its view's own style, not as Textual's empty track: a view whose rows
sometimes fit keeps its bar's place that way, and its bar coming or going never lays
the screen out again (the links panel's table keeps its bar so).

:class:`~explorer.ui.widgets.line_view.LineView` gives its views these bars.
"""

from __future__ import annotations

from math import ceil
from typing import NamedTuple

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter
from textual.geometry import Region, Size
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.strip import Strip

from explorer.ui.widgets.plain_styles import skippable, true_colours
from explorer.ui.widgets.quick_refresh import QuickRefresh
from explorer.ui.widgets.style_key import StyleMemo, styles_key
from explorer.ui.widgets.style_sums import on_base

__all__ = ["QuickScrollBar", "QuickScrollBarCorner"]

#: Textual's colours for a bar whose style gives none (as ScrollBarRender has them).
_BACK = RichColor.parse("#555555")
_BAR = RichColor.parse("bright_magenta")


class Looks(NamedTuple):
    """Everything a bar's drawing depends on."""

    size: Size
    virtual_size: int
    window_size: int
    position: float
    #: The bar's colours, and the widget's own style under them.
    colours: Style
    base: Style
    #: The screen hides scrollbars (drawn then as Textual draws them).
    hidden: bool


class QuickScrollBar(QuickRefresh, ScrollBar):
    """A :class:`ScrollBar` that looks the same and draws in a fraction of the time."""

    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1):
        super().__init__(vertical, name, thickness=thickness)
        #: What the strips were drawn for (see :meth:`_looks`), and the strips.
        self._drawn: tuple[Looks, list[Strip]] | None = None
        #: What :meth:`render_lines` last gave, and what for (a frame draws the bars
        #: beside a page that changed, mostly as they were).
        self._shown: tuple[tuple[object, ...], list[Strip]] | None = None
        #: The bar's colours, its own style, whether the screen hides scrollbars, and the
        #: background its strips are filtered on: worked out again only when a style
        #: above it changes (each is a walk up the tree).
        self._styled = StyleMemo(
            lambda: (
                self._bar_style(),
                self.rich_style,
                self.screen.styles.scrollbar_color.a == 0,
                self.background_colors[1],
            )
        )

    def _bar_style(self) -> Style:
        """The bar's colours as :meth:`ScrollBar.render` works them out."""
        assert self.parent is not None
        styles = self.parent.styles
        if self.grabbed:
            background, color = styles.scrollbar_background_active, styles.scrollbar_color_active
        elif self.mouse_over:
            background, color = styles.scrollbar_background_hover, styles.scrollbar_color_hover
        else:
            background, color = styles.scrollbar_background, styles.scrollbar_color
        if background.a < 1:
            base_background, _ = self.parent.background_colors
            background = base_background + background
        color = background + color
        return Style.from_color(color.rich_color, background.rich_color)

    def _geometry(self) -> tuple[Size, int, int, float]:
        """The first four of :meth:`_looks`: the bar's size and where its thumb is."""
        return (self.size, self.window_virtual_size, self.window_size, self.position)

    def _looks(self) -> tuple[Looks, Color]:
        """What the bar would be drawn as now, and the background its strips are filtered on
        (its styles worked out at once: a walk up the tree)."""
        colours, base, hidden, background = self._styled.get(self, self.grabbed, self.mouse_over)
        return Looks(*self._geometry(), colours, base, hidden), background

    def _check_refresh(self) -> None:
        # A scroll view refreshes its bars at every layout, in the middle of the frame
        # that draws them: asked for after it, a repaint of what that frame drew is dropped.
        # Its colours (two walks up the widget tree) are only worked out when its geometry
        # is the same: a bar resized or scrolled is drawn again anyway.
        drawn = self._drawn
        if (
            self._repaint_required
            and drawn is not None
            and drawn[0][:4] == self._geometry()
            and drawn[0] == self._looks()[0]
        ):
            self._repaint_required = False
        super()._check_refresh()

    def render_lines(self, crop: Region) -> list[Strip]:
        looks, filtered_on = self._looks()
        if looks.hidden:  # (a screen that hides its scrollbars: Textual's own way)
            return super().render_lines(crop)
        filters = tuple(self.get_line_filters())
        background = filtered_on if filters else None
        key = (looks, crop, filters, background)
        if self._shown is not None and self._shown[0] == key:
            return self._shown[1]
        if self._drawn is None or self._drawn[0] != looks:
            self._drawn = (looks, self._strips(looks))
        strips = self._drawn[1][crop.y : crop.bottom]
        if (crop.x, crop.right) != (0, looks.size.width):
            strips = [strip.crop(crop.x, crop.right) for strip in strips]
        if background is not None:
            strips = _filtered(strips, filters, background)
        self._shown = (key, strips)
        return strips

    @property
    def idle(self) -> bool:
        """True when there is nothing to scroll: the bar is an empty gutter."""
        return self.window_size >= self.window_virtual_size

    def _strips(self, looks: Looks) -> list[Strip]:
        """The whole bar as ``looks`` has it, a strip a row."""
        width, height = looks.size
        if looks.window_size >= looks.virtual_size:  # nothing to scroll: a gutter
            return [Strip.blank(width, looks.base)] * height
        window_size = looks.window_size if looks.window_size < looks.virtual_size else 0
        bar = self.renderer.render_bar(
            size=height if self.vertical else width,
            virtual_size=ceil(looks.virtual_size),
            window_size=ceil(window_size),
            position=looks.position,
            thickness=width if self.vertical else height,
            vertical=self.vertical,
            back_color=looks.colours.bgcolor or _BACK,
            bar_color=looks.colours.color or _BAR,
        )
        # The widget's own style under the bar's colours, as Textual draws it (Segment's
        # apply_style: each sum of the bar's few different styles made once).
        segments = on_base(bar.segments, looks.base)
        if self.vertical:  # a segment a row, most rows the same: a strip made (and later
            # filtered: a strip keeps its filtered self) once for each different row
            made: dict[Segment, Strip] = {}
            strips = []
            for segment in segments[:height]:
                strip = made.get(segment)
                if strip is None:
                    strip = made[segment] = Strip([segment], width)
                strips.append(strip)
            return strips
        # (a row of segments and a line's end, once for each row of the bar's thickness)
        end = next((n for n, segment in enumerate(segments) if segment.text == "\n"), None)
        return [Strip(segments[:end], width)] * height


class QuickScrollBarCorner(ScrollBarCorner):
    """A :class:`ScrollBarCorner` drawn again only when its size, crop, styles or the
    app's line filters change: the same blank otherwise. A page followed repaints its
    scroll views' boxes whole, their corners with them (some 0.1 ms each)."""

    _kept: tuple[tuple[object, ...], list[Strip]] | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        key = (crop, self.size, styles_key(self), tuple(self.get_line_filters()))
        kept = self._kept
        if kept is None or kept[0] != key:
            kept = self._kept = (key, super().render_lines(crop))
        return kept[1]


def _filtered(
    strips: list[Strip], filters: tuple[LineFilter, ...], background: Color
) -> list[Strip]:
    """``strips`` through the app's line ``filters``, each different strip once (a
    vertical bar repeats the same few a row); one the filters would leave as it is (the
    ANSI-to-truecolor filter alone, and a strip in true colours, nothing dim: a bar in
    the theme's colours) as it is."""
    skip = skippable(filters)
    done: dict[int, Strip] = {}
    filtered: list[Strip] = []
    for strip in strips:
        made = done.get(id(strip))
        if made is None:
            made = strip
            if not (skip and true_colours(strip)):
                for line_filter in filters:
                    made = made.apply_filter(line_filter, background)
            done[id(strip)] = made
        filtered.append(made)
    return filtered
