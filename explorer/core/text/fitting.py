"""Text made to fit a number of cells: a long line wrapped between words but never
between a number and its unit ("56 s", "2.1 KB"), a URL broken into lines of a width,
or cut in its middle.

These decide what is kept and where a line may break; the widgets only lay the lines
out. Widths are terminal cells, counted as the terminal filter counts them
(:func:`~explorer.core.text.terminal_text.cells`), so a line said to fit does fit.
"""

from __future__ import annotations

import re
import textwrap

from explorer.core.text.terminal_text import cells

__all__ = ["cut_middle", "split_cells", "wrap_words"]

#: A number and the unit after it, which a line never separates.
_NUMBER_UNIT = re.compile(r"(\d) (ms|s|B|KB|MB|GB|%)(?=\W|$)")
#: Holds a number to its unit while a line is wrapped (not whitespace to textwrap).
_GLUE = "\u00a0"


def cut_middle(text: str, width: int) -> str:
    """``text`` when it fits in ``width`` cells, else its start and end around an
    ellipsis: a URL keeps its host and its last path segment, which tell it apart."""
    if cells(text) <= width:
        return text
    if width <= 1:
        return "…"[:width]
    room = width - 1
    head, tail = _fit(text, (room + 1) // 2), _fit(text[::-1], room // 2)[::-1]
    return f"{head}…{tail}"


def split_cells(text: str, width: int) -> list[str]:
    """``text`` in pieces of at most ``width`` cells each, in order (a URL has no spaces
    to break at: every character is kept, none is hidden)."""
    pieces: list[str] = []
    while text:
        piece = _fit(text, max(width, 1)) or text[0]  # (a wide character in one cell)
        pieces.append(piece)
        text = text[len(piece) :]
    return pieces


def _fit(text: str, width: int) -> str:
    """The longest start of ``text`` within ``width`` cells."""
    used = 0
    for index, char in enumerate(text):
        used += cells(char)
        if used > width:
            return text[:index]
    return text


def wrap_words(text: str, width: int, indent: int = 0) -> list[str]:
    """``text`` in lines of at most ``width`` characters after ``indent`` spaces (the
    indent is not included), broken between words, a number never parted from its unit;
    a word longer than a line is cut (a URL without spaces). For restwalk's own texts,
    whose characters take one cell each."""
    room = max(width - indent, 1)
    glued = _NUMBER_UNIT.sub(rf"\1{_GLUE}\2", text)
    lines = textwrap.wrap(glued, room, break_on_hyphens=False) or [""]
    return [line.replace(_GLUE, " ") for line in lines]
