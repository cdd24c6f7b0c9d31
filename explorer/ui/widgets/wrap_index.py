"""Where each screen row of a wrapped text comes from: a line, and a range of its cells.

Wrapping a 20 MB body must not make an object per row. :class:`WrapIndex` keeps
one integer per line (the first screen row it takes) in an array, so finding
the line of row ``n`` is a bisection; a block whose lines all fit the width
(most of pretty-printed JSON) is counted without looking at each line. Lines are
cut at the width in terminal cells, wide characters kept whole (``chop_cells``).
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Callable

from rich.cells import cell_len, chop_cells

from explorer.core.body import DisplayText

__all__ = ["WrapIndex", "piece_range", "pieces"]


def pieces(line: str, width: int) -> list[tuple[int, int]]:
    """The ``(start, end)`` cell ranges of ``line`` wrapped at ``width`` cells (at least one)."""
    if line.isascii():
        length = len(line)
        return [(start, min(start + width, length)) for start in range(0, length, width)] or [
            (0, 0)
        ]
    ranges: list[tuple[int, int]] = []
    start = 0
    for piece in chop_cells(line, width):
        end = start + cell_len(piece)
        ranges.append((start, end))
        start = end
    return ranges or [(0, 0)]


def piece_range(line: str, width: int, piece: int) -> tuple[int, int]:
    """The cell range of piece ``piece`` of ``line`` wrapped at ``width`` (a 20 MB line's
    piece costs no list of every piece)."""
    if line.isascii():
        start = piece * width
        return start, min(start + width, len(line))
    ranges = pieces(line, width)
    return ranges[min(piece, len(ranges) - 1)]


def _rows(line: str, width: int) -> int:
    if line.isascii():
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
                self._starts.append(row)
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
