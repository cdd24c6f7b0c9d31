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

from bisect import bisect_left, insort
from collections.abc import Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mock_server.store.indexes import GroupIndex, SortIndex, hashable
from mock_server.store.merge import ById, Sorted, Visible, merge
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
    when small, and so does the database); ``seed`` computes the rest.
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
    _sorted: dict[tuple[Reading, bool], SortIndex] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _grouped: dict[Reading, GroupIndex] = field(
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
        seeded = Visible(self._plan(conditions, orders), self._hidden_ids(), self._seeded)
        return merge(seeded, written, compare_records(orders), offset, limit)

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
                return ById(self.written, self.ids(), False)
            if len(orders) == 1:
                order = orders[0]
                if order.reading.field == ID:
                    return ById(self.written, self.ids(), order.descending)
                return Sorted(self.written, self._sort_index(order.reading, order.descending))
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
                found = self._group_index(reading).groups.get(hashable(condition.value), [])
            elif condition.test == "contains" and reading.form == "folded":
                found = self._text_index(reading).candidates(str(condition.value))
            elif condition.test in ("at_least", "at_most") and reading.form == "number":
                found = self._sort_index(reading, False).between(condition)
            if found is not None and (best is None or len(found) < len(best)):
                best = found
        return self.ids() if best is None else best

    def _sort_index(self, reading: Reading, descending: bool) -> SortIndex:
        index = self._sorted.get((reading, descending))
        if index is None:
            index = SortIndex(reading, descending, self.written.values())
            self._sorted[reading, descending] = index
        return index

    def _group_index(self, reading: Reading) -> GroupIndex:
        index = self._grouped.get(reading)
        if index is None:
            index = self._grouped[reading] = GroupIndex(reading, self.written.values())
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
        self._remove(record_id)

    def _remove(self, record_id: int) -> None:
        """Take record ``record_id`` out (its indexes and its seeded record too), and
        remember that it existed: one more change."""
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
        self._remove(record_id)
        self.last_deletion = max(self.last_deletion, now)
