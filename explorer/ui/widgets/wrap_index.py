"""Where each screen row of a wrapped text comes from: a line, and a range of its cells.

Wrapping a 20 MB body must not make an object per row. :class:`WrapIndex` keeps
one integer per line (the first screen row it takes) in an array, so finding
the line of row ``n`` is a bisection; a block whose lines all fit the width
(most of pretty-printed JSON) is counted without looking at each line.

A line wraps as prose does in an editor: before the word that would not fit,
the spaces that end a row left out of it (they would be cells past the width);
a word longer than the width is cut at the width, wide characters kept whole
(``chop_cells``). A line longer than :data:`WORD_WRAP_LIMIT` characters (a
minified document on one line) is cut at the width throughout: finding its
``n``-th piece is then arithmetic, and costs nothing per piece before it.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Callable
from itertools import pairwise

from rich.cells import cell_len, chop_cells

from explorer.core.bodies.display import DisplayText

__all__ = ["WORD_WRAP_LIMIT", "WrapIndex", "piece_at", "piece_range", "pieces"]

#: Lines up to this many characters wrap between words; longer ones at the width.
WORD_WRAP_LIMIT = 20_000
#: A word and the spaces after it (or spaces alone, at the start of a line).
_WORD = re.compile(r"[^ ]+ *| +")
_NOT_SPACE = re.compile(r"[^ ]")


def pieces(line: str, width: int) -> list[tuple[int, int]]:
    """The ``(start, end)`` cell ranges of ``line`` wrapped at ``width`` cells (at least one)."""
    if len(line) > WORD_WRAP_LIMIT:
        return _cut(line, width)
    if line.isascii():
        return _ascii_pieces(line, width)
    return _word_pieces(line, width)


def _ascii_pieces(line: str, width: int) -> list[tuple[int, int]]:
    """:func:`_word_pieces` for a line of one cell a character: a look at the row's
    end and a search back for a space, a row at a time (not a word at a time)."""
    ranges: list[tuple[int, int]] = []
    start, length = 0, len(line)
    while length - start > width:
        limit = start + width  # the first character past the row
        if line[limit] == " ":  # a word ends at the row's end: its spaces go unseen
            ranges.append((start, limit))
            word = _NOT_SPACE.search(line, limit)
            if word is None:
                return ranges
            start = word.start()
            continue
        space = line.rfind(" ", start, limit)
        end = limit if space < start else space + 1  # (no space: a word wider than a row)
        ranges.append((start, end))
        start = end
    ranges.append((start, length))
    return ranges


def _word_pieces(line: str, width: int) -> list[tuple[int, int]]:
    """The rows of ``line``, a word at a time, in cells (see the module's docstring)."""
    ascii_only = line.isascii()
    ranges: list[tuple[int, int]] = []
    start = end = 0  # the row being filled: its first cell, and the end of its last word
    for match in _WORD.finditer(line):
        token = match.group()
        word = token.rstrip(" ")
        word_cells = len(word) if ascii_only else cell_len(word)
        if end + word_cells - start > width and end > start:
            ranges.append((start, min(end, start + width)))  # (its last spaces left out)
            start = end
        if word_cells > width:  # a word no row holds: cut at the width
            chunks = _chunks(word, width, ascii_only)
            for chunk in chunks[:-1]:
                ranges.append((start, start + chunk))
                start += chunk
            end = start + chunks[-1]
        else:
            end += word_cells
        end += len(token) - len(word)
    ranges.append((start, min(end, start + width)))
    return ranges


def _chunks(word: str, width: int, ascii_only: bool) -> list[int]:
    """The cell widths of ``word`` cut into rows of at most ``width`` cells."""
    if ascii_only:
        return [min(width, len(word) - at) for at in range(0, len(word), width)]
    return [cell_len(chunk) for chunk in chop_cells(word, width)]


def _cut(line: str, width: int) -> list[tuple[int, int]]:
    """The ranges of ``line`` cut at every ``width`` cells, words or not."""
    if line.isascii():
        length = len(line)
        return [(start, min(start + width, length)) for start in range(0, length, width)] or [
            (0, 0)
        ]
    cells, _ = _edges(line, width)
    return list(pairwise(cells))


def piece_range(line: str, width: int, piece: int) -> tuple[int, int]:
    """The cell range of piece ``piece`` of ``line`` wrapped at ``width`` (a 20 MB line's
    piece costs no list of every piece)."""
    if len(line) > WORD_WRAP_LIMIT and line.isascii():
        start = piece * width
        return start, min(start + width, len(line))
    ranges = pieces(line, width)
    return ranges[min(piece, len(ranges) - 1)]


def piece_at(line: str, width: int, cell: int) -> int:
    """The piece of ``line`` wrapped at ``width`` that shows cell ``cell`` (for a space
    left out at the end of a row, that row)."""
    if len(line) > WORD_WRAP_LIMIT and line.isascii():
        return cell // width
    starts = [start for start, _ in pieces(line, width)]
    return max(0, bisect.bisect_right(starts, cell) - 1)


def _rows(line: str, width: int) -> int:
    if len(line) > WORD_WRAP_LIMIT and line.isascii():
        return max(1, -(-len(line) // width))
    return len(pieces(line, width))


class WrapIndex:
    """The screen rows of ``text`` wrapped at ``width`` cells.

    ``cancelled`` is asked between blocks (a thread builds the index of a large text).
    """

    def __init__(
        self, text: DisplayText, width: int, cancelled: Callable[[], bool] = lambda: False
    ) -> None:
        self.width = max(width, 1)
        self.complete = False
        self._starts = array("q")
        #: Where each row of a long line that is not ASCII starts, its end last, in
        #: cells and in characters: cut once, here (in a thread for a large text), as
        #: finding a piece anew scans the line up to it (0.7 s a row on a 50 MB line).
        self._cut_lines: dict[int, tuple[array[int], array[int]]] = {}
        row = 0
        for _first, chunk in text.chunks():
            if cancelled():
                return
            lines = chunk.split("\n")
            if chunk.endswith("\n"):
                lines.pop()
            if chunk.isascii() and max(map(len, lines), default=0) <= self.width:
                self._starts.extend(range(row, row + len(lines)))  # one row a line
                row += len(lines)
                continue
            for line in lines:
                number = len(self._starts)
                self._starts.append(row)
                if len(line) > WORD_WRAP_LIMIT and not line.isascii():
                    cut = self._cut_lines[number] = _edges(line, self.width)
                    row += len(cut[0]) - 1
                else:
                    row += _rows(line, self.width)
        #: How many screen rows the text takes.
        self.rows = row
        self.complete = True

    def __len__(self) -> int:
        return len(self._starts)

    def locate(self, row: int) -> tuple[int, int]:
        """``(line, piece)``: screen row ``row`` shows piece ``piece`` of line ``line``."""
        line = bisect.bisect_right(self._starts, row) - 1
        return line, row - self._starts[line]

    def first_row(self, line: int) -> int:
        """The first screen row of ``line``."""
        return self._starts[min(max(line, 0), len(self._starts) - 1)] if self._starts else 0

    def piece_range(self, number: int, line: str, piece: int) -> tuple[int, int]:
        """The cell range of piece ``piece`` of line ``number`` (its text: ``line``)."""
        cut = self._cut_lines.get(number)
        if cut is None:
            return piece_range(line, self.width, piece)
        cells = cut[0]
        piece = min(piece, len(cells) - 2)
        return cells[piece], cells[piece + 1]

    def piece_of_column(self, number: int, line: str, column: int) -> int:
        """The piece of line ``number`` (its text: ``line``) that shows its character
        ``column``."""
        cut = self._cut_lines.get(number)
        if cut is None:
            cell = column if line.isascii() else cell_len(line[:column])
            return piece_at(line, self.width, cell)
        columns = cut[1]
        return max(0, min(bisect.bisect_right(columns, column) - 1, len(columns) - 2))


def _edges(line: str, width: int) -> tuple[array[int], array[int]]:
    """Where each piece of ``line`` cut at ``width`` starts, its end last: in cells, and
    in characters."""
    cells, columns = array("q", [0]), array("q", [0])
    for chunk in chop_cells(line, width):
        cells.append(cells[-1] + cell_len(chunk))
        columns.append(columns[-1] + len(chunk))
    if len(cells) == 1:  # (an empty line: one piece, empty)
        cells.append(0)
        columns.append(0)
    return cells, columns
