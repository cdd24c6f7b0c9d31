"""Sets of the seed's rounds, and the order the seeded names put them in.

The seed repeats its base rows round after round (:mod:`mock_server.store.seeded`),
so whatever a query asks of the seeded records comes down, base row by base
row, to a set of rounds: all of them (``city=cambridge`` on a Cambridge row),
none, a few intervals (the names that start ``Ada Lovelace 4``), or a list
(the names with ``42`` somewhere in their number). :class:`Ranges` and
:class:`Explicit` answer what the queries need without listing the rounds:
how many fall in an interval, and the next one from a round on.

A seeded name is the base name, then from the second round on a space and
the round's number plus one (``Ada Lovelace``, ``Ada Lovelace 2``, ...), so
names sort in the *lexicographic* order of those numbers (``… 10`` before
``… 9``). :func:`lex_select` and :func:`lex_rank` find the k-th round of a
set in that order, and where a round stands in it, by counting down the
decimal digits (the denary trie) rather than sorting.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate
from typing import Protocol


class Rounds(Protocol):
    """A set of rounds (whole numbers from 0)."""

    def count_in(self, lo: int, hi: int) -> int:
        """How many rounds of the set are in ``[lo, hi)``."""

    def next_from(self, start: int) -> int | None:
        """The smallest round of the set at or after ``start``."""

    def prev_from(self, start: int) -> int | None:
        """The largest round of the set at or before ``start``."""

    def __contains__(self, round_: object) -> bool: ...

    def __len__(self) -> int: ...


class Ranges:
    """The rounds in some half-open intervals ``[start, end)``."""

    def __init__(self, intervals: Iterable[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for start, end in sorted((s, e) for s, e in intervals if s < e):
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self.starts = [start for start, _ in merged]
        self.ends = [end for _, end in merged]
        #: ``before[i]``: how many rounds the intervals before interval ``i`` hold.
        self.before = [0, *accumulate(end - start for start, end in merged)]

    def __repr__(self) -> str:
        return f"Ranges({list(zip(self.starts, self.ends, strict=True))})"

    def __len__(self) -> int:
        return self.before[-1]

    def __contains__(self, round_: object) -> bool:
        if not isinstance(round_, int):
            return False
        index = bisect_right(self.starts, round_) - 1
        return index >= 0 and round_ < self.ends[index]

    def _below(self, bound: int) -> int:
        """How many rounds of the set are under ``bound``."""
        index = bisect_right(self.starts, bound) - 1
        if index < 0:
            return 0
        return self.before[index] + min(bound, self.ends[index]) - self.starts[index]

    def count_in(self, lo: int, hi: int) -> int:
        return max(0, self._below(hi) - self._below(lo)) if lo < hi else 0

    def next_from(self, start: int) -> int | None:
        index = bisect_right(self.ends, start)
        if index == len(self.starts):
            return None
        return max(start, self.starts[index])

    def prev_from(self, start: int) -> int | None:
        index = bisect_right(self.starts, start) - 1
        if index < 0:
            return None
        return min(start, self.ends[index] - 1)

    def intervals(self) -> list[tuple[int, int]]:
        """The intervals, in order."""
        return list(zip(self.starts, self.ends, strict=True))


class Explicit:
    """The rounds listed one by one."""

    def __init__(self, rounds: Iterable[int]) -> None:
        self.rounds: Sequence[int] = sorted(set(rounds))

    def __repr__(self) -> str:
        return f"Explicit({len(self.rounds)} rounds)"

    def __len__(self) -> int:
        return len(self.rounds)

    def __contains__(self, round_: object) -> bool:
        if not isinstance(round_, int):
            return False
        index = bisect_left(self.rounds, round_)
        return index < len(self.rounds) and self.rounds[index] == round_

    def count_in(self, lo: int, hi: int) -> int:
        if lo >= hi:
            return 0
        return bisect_left(self.rounds, hi) - bisect_left(self.rounds, lo)

    def next_from(self, start: int) -> int | None:
        index = bisect_left(self.rounds, start)
        return self.rounds[index] if index < len(self.rounds) else None

    def prev_from(self, start: int) -> int | None:
        index = bisect_right(self.rounds, start) - 1
        return self.rounds[index] if index >= 0 else None


NONE = Ranges(())


def every(rounds: int) -> Ranges:
    """All rounds from 0 to ``rounds - 1``."""
    return Ranges(((0, rounds),))


def members(found: Rounds, limit: int) -> list[int] | None:
    """The rounds of ``found`` in order, or None when there are more than ``limit``."""
    if len(found) > limit:
        return None
    if isinstance(found, Explicit):
        return list(found.rounds)
    assert isinstance(found, Ranges)
    return [r for start, end in found.intervals() for r in range(start, end)]


def intersect(a: Rounds, b: Rounds) -> Rounds:
    """The rounds in both ``a`` and ``b``."""
    if isinstance(a, Ranges) and isinstance(b, Ranges):
        found: list[tuple[int, int]] = []
        i = j = 0
        left, right = a.intervals(), b.intervals()
        while i < len(left) and j < len(right):
            start = max(left[i][0], right[j][0])
            end = min(left[i][1], right[j][1])
            if start < end:
                found.append((start, end))
            if left[i][1] < right[j][1]:
                i += 1
            else:
                j += 1
        return Ranges(found)
    small, other = (a, b) if isinstance(a, Explicit) else (b, a)
    assert isinstance(small, Explicit)
    return Explicit(r for r in small.rounds if r in other)


def union(parts: Sequence[Rounds]) -> Rounds:
    """The rounds in any of ``parts``."""
    ranges = [part for part in parts if isinstance(part, Ranges)]
    if len(ranges) == len(parts):
        return Ranges(interval for part in ranges for interval in part.intervals())
    listed: set[int] = set()
    for part in parts:
        found = members(part, limit=2**62)
        assert found is not None
        listed.update(found)
    return Explicit(listed)


# The names' order ------------------------------------------------------------------------
#
# Round 0's name has no number and comes first; round r >= 1 has the number n = r + 1,
# and these sort as the strings str(n). ``top`` is the largest number, the round count.


def _numbers_in(found: Rounds, lo: int, hi: int) -> int:
    """How many numbers n in ``[lo, hi)`` belong to rounds of ``found`` (n = r + 1, r >= 1)."""
    lo = max(lo, 2)
    return found.count_in(lo - 1, hi - 1) if lo < hi else 0


def _subtree(found: Rounds, prefix: int, top: int) -> int:
    """How many numbers up to ``top`` whose decimal form starts with ``prefix`` are in the set."""
    total = 0
    lo, hi = prefix, prefix + 1
    while lo <= top:
        total += _numbers_in(found, lo, min(hi, top + 1))
        lo *= 10
        hi *= 10
    return total


def lex_select(found: Rounds, k: int, top: int) -> int:
    """The ``k``-th round (from 0) of ``found`` in the order of the names.

    ``top`` is the number of rounds: no number exceeds it.
    """
    if 0 in found:
        if k == 0:
            return 0
        k -= 1
    prefix = 1
    while True:
        count = _subtree(found, prefix, top)
        if k >= count:
            k -= count
            prefix += 1  # the next sibling holds it (a parent's count said it is there)
            continue
        if prefix >= 2 and prefix - 1 in found:  # the number itself, before its extensions
            if k == 0:
                return prefix - 1
            k -= 1
        prefix *= 10


def lex_rank(found: Rounds, round_: int, top: int) -> int:
    """How many rounds of ``found`` come before ``round_`` in the order of the names."""
    if round_ == 0:
        return 0
    rank = 1 if 0 in found else 0
    digits = str(round_ + 1)
    for position in range(len(digits)):
        head = digits[:position]
        first = 1 if position == 0 else 0
        for digit in range(first, int(digits[position])):
            rank += _subtree(found, int(head + str(digit)), top)
        if position + 1 < len(digits):  # a proper prefix comes before its extensions
            number = int(digits[: position + 1])
            if number >= 2 and number - 1 in found:
                rank += 1
    return rank
