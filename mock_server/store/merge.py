"""A query's answer from a collection's two parts: the written records and the seeded ones.

Each part comes in the query's order as a sequence that can be indexed
without listing it: the written records from an index (:class:`ById`,
:class:`Sorted`) or a sorted list, the seeded ones from the seed's plan less
the records a write hides (:class:`Visible`). :func:`merge` finds where a
window of the merged order starts by binary search, then walks both.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mock_server.store.indexes import SortIndex
from mock_server.store.record import Record

if TYPE_CHECKING:
    from mock_server.store.seeded import Sequence as SeededSequence


class ById(Sequence[Record]):
    """Written records by ascending (or descending) id: the id index, read in place."""

    def __init__(self, written: dict[int, Record], ids: list[int], descending: bool) -> None:
        self.written = written
        self.ids = ids
        self.descending = descending

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, index: int) -> Record:  # type: ignore[override]
        if self.descending:
            index = len(self.ids) - 1 - index
        return self.written[self.ids[index]]


class Sorted(Sequence[Record]):
    """Written records in the order of a sort index, read in place."""

    def __init__(self, written: dict[int, Record], order: SortIndex) -> None:
        self.written = written
        self.order = order

    def __len__(self) -> int:
        return len(self.order.entries)

    def __getitem__(self, position: int) -> Record:  # type: ignore[override]
        return self.written[self.order.id_at(position)]


class Visible:
    """A seeded query's records less those a write hides, as records by position."""

    def __init__(
        self, plan: SeededSequence, hidden: set[int], made: Callable[[int], Record | None]
    ) -> None:
        self.plan = plan
        self.made = made
        positions = (plan.rank(record_id) for record_id in hidden) if hidden else ()
        #: Positions in ``plan`` of the seeded records a write hides, ascending.
        self.skipped = sorted(p for p in positions if p is not None)

    def __len__(self) -> int:
        return len(self.plan) - len(self.skipped)

    def __getitem__(self, index: int) -> Record:
        position = index
        while True:  # the least position p with p - |skipped <= p| == index
            moved = index + bisect_right(self.skipped, position)
            if moved == position:
                break
            position = moved
        record = self.made(self.plan.select(position))
        assert record is not None
        return record


def merge(
    seeded: Visible,
    written: Sequence[Record],
    compare: Callable[[Record, Record], int],
    offset: int,
    limit: int,
) -> tuple[list[Record], int]:
    """Positions ``offset`` to ``offset + limit`` of two ordered sequences merged."""
    total = len(seeded) + len(written)
    if offset >= total:
        return [], total
    # How many of the first ``offset`` come from the seed: the least count c for which
    # the next seeded record does not come before the last written one taken.
    lo, hi = max(0, offset - len(written)), min(offset, len(seeded))
    while lo < hi:
        taken = (lo + hi) // 2
        if compare(seeded[taken], written[offset - taken - 1]) < 0:
            lo = taken + 1
        else:
            hi = taken
    i, j = lo, offset - lo
    window: list[Record] = []
    while len(window) < limit and (i < len(seeded) or j < len(written)):
        if j >= len(written) or (i < len(seeded) and compare(seeded[i], written[j]) < 0):
            window.append(seeded[i])
            i += 1
        else:
            window.append(written[j])
            j += 1
    return window, total
