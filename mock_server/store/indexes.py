"""Indexes of a collection's written records, built at first use and kept up to date by writes.

- :class:`SortIndex`: the records ordered by one reading, as (value, id)
  pairs: a page is a slice, a range of values a bisection;
- :class:`GroupIndex`: the ids by the value of one reading, for equality;
- the trigrams of a text reading are :mod:`mock_server.store.text_index`'s.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Hashable
from typing import Any

from mock_server.store.query import Condition, Reading
from mock_server.store.record import Record


def hashable(value: Any) -> Hashable:
    """``value`` as a dictionary key (its repr when it is a list or a dict)."""
    return value if isinstance(value, Hashable) else repr(value)


class SortIndex:
    """The written records ordered by one reading, as (value, id) pairs: bisected, never re-sorted.

    Descending indexes hold (value, -id) and are read from the end, so that
    ties still come in ascending id order.
    """

    def __init__(self, reading: Reading, descending: bool, records: Any) -> None:
        self.reading = reading
        self.sign = -1 if descending else 1
        self.entries: list[tuple[Any, int]] = sorted(self._entry(r) for r in records)

    def _entry(self, record: Record) -> tuple[Any, int]:
        return (self.reading.of(record), self.sign * record.id)

    def add(self, record: Record) -> None:
        insort(self.entries, self._entry(record))

    def remove(self, record: Record) -> None:
        del self.entries[bisect_left(self.entries, self._entry(record))]

    def id_at(self, position: int) -> int:
        """The id at ``position`` in this order (ascending, or descending by value)."""
        if self.sign == 1:
            return self.entries[position][1]
        return -self.entries[len(self.entries) - 1 - position][1]

    def between(self, condition: Condition) -> list[int]:
        """The ids whose value is at least (or at most) the condition's: an ascending index."""
        value = condition.value
        if condition.test == "at_least":
            chosen = self.entries[bisect_left(self.entries, (value, float("-inf"))) :]
        else:
            chosen = self.entries[: bisect_right(self.entries, (value, float("inf")))]
        return sorted(record_id for _, record_id in chosen)


class GroupIndex:
    """The written ids by the value of one reading: each value's ids ascending."""

    def __init__(self, reading: Reading, records: Any) -> None:
        self.reading = reading
        self.groups: dict[Hashable, list[int]] = {}
        for record in sorted(records, key=lambda r: r.id):
            self.groups.setdefault(self._value(record), []).append(record.id)

    def _value(self, record: Record) -> Hashable:
        return hashable(self.reading.of(record))

    def add(self, record: Record) -> None:
        ids = self.groups.setdefault(self._value(record), [])
        if not ids or ids[-1] < record.id:
            ids.append(record.id)
        else:
            insort(ids, record.id)

    def remove(self, record: Record) -> None:
        value = self._value(record)
        ids = self.groups[value]
        del ids[bisect_left(ids, record.id)]
        if not ids:
            del self.groups[value]
