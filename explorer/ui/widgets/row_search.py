"""A search in a table's rows: the rows that hold it, the one the cursor is on, the count.

The headers tab and a stream's events search the same way: each row as one text,
the cursor taken to the first match, ``n`` and ``N`` going round the matches, and
the find bar counting them (``2 of 5 headers``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from explorer.core.text.plural import counted

__all__ = ["RowSearch"]


class RowSearch:
    """The rows of a table that hold a pattern, and which of them is current."""

    def __init__(self, noun: str) -> None:
        #: What a row is, for the count: ``header``, ``event``.
        self.noun = noun
        self.pattern: re.Pattern[str] | None = None
        self.found: list[int] = []
        self.current: int | None = None

    def find(self, pattern: re.Pattern[str] | None, rows: Iterable[str]) -> int | None:
        """Search ``rows`` (each row's text) for ``pattern`` (None: no search); the row of
        the first match, to move the cursor to (None: none)."""
        self.pattern = pattern
        self.current = None
        self.found = []
        if pattern is None:
            return None
        self.found = [row for row, text in enumerate(rows) if pattern.search(text)]
        return self.step(1)

    def step(self, step: int) -> int | None:
        """The row ``step`` matches on from the current one, round the end (None: none)."""
        if not self.found:
            return None
        if self.current is None:
            self.current = 0 if step > 0 else len(self.found) - 1
        else:
            self.current = (self.current + step) % len(self.found)
        return self.found[self.current]

    @property
    def status(self) -> str:
        """``2 of 5 headers``, ``no match``: the count the find bar shows ("" when none)."""
        if self.pattern is None:
            return ""
        if not self.found:
            return "no match"
        current = f"{self.current + 1} of " if self.current is not None else ""
        return f"{current}{counted(len(self.found), self.noun)}"
