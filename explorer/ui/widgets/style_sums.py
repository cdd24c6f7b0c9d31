"""A base style summed with the styles put on it, each sum made once.

A widget's lines are its content's segments on the widget's own style (rich's
``Segment.apply_style``: ``base + style`` a segment). A followed page's frame makes
some 150 such sums for the body's lines, the table's rows and the scrollbars, of a
handful of different styles: here each is made once, kept by base (a few bases:
forgotten all at once past :data:`_SUMS_KEPT`).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.style import Style

__all__ = ["on_base", "plus"]

#: Sums of a base style and the styles put on it, by base (see :func:`on_base`).
_SUMS: dict[Style, dict[Style | None, Style]] = {}
#: Bases kept at most, forgotten all at once past this.
_SUMS_KEPT = 64


def _sums(base: Style) -> dict[Style | None, Style]:
    sums = _SUMS.get(base)
    if sums is None:
        if len(_SUMS) >= _SUMS_KEPT:
            _SUMS.clear()
        sums = _SUMS[base] = {}
    return sums


def plus(base: Style, style: Style | None) -> Style:
    """``base + style``, made once (see :func:`on_base`)."""
    sums = _sums(base)
    summed = sums.get(style)
    if summed is None:
        summed = base + style
        if not summed.link:
            sums[style] = summed
    return summed


def on_base(segments: Iterable[Segment], base: Style) -> list[Segment]:
    """``Segment.apply_style(segments, base)``, each sum of ``base`` and a segment's style
    made once, not a segment at a time (a rich ``Style.__add__`` a segment: some 150 a
    followed page's frame, its lines and the table's). A sum with a link is made each
    time, as rich makes it: each copy has a link id of its own."""
    if not base:
        return list(segments)
    sums = _sums(base)
    made: list[Segment] = []
    append = made.append
    for text, style, control in segments:
        if control:
            append(Segment(text, None, control))
            continue
        summed = sums.get(style)
        if summed is None:
            summed = base + style
            if not summed.link:
                sums[style] = summed
        append(Segment(text, summed, control))
    return made
