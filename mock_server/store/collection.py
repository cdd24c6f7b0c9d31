"""One collection of records: ids never reused, deleted ids remembered (410 Gone)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any


class NotFound(LookupError):
    """No record with this id ever existed."""


class Gone(LookupError):
    """A record with this id existed and was deleted."""


class Conflict(ValueError):
    """A write that clashes with the current state (a unique field taken)."""

    def __init__(self, field_name: str, value: Any) -> None:
        super().__init__(f"{field_name} {value!r} is already taken")
        self.field_name = field_name
        self.value = value


@dataclass
class Record:
    """A stored entity: its id, its data (always the newest schema), and when it changed."""

    id: int
    data: dict[str, Any]
    created: float
    updated: float

    def snapshot(self) -> Record:
        """A copy safe to hand out: changing it never changes the store."""
        return Record(self.id, copy.deepcopy(self.data), self.created, self.updated)


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
        newest = max((r.updated for r in self.records.values()), default=0.0)
        return max(newest, self.last_deletion)

    def _check_unique(self, data: dict[str, Any], record_id: int | None) -> None:
        if self.unique is None or self.unique not in data:
            return
        wanted = str(data[self.unique]).casefold()
        for other in self.records.values():
            if other.id != record_id and str(other.data.get(self.unique, "")).casefold() == wanted:
                raise Conflict(self.unique, data[self.unique])

    def create(self, data: dict[str, Any], now: float) -> Record:
        """A new record with the next id."""
        self._check_unique(data, None)
        record = Record(self.next_id, copy.deepcopy(data), now, now)
        self.records[record.id] = record
        self.next_id += 1
        return record.snapshot()

    def put(self, record_id: int, data: dict[str, Any], now: float) -> tuple[Record, bool]:
        """Replace record ``record_id`` or create it at that id; True when created.

        A deleted id stays gone (:class:`Gone`): ids are never reused.
        """
        if record_id in self.deleted:
            raise Gone(record_id)
        self._check_unique(data, record_id)
        existing = self.records.get(record_id)
        created = existing is None
        record = Record(
            record_id, copy.deepcopy(data), now if existing is None else existing.created, now
        )
        self.records[record_id] = record
        self.next_id = max(self.next_id, record_id + 1)
        return record.snapshot(), created

    def delete(self, record_id: int, now: float = 0.0) -> None:
        """Remove record ``record_id`` (at time ``now``) and remember that it existed."""
        self.get(record_id)
        del self.records[record_id]
        self.deleted.add(record_id)
        self.last_deletion = max(self.last_deletion, now)
