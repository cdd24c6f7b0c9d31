"""A compositor that does not draw what is hidden: Textual's output, cell for cell.

Textual's compositor cuts each frame's update out of every visible widget's lines,
front to back: a cut of a line is the first widget's to reach it, and the widgets
behind it draw their lines and have them cut all the same, to be thrown away. The
browser's containers lie under the views that fill them (the panes, the response
tabs, their switcher, the body tab, the screen itself: some 200 lines of a 40-row
screen's 330), and a followed page's frame drew and cut every one
(``bench/profile_page_frame.py``). :class:`QuickCompositor` looks first whether a
widget's line has a cut left to fill: a line with none is not cut, a line is cut only
as far as its last one left (a view's edge under its scrollbar is not), and a widget
with none at all is not drawn. A partial update (a page's frame) writes only its spans,
the parts of lines that changed: a cut outside them is left empty, as Textual's update
would skip it, and a widget with nothing in them (a badge beside the URL, the tab bar,
a scrollbar's corner) is not drawn either. What a line's cuts are is worked out once a
layout, not at every line of every frame. The update is made into terminal text as
Textual makes it, the cursor's moves to each cut kept rather than made anew
(:class:`QuickChopsUpdate`).

The one place restwalk leans on Textual's internals for this (``Compositor``'s
``_render_chops`` and ``render_partial_update``, ``ChopsUpdate``'s ``render_segments``,
whose results it makes as Textual does): pinned by the textual range in pyproject, and
tested to paint what Textual paints (tests/explorer/ui/test_quick_compositor.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from rich.console import Console
from rich.control import Control
from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

__all__ = ["QuickChopsUpdate", "QuickCompositor"]

#: A widget's lines, each with its cuts: those it fills (its left edge first, its right
#: edge not), where each ends (the next cut), and where its strip is divided for them
#: (those but the first, counted from its left edge).
_Plan = list[tuple[int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]]
#: A partial update's spans, by line: the parts of each line it writes.
_Spans = dict[int, list[tuple[int, int]]]


class QuickCompositor(Compositor):
    """Textual's :class:`Compositor`, drawing and cutting only lines that show."""

    def __init__(self) -> None:
        super().__init__()
        #: The cuts the plans were made for (a layout makes new ones), and the plans, by
        #: the part of the screen a widget is drawn on.
        self._planned: list[list[int]] | None = None
        self._plans: dict[Region, _Plan] = {}

    def _plan(self, cuts: list[list[int]], render_region: Region) -> _Plan:
        """The lines of a widget drawn on ``render_region``, with their cuts (as Textual's
        ``_render_chops`` works them out at every line of every frame)."""
        if self._planned is not cuts:
            self._planned = cuts
            self._plans = {}
        plan = self._plans.get(render_region)
        if plan is None:
            first, last = render_region.column_span
            plan = self._plans[render_region] = []
            for y in render_region.line_range:
                final = [cut for cut in cuts[y] if last >= cut >= first]
                fills, ends = tuple(final[:-1]), tuple(final[1:])
                plan.append((y, fills, ends, tuple(cut - first for cut in ends)))
        return plan

    def render_partial_update(self) -> ChopsUpdate | None:
        # Textual's, but for the update's cuts: only those it writes (a cut outside its
        # spans is never written) are cut and drawn.
        screen_region = self.size.region
        update_regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not update_regions:
            return None
        crop = Region.from_union(update_regions).intersection(screen_region)
        spans = list(self._regions_to_spans(update_regions))
        by_line: _Spans = {}
        for y, x1, x2 in spans:
            by_line.setdefault(y, []).append((x1, x2))
        chops = self._cut(crop, by_line.__contains__, by_line)
        chop_ends = [cut_set[1:] for cut_set in self.cuts]
        return QuickChopsUpdate(chops, spans, chop_ends)

    def _render_chops(
        self,
        crop: Region,
        is_rendered_line: Callable[[int], bool],
    ) -> Sequence[Mapping[int, Strip]]:
        return self._cut(crop, is_rendered_line, None)

    def _cut(
        self, crop: Region, is_rendered_line: Callable[[int], bool], spans: _Spans | None
    ) -> Sequence[Mapping[int, Strip]]:
        """Textual's ``_render_chops``; with ``spans``, only the cuts they write are filled
        (a cut another leaves empty is skipped as Textual skips it: see
        :meth:`QuickChopsUpdate.render_segments`)."""
        cuts = self.cuts
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        intersection = Region.intersection
        contains_region = Region.contains_region
        crop_overlaps = crop.overlaps
        plan = self._plan
        # Front to back, as Textual goes: a cut is the first widget's to fill it.
        for widget, (region, clip) in self.visible_widgets.items():
            if crop and not crop_overlaps(clip):
                continue
            render_region = intersection(region, clip)
            render_x, render_y, width, height = render_region
            if not (width and height):
                continue
            todo: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
            for y, fills, ends, divide_at in plan(cuts, render_region):
                if not is_rendered_line(y):
                    continue
                get_chop = chops[y].get
                written = None if spans is None else spans[y]
                # Cut only as far as the last cut left to fill (the rest is not kept).
                for index in range(len(fills) - 1, -1, -1):
                    cut = fills[index]
                    if get_chop(cut) is None and (
                        written is None or any(cut <= x2 and ends[index] > x1 for x1, x2 in written)
                    ):
                        todo.append((y, fills, divide_at[: index + 1]))
                        break
            if not todo:
                continue  # hidden behind the widgets before it, or not updated: not drawn
            if contains_region(clip, region):
                strips = widget.render_lines(Region(0, 0, region.width, region.height))
            else:
                strips = widget.render_lines(
                    Region(render_x - region.x, render_y - region.y, width, height)
                )
            count = len(strips)
            for y, fills, divide_at in todo:
                index = y - render_y
                if index >= count:
                    break
                chops_line = chops[y]
                get_chop = chops_line.get
                for cut, strip in zip(fills, strips[index].divide(divide_at), strict=False):
                    if get_chop(cut) is None:
                        chops_line[cut] = strip
        return chops  # type: ignore[return-value]


@lru_cache(maxsize=8192)
def _move_to(x: int, y: int) -> str:
    """The terminal's text that moves the cursor to ``x``, ``y`` (Textual's own, kept)."""
    return Control.move_to(x, y).segment.text


class QuickChopsUpdate(ChopsUpdate):
    """Textual's partial update, made into terminal text as Textual makes it, but for the
    cursor moves before each cut (some 180 a followed page's frame): each made once, not
    a :class:`~rich.control.Control` made anew for each."""

    def render_segments(self, console: Console) -> str:
        sequences: list[str] = []
        append = sequences.append
        chops = self.chops
        chop_ends = self.chop_ends
        last_y = self.spans[-1][0]
        for y, x1, x2 in self.spans:
            line = chops[y]
            ends = chop_ends[y]
            for end, (x, strip) in zip(ends, line.items(), strict=False):
                if strip is None or x > x2 or end <= x1:
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    strip = strip.crop(0, min(end, x2) - x)
                append(_move_to(x, y))
                append(strip.render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)
