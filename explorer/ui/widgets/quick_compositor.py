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
a scrollbar's corner) is not drawn either, nor is one whose cuts the spans only touch
(a cut beginning where a span ends: Textual writes the cursor's move there and none of
the cut); a widget is drawn from its first line with a cut to fill to its last (a
view's last row, under its horizontal scrollbar, is not), and once every cut is
filled, no widget behind is looked at. What a line's cuts are is worked out once a layout, and
which of them an update writes once for its spans, not at every line of every frame.
The update is made into terminal text as Textual makes it, the cursor's moves to each
cut kept rather than made anew, a cut the spans only touch not cropped to nothing
(:class:`QuickChopsUpdate`).

The one place restwalk leans on Textual's internals for this (``Compositor``'s
``_render_chops`` and ``render_partial_update``, ``ChopsUpdate``'s ``render_segments``,
whose results it makes as Textual does): pinned by the textual range in pyproject, and
tested to paint what Textual paints (tests/explorer/ui/test_quick_compositor.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from itertools import pairwise

from rich.cells import cell_len
from rich.console import Console
from rich.control import Control
from rich.segment import Segment
from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

from explorer.ui.widgets.lean_strip import LeanStrip

__all__ = ["QuickChopsUpdate", "QuickCompositor"]

#: A widget's lines, each with its cuts: those it fills (its left edge first, its right
#: edge not), and where its strip is divided for them (where each ends, counted from its
#: left edge).
_Plan = list[tuple[int, tuple[int, ...], tuple[int, ...]]]
#: Cuts by line.
_Cuts = dict[int, frozenset[int]]
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
        #: The cuts the wants were worked out for, and the wants (see :meth:`_wanted`), by
        #: the update's spans.
        self._wants_for: list[list[int]] | None = None
        self._wants: dict[object, tuple[_Cuts, _Cuts]] = {}

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
                plan.append((y, tuple(final[:-1]), tuple(cut - first for cut in final[1:])))
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

    def _wanted(
        self, cuts: list[list[int]], is_rendered_line: Callable[[int], bool], spans: _Spans | None
    ) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
        """The cuts left to fill, by line: those the update writes (all of a rendered
        line's, without ``spans``), and those it only touches (a cut that begins where a
        span ends: Textual writes the cursor's move there, and nothing after it). Worked
        out once for the same spans and cuts (a followed page's frame writes the same)."""
        if spans is None:
            every = (set(cut_set[:-1]) for cut_set in cuts)
            return {y: line for y, line in enumerate(every) if is_rendered_line(y)}, {}
        if self._wants_for is not cuts:
            self._wants_for = cuts
            self._wants = {}
        key = tuple((y, *line_spans) for y, line_spans in spans.items())
        kept = self._wants.get(key)
        if kept is None:
            if len(self._wants) >= 8:
                self._wants.clear()
            kept = self._wants[key] = _wants(cuts, spans)
        writes, touches = kept
        return (
            {y: set(line) for y, line in writes.items()},
            {y: set(line) for y, line in touches.items() if line},
        )

    def _cut(
        self, crop: Region, is_rendered_line: Callable[[int], bool], spans: _Spans | None
    ) -> Sequence[Mapping[int, Strip]]:
        """Textual's ``_render_chops``; with ``spans``, only the cuts they write are filled
        (a cut another leaves empty is skipped as Textual skips it: see
        :meth:`QuickChopsUpdate.render_segments`), and a cut they only touch is filled
        with an empty strip (Textual writes none of it), its widget not drawn for it."""
        cuts = self.cuts
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        wanted, touched = self._wanted(cuts, is_rendered_line, spans)
        left = sum(map(len, wanted.values())) + sum(map(len, touched.values()))
        intersection = Region.intersection
        crop_overlaps = crop.overlaps
        plan = self._plan
        # Front to back, as Textual goes: a cut is the first widget's to fill it.
        for widget, (region, clip) in self.visible_widgets.items():
            if not left:
                break  # every cut filled: what lies behind is not drawn
            if crop and not crop_overlaps(clip):
                continue
            render_region = intersection(region, clip)
            render_x, _render_y, width, height = render_region
            if not (width and height):
                continue
            todo: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
            for y, fills, divide_at in plan(cuts, render_region):
                to_fill = wanted.get(y)
                if to_fill is None:
                    continue  # (a line not in the update)
                to_touch = touched.get(y)
                if to_touch and not to_touch.isdisjoint(fills):
                    chops_line = chops[y]
                    for cut in to_touch.intersection(fills):
                        if chops_line[cut] is None:
                            chops_line[cut] = _EMPTY
                    left -= len(to_touch)
                    to_touch.difference_update(fills)
                    left += len(to_touch)
                if to_fill and not to_fill.isdisjoint(fills):
                    # Cut only as far as the last cut left to fill (the rest is not kept).
                    last = fills.index(max(to_fill.intersection(fills)))
                    todo.append((y, fills, divide_at[: last + 1]))
            if not todo:
                continue  # hidden behind the widgets before it, or not updated: not drawn
            # Drawn from its first line with a cut to fill to its last, not beyond (a view's
            # last row under its horizontal scrollbar): at once (each drawing has a cost of
            # its own: a border's titles are styled anew).
            top = todo[0][0]
            strips = widget.render_lines(
                Region(render_x - region.x, top - region.y, width, todo[-1][0] - top + 1)
            )
            left -= _fill(chops, wanted, todo, strips, top)
        return chops  # type: ignore[return-value]


def _fill(
    chops: list[dict[int, Strip | None]],
    wanted: dict[int, set[int]],
    todo: list[tuple[int, tuple[int, ...], tuple[int, ...]]],
    strips: list[Strip],
    top: int,
) -> int:
    """Fill the cuts of ``todo``'s lines (its first ``top``) left empty from a widget's
    ``strips`` of them; how many cuts left to fill were."""
    filled = 0
    count = len(strips)
    for y, fills, divide_at in todo:
        index = y - top
        if index >= count:
            break
        strip = strips[index]
        chops_line = chops[y]
        if len(divide_at) == 1:
            end = divide_at[0]
            # (Strip.divide's answer when the cut is its end)
            pieces = [strip] if end == strip.cell_length else _divide_once(strip, end)
        else:
            pieces = strip.divide(divide_at)
        for cut, piece in zip(fills, pieces, strict=False):
            if chops_line[cut] is None:
                chops_line[cut] = piece
        to_fill = wanted[y]
        filled += len(to_fill)
        to_fill.difference_update(fills[: len(pieces)])
        filled -= len(to_fill)
    return filled


def _divide_once(strip: Strip, end: int) -> Sequence[Strip]:
    """``strip.divide([end])``, made quicker when ``end`` falls in the blank padding the
    strip ends with, or where it begins (a view's line, drawn the whole width of its box,
    cut where its scrollbar begins: some 50 lines of a followed page's frame): Textual
    walks every segment to find the cut, measuring each."""
    length = strip.cell_length
    if end == length:
        return [strip]
    segments = strip._segments
    pad = segments[-1] if segments else None
    if pad is None or pad.control or end > length or pad.text.strip(" "):
        return strip.divide((end,))
    before = length - len(pad.text)  # (the padding's cells are spaces, one cell each)
    if before > end:
        return strip.divide((end,))
    if before == end:
        # Textual's divide stops at the segment that reaches the cut: what follows it
        # with no width (a control) is left out. Made here when that is the last before
        # the padding, a segment of text with a width.
        last = segments[-2] if len(segments) > 1 else None
        if last is None or last.control or not cell_len(last.text):
            return strip.divide((end,))
    kept = strip._divide_cache.get((end,))
    if kept is not None:
        return kept
    # As Segment.divide cuts them: the segments before the padding but those with no
    # text, then what of the padding lies before the cut.
    cut = [segment for segment in segments[:-1] if segment.text]
    if end > before:
        cut.append(Segment(pad.text[: end - before], pad.style))
    pieces = strip._divide_cache[(end,)] = [LeanStrip(cut, end)]
    return pieces


#: What fills a cut an update only touches (it writes none of it).
_EMPTY = Strip([], 0)


def _wants(cuts: list[list[int]], spans: _Spans) -> tuple[_Cuts, _Cuts]:
    """The cuts of each line in ``spans`` that they write (a cut ``x`` to ``end`` that
    Textual's update writes cells of: ``x < x2`` and ``end > x1``), and those they only
    touch (``x == x2``: Textual writes the cursor's move there, and nothing after it)."""
    writes: _Cuts = {}
    touches: _Cuts = {}
    for y, line_spans in spans.items():
        cut_set = cuts[y]
        pairs = list(pairwise(cut_set))
        written = writes[y] = frozenset(
            x for x, end in pairs if any(x < x2 and end > x1 for x1, x2 in line_spans)
        )
        touches[y] = frozenset(
            x for x, end in pairs if any(x == x2 and end > x1 for x1, x2 in line_spans)
        ).difference(written)
    return writes, touches


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
                if x == x2:  # a cut the span only touches: the move, and none of it
                    append(_move_to(x, y))
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    strip = strip.crop(0, min(end, x2) - x)
                append(_move_to(x, y))
                append(strip.render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)
