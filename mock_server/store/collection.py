"""One collection of records: ids never reused, deleted ids remembered (410 Gone).

A collection holds its records in two parts. The *written* records are kept
as objects: everything created or replaced, and the whole seed when it is
small. A large seed stays *computed* (:mod:`mock_server.store.seeded`): its
records are made from their ids when asked for, and a written or deleted id
hides the seeded record it replaces.

Nothing a request does scans every record. :meth:`Collection.query`
answers a query (conditions, orders, a window) by asking the seed for its
part as a sequence it can index into, taking the written part from indexes,
and merging the two in order by binary search. The written part's indexes
are built at first use and then kept up to date by every write, as a
database keeps its own: the live ids in order, the unique field (a create
checks one key), one sorted list per order asked for (a page is a slice; a
range of costs is a bisection), the ids by value of each field compared for
equality, the trigrams of each field searched for text, and the newest
change.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mock_server.store.query import ID, Condition, Order, Reading, compare_records, sort_records
from mock_server.store.record import Conflict, Gone, NotFound, Record, Stale, copied
from mock_server.store.text_index import TrigramIndex

if TYPE_CHECKING:
    from mock_server.store.seeded import SeedTable
    from mock_server.store.seeded import Sequence as SeededSequence

__all__ = ["Collection", "Conflict", "Gone", "NotFound", "Record", "Stale", "copied"]

#: How many seeded records made for pages are kept: pages read the same ones again.
MADE_LIMIT = 8192
#: How many seeded query plans are kept (a plan depends on the query alone).
PLAN_LIMIT = 64


class Records(Mapping[int, Record]):
    """The live records of a collection by id, written and seeded: a read-only view.

    A seeded record is made when read. The records are the store's own: do
    not change them.
    """

    def __init__(self, collection: Collection) -> None:
        self._collection = collection

    def __getitem__(self, record_id: int) -> Record:
        found = self._collection._live(record_id)
        if found is None:
            raise KeyError(record_id)
        return found

    def get(self, record_id: int, default: Any = None) -> Any:
        found = self._collection._live(record_id)
        return default if found is None else found

    def __contains__(self, record_id: object) -> bool:
        return isinstance(record_id, int) and self._collection._live(record_id) is not None

    def __len__(self) -> int:
        return self._collection.count()

    def __iter__(self) -> Iterator[int]:
        return (record.id for record in self._collection.each())


@dataclass
class Collection:
    """Records by id. ``unique`` names a field no two records may share (case-insensitive).

    ``written`` holds the records kept as objects (the seed fills it directly
    when small, and so does the journal); ``seed`` computes the rest.
    """

    name: str
    unique: str | None = None
    written: dict[int, Record] = field(default_factory=dict)
    deleted: set[int] = field(default_factory=set)
    next_id: int = 1
    #: When a record was last deleted: a deletion changes the collection too.
    last_deletion: float = 0.0
    #: How many writes the collection has taken: what was made from it is stale once it moves.
    changes: int = field(default=0, compare=False)
    seed: SeedTable | None = field(default=None, compare=False)
    # Indexes of the written records, built at first use.
    _ids: list[int] | None = field(default=None, init=False, repr=False, compare=False)
    _owners: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    _newest: float | None = field(default=None, init=False, repr=False, compare=False)
    _sorted: dict[tuple[Reading, bool], _SortIndex] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _grouped: dict[Reading, _GroupIndex] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _texts: dict[Reading, TrigramIndex] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    # The seeded part's helpers: made records, query plans, and the hidden seeded ids.
    _made: dict[int, Record] = field(default_factory=dict, init=False, repr=False, compare=False)
    _plans: dict[Hashable, SeededSequence] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _hidden: set[int] | None = field(default=None, init=False, repr=False, compare=False)

    # Reading ---------------------------------------------------------------------------

    @property
    def records(self) -> Records:
        """Every live record by id (a view: written ones, and seeded ones made when read)."""
        return Records(self)

    def _hidden_ids(self) -> set[int]:
        """The seeded ids a written or deleted record hides."""
        if self._hidden is None:
            seed = self.seed
            self._hidden = (
                set() if seed is None else {i for i in (*self.written, *self.deleted) if i in seed}
            )
        return self._hidden

    def _seeded(self, record_id: int) -> Record | None:
        """Seeded record ``record_id``, unless a write hides it (the store's own object)."""
        seed = self.seed
        if seed is None or record_id not in seed or record_id in self._hidden_ids():
            return None
        made = self._made.get(record_id)
        if made is None:
            if len(self._made) >= MADE_LIMIT:
                self._made.clear()
            made = self._made[record_id] = seed.record(record_id)
        return made

    def _live(self, record_id: int) -> Record | None:
        found = self.written.get(record_id)
        return found if found is not None else self._seeded(record_id)

    def get(self, record_id: int, *, copy: bool = True) -> Record:
        """The record ``record_id``; :class:`Gone` if deleted, :class:`NotFound` if never used.

        A copy, safe to change; ``copy=False`` gives the store's own, to read only.
        """
        record = self._live(record_id)
        if record is not None:
            return record.snapshot() if copy else record
        if record_id in self.deleted:
            raise Gone(record_id)
        raise NotFound(record_id)

    def count(self) -> int:
        """How many records are live."""
        seeded = 0 if self.seed is None else self.seed.count - len(self._hidden_ids())
        return seeded + len(self.written)

    def each(self) -> Iterator[Record]:
        """Every live record, by id (a seeded one made as it comes: do not change them)."""
        written = iter(self.ids())
        pending = next(written, None)
        seed = self.seed
        if seed is not None:
            hidden = self._hidden_ids()
            for record_id in range(1, seed.count + 1):
                while pending is not None and pending < record_id:
                    yield self.written[pending]
                    pending = next(written, None)
                if record_id not in hidden:
                    yield seed.record(record_id)
        while pending is not None:
            yield self.written[pending]
            pending = next(written, None)

    def all(self) -> list[Record]:
        """Every live record, by id. The records are the store's own: do not change them."""
        return list(self.each())

    def last_modified(self) -> float:
        """When anything in the collection last changed (0 for an empty, untouched one)."""
        if self._newest is None:
            self._newest = max((r.updated for r in self.written.values()), default=0.0)
        newest = self._newest
        if self.seed is not None and self.seed.count > len(self._hidden_ids()):
            newest = max(newest, self.seed.created)  # some seeded record is still there
        return max(newest, self.last_deletion)

    def ids(self) -> list[int]:
        """Every written id, ascending. The index itself: do not change it."""
        if self._ids is None:
            self._ids = sorted(self.written)
        return self._ids

    # Queries ---------------------------------------------------------------------------

    def query(
        self,
        conditions: Sequence[Condition],
        orders: Sequence[Order],
        offset: int,
        limit: int,
    ) -> tuple[list[Record], int]:
        """The records passing every condition, by ``orders`` then id: a window and the total.

        The records are the store's own: do not change them.
        """
        written = self._written_part(conditions, orders)
        if self.seed is None:
            return [written[i] for i in range(offset, min(offset + limit, len(written)))], len(
                written
            )
        seeded = _Visible(self, self._plan(conditions, orders))
        return _merge(seeded, written, compare_records(orders), offset, limit)

    def _plan(self, conditions: Sequence[Condition], orders: Sequence[Order]) -> SeededSequence:
        assert self.seed is not None
        key = (tuple(conditions), tuple(orders))
        plan = self._plans.get(key)
        if plan is None:
            if len(self._plans) >= PLAN_LIMIT:
                self._plans.clear()
            plan = self._plans[key] = self.seed.sequence(conditions, orders)
        return plan

    def _written_part(
        self, conditions: Sequence[Condition], orders: Sequence[Order]
    ) -> Sequence[Record]:
        """The written records passing ``conditions``, in order (indexable)."""
        if not conditions:
            if not orders:
                return _ById(self, self.ids(), False)
            if len(orders) == 1:
                order = orders[0]
                if order.reading.field == ID:
                    return _ById(self, self.ids(), order.descending)
                return _Sorted(self, self._sort_index(order.reading, order.descending))
            return sort_records(list(self.written.values()), orders)
        candidates = self._candidates(conditions)
        kept = [
            record
            for record_id in candidates
            if (record := self.written.get(record_id)) is not None
            and all(c.matches(record.data) for c in conditions)
        ]
        return sort_records(kept, orders)

    def _candidates(self, conditions: Sequence[Condition]) -> Iterator[int] | list[int] | set[int]:
        """The written ids that may pass ``conditions``, from the most selective index."""
        best: list[int] | set[int] | None = None
        for condition in conditions:
            found: list[int] | set[int] | None = None
            reading = condition.reading
            if condition.test == "equals" and reading.field != ID:
                found = self._group_index(reading).groups.get(_hashable(condition.value), [])
            elif condition.test == "contains" and reading.form == "folded":
                found = self._text_index(reading).candidates(str(condition.value))
            elif condition.test in ("at_least", "at_most") and reading.form == "number":
                found = self._sort_index(reading, False).between(condition)
            if found is not None and (best is None or len(found) < len(best)):
                best = found
        return self.ids() if best is None else best

    def _sort_index(self, reading: Reading, descending: bool) -> _SortIndex:
        index = self._sorted.get((reading, descending))
        if index is None:
            index = _SortIndex(reading, descending, self.written.values())
            self._sorted[reading, descending] = index
        return index

    def _group_index(self, reading: Reading) -> _GroupIndex:
        index = self._grouped.get(reading)
        if index is None:
            index = self._grouped[reading] = _GroupIndex(reading, self.written.values())
        return index

    def _text_index(self, reading: Reading) -> TrigramIndex:
        index = self._texts.get(reading)
        if index is None:
            index = self._texts[reading] = TrigramIndex(reading, self.written.values())
        return index

    # Uniqueness ------------------------------------------------------------------------

    def _unique_value(self, data: dict[str, Any]) -> str | None:
        if self.unique is None or self.unique not in data:
            return None
        return str(data[self.unique]).casefold()

    def _unique_owners(self) -> dict[str, int]:
        if self._owners is None:
            self._owners = {}
            for record in self.written.values():
                value = self._unique_value(record.data)
                if value is not None:
                    self._owners.setdefault(value, record.id)
        return self._owners

    def _owner(self, wanted: str) -> int | None:
        owner = self._unique_owners().get(wanted)
        if owner is not None or self.seed is None or self.unique is None:
            return owner
        seeded = self.seed.owner(self.unique, wanted)
        return seeded if seeded is not None and seeded not in self._hidden_ids() else None

    def _check_unique(self, data: dict[str, Any], record_id: int | None) -> None:
        wanted = self._unique_value(data)
        if wanted is None:
            return
        owner = self._owner(wanted)
        if owner is not None and owner != record_id:
            assert self.unique is not None
            raise Conflict(self.unique, data[self.unique])

    # Index upkeep ----------------------------------------------------------------------

    def _index(self, record: Record, *, new_id: bool = True) -> None:
        """Every index built so far learns of ``record`` (just put in ``written``)."""
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
        for text in self._texts.values():
            text.add(record)

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
        for text in self._texts.values():
            text.remove(record)

    def _forget_indexes(self) -> None:
        self._ids = self._owners = self._newest = self._hidden = None
        self._sorted.clear()
        self._grouped.clear()
        self._texts.clear()
        self._made.clear()

    def restore(self, written: dict[int, Record], deleted: set[int], next_id: int) -> None:
        """Put back an earlier state (a write undone); every index is rebuilt when next used."""
        self.written, self.deleted, self.next_id = written, deleted, next_id
        self.changes += 1
        self._forget_indexes()

    def take(self, record: Record) -> None:
        """Keep ``record`` as another process wrote it (no checks: it is durable already)."""
        self.changes += 1
        existing = self.written.get(record.id)
        if existing is not None:
            self._unindex(existing, keep_id=True)
        self._hide(record.id)
        self.written[record.id] = record
        self._index(record, new_id=existing is None)
        self.next_id = max(self.next_id, record.id + 1)

    def take_deletion(self, record_id: int) -> None:
        """Record ``record_id`` was deleted by another process."""
        if record_id in self.deleted:
            return
        self.changes += 1
        existing = self.written.pop(record_id, None)
        if existing is not None:
            self._unindex(existing)
        self._hide(record_id)
        self.deleted.add(record_id)

    def _hide(self, record_id: int) -> None:
        """A write reached seeded id ``record_id``: its seeded record is no more."""
        if self.seed is not None and record_id in self.seed:
            self._hidden_ids().add(record_id)
            self._made.pop(record_id, None)

    # Writing ---------------------------------------------------------------------------

    def create(self, data: dict[str, Any], now: float) -> Record:
        """A new record with the next id."""
        self._check_unique(data, None)
        self.changes += 1
        record = Record(self.next_id, copied(data), now, now)
        self.written[record.id] = record
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
        existing = self.written.get(record_id)
        seeded = self._seeded(record_id) if existing is None else None
        before = existing or seeded
        created = before is None
        record = Record(record_id, copied(data), now if before is None else before.created, now)
        if existing is not None:
            self._unindex(existing, keep_id=True)
        self._hide(record_id)
        self.written[record_id] = record
        self._index(record, new_id=existing is None)
        self.next_id = max(self.next_id, record_id + 1)
        return record.snapshot(), created

    def delete(self, record_id: int, now: float = 0.0) -> None:
        """Remove record ``record_id`` (at time ``now``) and remember that it existed."""
        self.get(record_id)
        self.changes += 1
        existing = self.written.pop(record_id, None)
        if existing is not None:
            self._unindex(existing)
        self._hide(record_id)
        self.deleted.add(record_id)
        self.last_deletion = max(self.last_deletion, now)


def _hashable(value: Any) -> Hashable:
    return value if isinstance(value, Hashable) else repr(value)


# The written part as a sequence, and the merge with the seeded part -----------------------


class _ById(Sequence[Record]):
    """Written records by ascending (or descending) id: the id index, read in place."""

    def __init__(self, collection: Collection, ids: list[int], descending: bool) -> None:
        self.written = collection.written
        self.ids = ids
        self.descending = descending

    def __len__(self) -> int:
        return len(self.ids)

    def __getitem__(self, index: int) -> Record:  # type: ignore[override]
        if self.descending:
            index = len(self.ids) - 1 - index
        return self.written[self.ids[index]]


class _Sorted(Sequence[Record]):
    """Written records in the order of a sort index, read in place."""

    def __init__(self, collection: Collection, order: _SortIndex) -> None:
        self.written = collection.written
        self.order = order

    def __len__(self) -> int:
        return len(self.order.entries)

    def __getitem__(self, position: int) -> Record:  # type: ignore[override]
        return self.written[self.order.id_at(position)]


class _Visible:
    """A seeded query's records less those a write hides, as records by position."""

    def __init__(self, collection: Collection, plan: SeededSequence) -> None:
        self.collection = collection
        self.plan = plan
        hidden = collection._hidden_ids()
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
        record = self.collection._seeded(self.plan.select(position))
        assert record is not None
        return record


def _merge(
    seeded: _Visible,
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


# Indexes of the written records -----------------------------------------------------------


class _SortIndex:
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


class _GroupIndex:
    """The written ids by the value of one reading: each value's ids ascending."""

    def __init__(self, reading: Reading, records: Any) -> None:
        self.reading = reading
        self.groups: dict[Hashable, list[int]] = {}
        for record in sorted(records, key=lambda r: r.id):
            self.groups.setdefault(self._value(record), []).append(record.id)

    def _value(self, record: Record) -> Hashable:
        return _hashable(self.reading.of(record))

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
