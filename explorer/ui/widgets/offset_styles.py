"""A text's lines made into strips with each style worked out once, not once a segment.

Textual draws a :class:`~textual.content.Content` line by line (``_FormattedLine.to_strip``):
for each run of text in one style it adds the widget's style to the run's, then makes
the Rich style of the sum from scratch (``Style.rich_style_with_offset``: the colours
mixed, the attributes summed, the meta pickled), for the meta's ``offset`` (where the run
starts: text selection reads it), which is all that differs between two runs in one
style. The status line, the breadcrumb and the link detail draw some twenty runs a
followed page's frame, in a handful of styles the same from page to page:
:func:`content_strips` works out each style's Rich style once (kept for the next
drawings) and makes each run's from it, the offset put in its
meta (a few us a run, not ten), for the lines Textual aligns left (all of restwalk's);
any other line is Textual's own. A line with a dim run or a colour of the terminal's
goes through the app's ANSI-to-truecolor filter, whose cache of styles never holds a
run's (no two offsets alike): :func:`truecolor_strip` filters each as its style without
the meta, once.

The one place restwalk leans on Textual's and Rich's internals for this (``Content``'s
``_wrap_and_format`` and ``_FormattedLine``, Rich ``Style``'s slots and its link ids):
pinned by the textual range in pyproject, and tested to draw what Textual draws,
offsets and all (tests/explorer/ui/test_offset_styles.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from pickle import dumps
from typing import Any

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.style import _id_generator
from textual.color import Color
from textual.content import Content, _FormattedLine
from textual.filter import ANSIToTruecolor
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions

from explorer.ui.widgets.fitting_lines import formatted_lines
from explorer.ui.widgets.lean_strip import LeanStrip

__all__ = ["content_strips", "truecolor_strip", "with_offset"]

#: The alignments whose lines are drawn here (Textual's left-aligned path).
_LEFT = ("start", "left")


def content_strips(
    content: Content, width: int, height: int | None, style: Style, options: RenderOptions
) -> list[Strip]:
    """What ``content.render_strips(width, height, style, options)`` gives, each style's
    Rich style worked out once (:func:`_base`), the lines that fit laid out unwrapped
    (:func:`~explorer.ui.widgets.fitting_lines.formatted_lines`)."""
    if not width:
        return []
    lines = formatted_lines(content, width, options)
    if height is not None:
        lines = lines[:height]
    return [_strip(line, style) for line in lines]


def _strip(line: _FormattedLine, style: Style) -> Strip:
    """``Strip(*line.to_strip(style))``, a left-aligned line's runs styled from their
    style's :func:`_base`."""
    align = line.align
    if not (align in _LEFT or (align == "justify" and line.line_end)):
        return Strip(*line.to_strip(style))
    content = line.content
    x, y = line.x, line.y
    segments: list[Segment] = []
    add = segments.append
    for text, text_style in content.render(style, end="", parse_style=line.get_style):
        base = _base(style, text_style)
        if base is None:  # (a link: Rich's own making, its link id and all)
            add(Segment(text, (style + text_style).rich_style_with_offset(x, y)))
        else:
            add(Segment(text, with_offset(base[0], base[1], x, y)))
        x += len(text)
    return LeanStrip(segments, content.cell_length)


@lru_cache(maxsize=1024)
def _base(style: Style, text_style: Style) -> tuple[RichStyle, Mapping[str, Any]] | None:
    """The Rich style (at offset 0) and the meta of a run in ``text_style`` on ``style``
    (a widget's few styles: kept from page to page); None for a link's."""
    summed = style + text_style
    rich = summed.rich_style_with_offset(0, 0)
    return None if rich._link else (rich, summed.meta)


def with_offset(rich: RichStyle, meta: Mapping[str, Any], x: int, y: int) -> RichStyle:
    """``rich`` (no link) with ``meta`` and the ``offset`` ``(x, y)`` as its meta: the style
    ``Style.rich_style_with_offset(x, y)`` makes, without making it again from the
    Textual style (as Rich's ``Style.__init__`` sets a style made with a meta)."""
    pickled = dumps({**meta, "offset": (x, y)})
    return _made_like(rich, pickled, f"{next(_id_generator)}{hash(pickled)}")


def _made_like(colours: RichStyle, meta: bytes, link_id: str) -> RichStyle:
    """A Rich style with ``colours``' colours and attributes, no link, and ``meta`` (its
    pickled bytes) under ``link_id``: as Rich's ``Style.__init__`` sets one made with a
    meta, without working the colours out again."""
    made: RichStyle = RichStyle.__new__(RichStyle)
    made._ansi = None
    made._style_definition = None
    made._color = colours._color
    made._bgcolor = colours._bgcolor
    made._attributes = colours._attributes
    made._set_attributes = colours._set_attributes
    made._link = None
    made._meta = meta
    made._link_id = link_id
    made._hash = None
    made._null = False
    return made


def truecolor_strip(line_filter: ANSIToTruecolor, strip: Strip, background: Color) -> Strip:
    """``strip.apply_filter(line_filter, background)``, each style with a meta (a run's
    offset: no two alike, so the filter's cache of styles never holds it, and it sums
    each dim one anew, twice) filtered as its style without the meta is, the meta put back.
    """
    rich_background = background.rich_color
    filtered = line_filter.truecolor_style
    segments = [
        Segment(
            text,
            None if style is None else _filtered(filtered, style, rich_background),
            None,
        )
        for text, style, _ in strip._segments
    ]
    return LeanStrip(segments, strip.cell_length)


def _filtered(
    filtered: Callable[[RichStyle, RichColor], RichStyle],
    style: RichStyle,
    background: RichColor,
) -> RichStyle:
    """``filtered(style, background)``, worked out once for a style's colours and
    attributes whatever its meta (it reads no meta and keeps it)."""
    if style._meta is None or style._link:
        return filtered(style, background)
    bare = _bare(style._color, style._bgcolor, style._attributes, style._set_attributes)
    done = filtered(bare, background)
    if done == bare:  # (left as it was)
        return style
    return _made_like(done, style._meta, style._link_id)


@lru_cache(maxsize=1024)
def _bare(
    color: RichColor | None, bgcolor: RichColor | None, attributes: int, set_attributes: int
) -> RichStyle:
    """The style of these colours and attributes, no meta and no link."""
    bare: RichStyle = RichStyle.__new__(RichStyle)
    bare._ansi = None
    bare._style_definition = None
    bare._color = color
    bare._bgcolor = bgcolor
    bare._attributes = attributes
    bare._set_attributes = set_attributes
    bare._link = None
    bare._link_id = ""
    bare._meta = None
    bare._hash = None
    bare._null = not (set_attributes or color or bgcolor)
    return bare
