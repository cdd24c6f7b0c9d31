"""What the store can be asked: fields read one way, conditions on them, orders by them.

The collection query layer (:mod:`mock_server.domain.collection_query`)
turns query parameters into these, and the store answers them from its
indexes and from the seed's own structure instead of scanning every record.
Each is a small frozen value with the one function that defines it, so that
an index, the seed's analysis and a plain scan cannot disagree on meaning:

- a :class:`Reading` is how a field is read from a record's data: ``folded``
  text (``str(value).casefold()``, ``""`` when missing), ``text`` (``str``),
  ``number`` (``float``, 0 when missing), ``whole`` (``int``, 0 when missing)
  or ``raw`` (the value itself, None when missing); ``field`` ``"id"`` is the
  record's id;
- a :class:`Condition` keeps the records whose reading ``contains`` the
  wanted text, ``equals`` the wanted value, or is ``at_least`` or ``at_most``
  it;
- an :class:`Order` is a reading and a direction; ties always fall back to
  ascending id, as a stable sort of the records by id would leave them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cmp_to_key
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from mock_server.store.record import Record

Form = Literal["folded", "text", "number", "whole", "raw"]
Test = Literal["contains", "equals", "at_least", "at_most"]

ID = "id"
_MISSING: dict[Form, Any] = {"folded": "", "text": "", "number": 0, "whole": 0, "raw": None}


@dataclass(frozen=True)
class Reading:
    """A field of a record's data (``address.city``: nested), read in one ``form``."""

    field: str
    form: Form = "raw"

    @property
    def path(self) -> tuple[str, ...]:
        """The keys leading to the field in a record's data."""
        return tuple(self.field.split("."))

    def of_data(self, data: dict[str, Any]) -> Any:
        """The field's value in ``data``, read in this form."""
        value: Any = data
        form = self.form
        for key in self.path:
            if not isinstance(value, dict) or key not in value:
                value = _MISSING[form]  # absent: as ``data.get(key, default)`` reads it
                break
            value = value[key]
        if form == "folded":
            return str(value).casefold()
        if form == "text":
            return str(value)
        if form == "number":
            return float(value)
        if form == "whole":
            return int(value)
        return value

    def of(self, record: Record) -> Any:
        """The field's value in ``record`` (its id for the field ``id``)."""
        return record.id if self.field == ID else self.of_data(record.data)


@dataclass(frozen=True)
class Condition:
    """Records whose ``reading`` passes ``test`` against ``value`` (already read alike)."""

    reading: Reading
    test: Test
    value: Any

    def matches(self, data: dict[str, Any]) -> bool:
        """True when a record with ``data`` passes."""
        found = self.reading.of_data(data)
        if self.test == "contains":
            return bool(self.value in found)
        if self.test == "equals":
            return bool(found == self.value)
        if self.test == "at_least":
            return bool(found >= self.value)
        return bool(found <= self.value)


@dataclass(frozen=True)
class Order:
    """Records by ``reading``, descending or not."""

    reading: Reading
    descending: bool = False


def compare_records(orders: Sequence[Order]) -> Callable[[Record, Record], int]:
    """A comparison of two records by ``orders``, then by ascending id."""

    def compare(a: Record, b: Record) -> int:
        for order in orders:
            left, right = order.reading.of(a), order.reading.of(b)
            if left != right:
                smaller = left < right
                return (1 if smaller else -1) if order.descending else (-1 if smaller else 1)
        return (a.id > b.id) - (a.id < b.id)

    return compare


def sort_records(records: list[Record], orders: Sequence[Order]) -> list[Record]:
    """``records`` sorted by ``orders`` (ties by ascending id), as a new list."""
    ordered = sorted(records, key=lambda r: r.id)
    for order in reversed(orders):
        # Stable passes from the last key to the first; reverse=True keeps ties in order.
        ordered.sort(key=order.reading.of, reverse=order.descending)
    return ordered


def record_key(orders: Sequence[Order]) -> Callable[[Record], Any]:
    """A sort key for records by ``orders`` then ascending id (for ``sorted``/``bisect``)."""
    return cmp_to_key(compare_records(orders))
