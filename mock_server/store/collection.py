"""One collection of records: ids never reused, deleted ids remembered (410 Gone).

A collection keeps indexes, so that nothing a request does scans every record:
the live ids in order (a page is a slice), the unique field (a create checks
one key), one sorted index per sort key asked for (built at first use, then
kept up to date by every write, as a database keeps its indexes), and the
newest change. :meth:`Collection.page` is the query a page without filters
makes; with filters, the caller scans :meth:`Collection.all`.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

#: How a sort key reads a record (the value must order like the others').
SortKey = Callable[["Record"], Any]
#: The value an equality filter compares, read from a record's data.
GroupKey = Callable[[dict[str, Any]], Hashable]


class NotFound(LookupError):
    """No record with this id ever existed."""


class Gone(LookupError):
    """A record with this id existed and was deleted."""


class Stale(LookupError):
    """A conditional write found the record changed since its preconditions were checked."""


class Conflict(ValueError):
    """A write that clashes with the current state (a unique field taken)."""

    def __init__(self, field_name: str, value: Any) -> None:
        super().__init__(f"{field_name} {value!r} is already taken")
        self.field_name = field_name
        self.value = value


def copied(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, scalars), ten times cheaper than deepcopy."""
    if type(value) is dict:
        return {key: copied(inner) for key, inner in value.items()}
    if type(value) is list:
        return [copied(inner) for inner in value]
    return value


@dataclass
class Record:
    """A stored entity: its id, its data (always the newest schema), and when it changed."""

    id: int
    data: dict[str, Any]
    created: float
    updated: float

    def snapshot(self) -> Record:
        """A copy safe to hand out: changing it never changes the store."""
        return Record(self.id, copied(self.data), self.created, self.updated)


@dataclass
class Collection:
    """Records by id. ``unique`` names a field no two records may share (case-insensitive)."""

    name: str
    unique: str | None = None
    records: dict[int, Record] = field(default_factory=dict)
    deleted: set[int] = field(default_factory=set)
    next_id: int = 1
    #: When a record was last deleted: a deletion changes the collection too.
    last_deletion: float = 0.0
    #: How many writes the collection has taken: what was made from it is stale once it moves.
    changes: int = field(default=0, compare=False)
    # Indexes, built at first use (the seed and the journal fill ``records`` directly).
    _ids: list[int] | None = field(default=None, init=False, repr=False, compare=False)
    _owners: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    _newest: float | None = field(default=None, init=False, repr=False, compare=False)
    _sorted: dict[tuple[str, bool], _SortIndex] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _grouped: dict[str, _GroupIndex] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def get(self, record_id: int) -> Record:
        """The record ``record_id``; :class:`Gone` if deleted, :class:`NotFound` if never used."""
        record = self.records.get(record_id)
        if record is not None:
            return record.snapshot()
        if record_id in self.deleted:
            raise Gone(record_id)
        raise NotFound(record_id)

    def all(self) -> list[Record]:
        """Every live record, by id. The records are the store's own: do not change them."""
        return list(self.records.values())

    def last_modified(self) -> float:
        """When anything in the collection last changed (0 for an empty, untouched one)."""
        if self._newest is None:
            self._newest = max((r.updated for r in self.records.values()), default=0.0)
        return max(self._newest, self.last_deletion)

    def ids(self) -> list[int]:
        """Every live id, ascending. The index itself: do not change it."""
        if self._ids is None:
            self._ids = sorted(self.records)
        return self._ids

    def page(
        self, offset: int, limit: int, sort: tuple[str, SortKey, bool] | None = None
    ) -> tuple[list[Record], int]:
        """Records ``offset`` to ``offset + limit`` and the total, by id or by ``sort``.

        ``sort`` is (name, key, descending); ties are in ascending id order
        either way, as a stable sort of the records by id would leave them.
        The records are the store's own: do not change them.
        """
        ids = self.ids()
        total = len(ids)
        if sort is None or (sort[0] == "id" and not sort[2]):
            window = ids[offset : offset + limit]
        elif sort[0] == "id":
            window = ids[max(0, total - offset - limit) : max(0, total - offset)][::-1]
        else:
            window = self._sort_index(*sort).window(offset, limit)
        return [self.records[record_id] for record_id in window], total

    def matching(self, name: str, key: GroupKey, wanted: Hashable) -> list[int]:
        """The ids (ascending) of the records whose ``key`` is ``wanted``: an equality filter.

        ``name`` names the index; the list is the index's own: do not change it.
        """
        index = self._grouped.get(name)
        if index is None:
            index = _GroupIndex(key, self.records.values())
            self._grouped[name] = index
        return index.groups.get(wanted, [])

    def _sort_index(self, name: str, key: SortKey, descending: bool) -> _SortIndex:
        index = self._sorted.get((name, descending))
        if index is None:
            index = _SortIndex(key, descending, self.records.values())
            self._sorted[name, descending] = index
        return index

    def _unique_value(self, data: dict[str, Any]) -> str | None:
        if self.unique is None or self.unique not in data:
            return None
        return str(data[self.unique]).casefold()

    def _unique_owners(self) -> dict[str, int]:
        if self._owners is None:
            self._owners = {}
            for record in self.records.values():
                value = self._unique_value(record.data)
                if value is not None:
                    self._owners.setdefault(value, record.id)
        return self._owners

    def _check_unique(self, data: dict[str, Any], record_id: int | None) -> None:
        wanted = self._unique_value(data)
        if wanted is None:
            return
        owner = self._unique_owners().get(wanted)
        if owner is not None and owner != record_id:
            assert self.unique is not None
            raise Conflict(self.unique, data[self.unique])

    def _index(self, record: Record, *, new_id: bool = True) -> None:
        """Every index built so far learns of ``record`` (just put in ``records``)."""
        if self._ids is not None and new_id:
            if not self._ids or self._ids[-1] < record.id:
                self._ids.append(record.id)
            else:
                insort(self._ids, record.id)
        value = self._unique_value(record.data)
        if self._owners is not None and value is not None:
            self._owners.setdefault(value, record.id)
        if self._newest is not None:
            self._newest = max(self._newest, record.updated)
        for index in self._sorted.values():
            index.add(record)
        for group in self._grouped.values():
            group.add(record)

    def _unindex(self, record: Record, *, keep_id: bool = False) -> None:
        """Every index built so far forgets ``record`` (its id too, unless ``keep_id``)."""
        if self._ids is not None and not keep_id:
            del self._ids[bisect_left(self._ids, record.id)]
        value = self._unique_value(record.data)
        if self._owners is not None and value is not None and self._owners.get(value) == record.id:
            del self._owners[value]
        for index in self._sorted.values():
            index.remove(record)
        for group in self._grouped.values():
            group.remove(record)

    def create(self, data: dict[str, Any], now: float) -> Record:
        """A new record with the next id."""
        self._check_unique(data, None)
        self.changes += 1
        record = Record(self.next_id, copied(data), now, now)
        self.records[record.id] = record
        self._index(record)
        self.next_id += 1
        return record.snapshot()

    def put(self, record_id: int, data: dict[str, Any], now: float) -> tuple[Record, bool]:
        """Replace record ``record_id`` or create it at that id; True when created.

        A deleted id stays gone (:class:`Gone`): ids are never reused.
        """
        if record_id in self.deleted:
            raise Gone(record_id)
        self._check_unique(data, record_id)
        self.changes += 1
        existing = self.records.get(record_id)
        created = existing is None
        record = Record(record_id, copied(data), now if existing is None else existing.created, now)
        if existing is not None:
            self._unindex(existing, keep_id=True)
        self.records[record_id] = record
        self._index(record, new_id=existing is None)
        self.next_id = max(self.next_id, record_id + 1)
        return record.snapshot(), created

    def delete(self, record_id: int, now: float = 0.0) -> None:
        """Remove record ``record_id`` (at time ``now``) and remember that it existed."""
        self.get(record_id)
        self.changes += 1
        self._unindex(self.records.pop(record_id))
        self.deleted.add(record_id)
        self.last_deletion = max(self.last_deletion, now)


