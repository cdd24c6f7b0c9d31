"""A text laid out in lines as Textual's wrapping lays it out, a line that fits its width
not cut into words.

Textual wraps a text (``Content._wrap_and_format``) by cutting each of its lines into
words and measuring each (``rich._wrap.divide_line``), though a line that fits its width
is not cut: it is then truncated to the width, stripped of the spaces past it and padded
by ``line-pad``, none of which changes it (``line-pad`` aside). Its no-wrap path, whether
it folds or truncates, also leaves such a line as it is, and makes the same line (at x 0,
the same y, alignment and styles) but for the last line's ``line_end``, which only
``text-align: justify`` reads. So, without ``line-pad``, justification or a tab, a text
whose lines all fit is laid out the no-wrap way, measured once a line; and a text with a
line too long (the status line's URL, its advice) is laid out a line at a time, the
lines that fit the no-wrap way and only the others cut into words (half the wrapping's
time was the measuring of lines that fit).

The one place restwalk leans on Textual's internals for this (``Content``'s
``_wrap_and_format`` and its lines' ``y``): pinned by the textual range in pyproject,
and tested to lay out what Textual lays out (tests/explorer/ui/test_offset_styles.py,
tests/explorer/ui/test_plain_styles.py).
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.content import Content, _FormattedLine
from textual.visual import RenderOptions

__all__ = ["fits", "formatted_lines"]


def fits(text: str, width: int) -> bool:
    """True when each line of ``text`` fits ``width`` in cells and in characters (what
    Textual's wrapping cuts or strips past), tabs aside (they are widened first)."""
    return "\t" not in text and all(
        len(line) <= width and cell_len(line) <= width for line in text.split("\n")
    )


def formatted_lines(content: Content, width: int, options: RenderOptions) -> list[_FormattedLine]:
    """The lines ``content._wrap_and_format`` makes ``width`` cells wide with ``options``
    (its widget's rules, selection and styles), each line that fits laid out unwrapped."""
    rules = options.rules
    align = rules.get("text_align", "left")
    overflow = rules.get("text_overflow", "fold")
    no_wrap = rules.get("text_wrap", "wrap") == "nowrap"
    line_pad = rules.get("line_pad", 0)

    def lay_out(text: Content, unwrapped: bool) -> list[_FormattedLine]:
        return text._wrap_and_format(
            width,
            align=align,
            overflow=overflow,
            no_wrap=unwrapped,
            line_pad=line_pad,
            tab_size=8,
            selection=options.selection,
            selection_style=options.selection_style,
            post_style=options.post_style,
            get_style=options.get_style,
        )

    plain = content.plain
    if no_wrap or line_pad or align == "justify" or "\t" in plain:
        return lay_out(content, no_wrap)
    if fits(plain, width):
        return lay_out(content, True)
    if options.selection is not None:  # (its spans are found by the line's y)
        return lay_out(content, False)
    lines: list[_FormattedLine] = []
    for y, line in enumerate(content.split(allow_blank=True)):
        made = lay_out(line, fits(line.plain, width))
        for formatted in made:
            formatted.y = y
        lines.extend(made)
    return lines
