"""The store: the three collections, writes journaled when persistence is on.

With a journal (``--db FILE``), several processes (``--workers N``) may share
one file. Each keeps the collections in memory for speed, so each must notice
the others' writes: every access to a collection first asks the journal
whether another process has written since (cheap: SQLite's data version) and
reloads if so, and every write runs inside one journal transaction that holds
the file's write lock, syncs first, then changes memory and file together.
Two workers therefore never hand out the same id, and a write that fails to
reach the file leaves memory as the file is.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from mock_server.store.collection import Collection, Record, Stale
from mock_server.store.seed import seed_collections

if TYPE_CHECKING:
    from mock_server.write_guard import Expected


class Journal(Protocol):
    """Where writes go to survive a restart (``--db FILE``); the memory store has none.

    Each call must be durable when it returns (or when the outermost
    :meth:`transaction` around it commits): the server answers 2xx only after.
    """

    def load(self) -> dict[str, Collection] | None:
        """The collections saved earlier, or None when there is nothing saved yet."""

    def saved(self, collection: Collection, record: Record) -> None:
        """``record`` was created or replaced in ``collection``."""

    def deleted(self, collection: Collection, record_id: int) -> None:
        """Record ``record_id`` was deleted from ``collection``."""

    def replace_all(self, collections: dict[str, Collection]) -> None:
        """Everything was reset to ``collections``."""

    def transaction(self) -> AbstractContextManager[object]:
        """Hold the write lock; the calls above made inside commit together at its end."""

    def changed_elsewhere(self) -> bool:
        """True when another process wrote since this one last loaded or wrote."""

    def catch_up(self, collections: dict[str, Collection]) -> bool:
        """Apply what other processes wrote since; False when only a full load will do."""


class Store:
    """Customers, products and orders; ``journal`` (if any) sees every write first-hand."""

    def __init__(
        self, seed_size: int = 1, journal: Journal | None = None, *, computed: bool | None = None
    ) -> None:
        self.seed_size = seed_size
        self.journal = journal
        #: Whether the seed is computed record by record (None: when it is large).
        self.computed = computed
        #: Moves on each time the collections are replaced (a reload, a reset).
        self._generation = 0
        if journal is None:
            self._collections = self._seed()
            return
        with journal.transaction():
            loaded = journal.load()
            if loaded is None:
                loaded = self._seed()
                journal.replace_all(loaded)
        self._collections = loaded

    @property
    def collections(self) -> dict[str, Collection]:
        """Every collection by name, as the journal has it now."""
        self._sync()
        return self._collections

    def __getitem__(self, name: str) -> Collection:
        return self.collections[name]

    def state(self) -> tuple[int, ...]:
        """A value that differs whenever any record may have changed since it was taken.

        What is made from records (a member's representation, which may name
        other records) stays good while the state is equal.
        """
        collections = self.collections  # another worker's writes first
        return (self._generation, *[c.changes for c in collections.values()])

    def _sync(self) -> None:
        journal = self.journal
        changed = journal is not None and journal.changed_elsewhere()
        if changed and journal is not None and not journal.catch_up(self._collections):
            self._reload()

    def _reload(self) -> None:
        assert self.journal is not None
        self._generation += 1
        self._collections = self.journal.load() or self._seed()

    def _seed(self) -> dict[str, Collection]:
        return seed_collections(self.seed_size, computed=self.computed)

    @contextmanager
    def _writing(self) -> Iterator[None]:
        if self.journal is None:
            yield
            return
        try:
            with self.journal.transaction():
                self._sync()
                yield
        except BaseException:
            # The file refused or the write failed half-way: memory follows the file.
            self._reload()
            raise

    @staticmethod
    def _check(collection: Collection, record_id: int, expected: Expected | None) -> None:
        """Raise :class:`Stale` unless the record is still the one a write expects."""
        if expected is not None and collection.records.get(record_id) != expected.record:
            raise Stale(record_id)

    def create(self, name: str, data: dict[str, Any], now: float) -> Record:
        """Create a record in collection ``name``."""
        with self._writing():
            collection = self._collections[name]
            record = collection.create(data, now)
            if self.journal is not None:
                self.journal.saved(collection, record)
        return record

    def put(
        self,
        name: str,
        record_id: int,
        data: dict[str, Any],
        now: float,
        expected: Expected | None = None,
    ) -> tuple[Record, bool]:
        """Replace (or create at) ``record_id`` in collection ``name``; True when created.

        With ``expected``, only if the record is still that one (else :class:`Stale`),
        checked and written in one step.
        """
        with self._writing():
            collection = self._collections[name]
            self._check(collection, record_id, expected)
            record, created = collection.put(record_id, data, now)
            if self.journal is not None:
                self.journal.saved(collection, record)
        return record, created

    def delete(
        self, name: str, record_id: int, now: float = 0.0, expected: Expected | None = None
    ) -> None:
        """Delete ``record_id`` from collection ``name`` at time ``now`` (``expected``: as put)."""
        with self._writing():
            collection = self._collections[name]
            self._check(collection, record_id, expected)
            collection.delete(record_id, now)
            if self.journal is not None:
                self.journal.deleted(collection, record_id)

    def reset(self) -> None:
        """Back to the seed, as at first start."""
        with self._writing():
            self._generation += 1
            self._collections = self._seed()
            if self.journal is not None:
                self.journal.replace_all(self._collections)