class _SortIndex:
    """The live records ordered by one key, as (key, id) pairs: bisected, never re-sorted.

    Descending indexes hold (key, -id) and are read from the end, so that ties
    still come in ascending id order.
    """

    def __init__(self, key: SortKey, descending: bool, records: Any) -> None:
        self.key = key
        self.sign = -1 if descending else 1
        self.entries: list[tuple[Any, int]] = sorted(self._entry(r) for r in records)

    def _entry(self, record: Record) -> tuple[Any, int]:
        return (self.key(record), self.sign * record.id)

    def add(self, record: Record) -> None:
        insort(self.entries, self._entry(record))

    def remove(self, record: Record) -> None:
        del self.entries[bisect_left(self.entries, self._entry(record))]

    def window(self, offset: int, limit: int) -> list[int]:
        """The ids at positions ``offset`` to ``offset + limit`` of this order."""
        if self.sign == 1:
            return [record_id for _, record_id in self.entries[offset : offset + limit]]
        end = len(self.entries) - offset
        chosen = self.entries[max(0, end - limit) : max(0, end)]
        return [-negated for _, negated in reversed(chosen)]


class _GroupIndex:
    """The live ids by the value of one key: each value's ids ascending."""

    def __init__(self, key: GroupKey, records: Any) -> None:
        self.key = key
        self.groups: dict[Hashable, list[int]] = {}
        for record in sorted(records, key=lambda r: r.id):
            self.groups.setdefault(key(record.data), []).append(record.id)

    def add(self, record: Record) -> None:
        ids = self.groups.setdefault(self.key(record.data), [])
        if not ids or ids[-1] < record.id:
            ids.append(record.id)
        else:
            insort(ids, record.id)

    def remove(self, record: Record) -> None:
        value = self.key(record.data)
        ids = self.groups[value]
        del ids[bisect_left(ids, record.id)]
        if not ids:
            del self.groups[value]
