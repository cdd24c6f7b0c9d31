"""The store: the three collections, writes kept in a database when one is given.

With a database (``--db FILE``), several processes (``--workers N``) may share
one file. Each keeps the collections in memory for speed, so each must notice
the others' writes: every access to a collection first asks the database
whether another process has written since (cheap: SQLite's data version) and
reloads if so, and every write runs inside one database transaction that holds
the file's write lock, syncs first, then changes memory and file together.
Two workers therefore never hand out the same id, and a write that fails to
reach the file leaves memory as the file is: memory is read again from the
database, and when that fails too (the database is gone), it is marked
stale and read again before anything else is served from it.

Every write is also told, inside its transaction, to the store's
:attr:`Store.watcher` as a :class:`Change` (the event hub makes an event of
it, appended to the database's event log in the same transaction), and the
watcher hears whether the transaction committed.

PostgreSQL (``--store postgresql://``) is the same protocol over a network:
see :mod:`mock_server.store.postgresql`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from mock_server.store.collection import Collection, Conflict, Gone, NotFound, Record, Stale
from mock_server.store.event_log import EventLog
from mock_server.store.seed import seed_collections
from mock_server.store.webhook_book import WebhookBook
from mock_server.store.write_guard import Expected

#: What a write refuses with before it changes anything (a precondition, a taken name, an id).
REFUSALS = (Stale, Conflict, Gone, NotFound)


class Persistence(Protocol):
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

    def close(self) -> None:
        """Let go of the database (unusable afterwards)."""

    def event_log(self, capacity: int) -> EventLog:
        """The log of events kept with the data, the newest ``capacity`` of them.

        Shared by every process using the database: an event appended inside a
        :meth:`transaction` commits with it, and events are numbered in the order
        their transactions commit (a reader that saw event n saw every one before).
        ``newest()`` is asked every tenth of a second while a stream is open:
        a database that notifies commits (PostgreSQL's ``NOTIFY`` in the
        transaction, heard by a ``LISTEN`` connection) can answer it from what
        it last heard.
        """

    def webhook_book(self) -> WebhookBook:
        """The webhook subscriptions and their delivery attempts, kept with the data."""


@dataclass(frozen=True)
class Change:
    """One write, as the store tells its :attr:`Store.watcher` inside the write's transaction.

    ``action`` names it: ``created``, ``replaced``, ``updated``, ``deleted``, the
    status an order reached (``placed``...), or ``reset`` (then ``collection``
    and ``record`` are None). ``record`` is the record after the write, or as it
    was before a delete.
    """

    collection: str | None
    record: Record | None
    action: str


class StoreWatcher(Protocol):
    """Who hears of every write (the event hub)."""

    def changed(self, change: Change) -> None:
        """``change`` was made, inside the write's transaction (raising undoes the write)."""

    def settled(self, committed: bool) -> None:
        """The write's transaction ended: committed, or undone."""


class Store:
    """Customers, products and orders; ``persistence`` (if any) sees every write first-hand."""

    #: The ``--data`` file whose collections this store also holds (None: the teaching
    #: API's alone); set by :class:`~mock_server.userdata.store.DataStore`, so that
    #: without ``--data`` nobody need import it to tell (:func:`mock_server.userdata.data_store`).
    data_path: Path | None = None

    def __init__(
        self,
        seed_size: int = 1,
        persistence: Persistence | None = None,
        *,
        computed: bool | None = None,
    ) -> None:
        self.seed_size = seed_size
        self.persistence = persistence
        #: Whether the seed is computed record by record (None: when it is large).
        self.computed = computed
        #: Moves on each time the collections are replaced (a reload, a reset).
        self._generation = 0
        #: A write failed and memory could not be read again: it may differ from the database.
        self._stale = False
        #: Told of every write inside its transaction (the event hub).
        self.watcher: StoreWatcher | None = None
        if persistence is None:
            self._collections = self._seed()
            return
        with persistence.transaction():
            loaded = persistence.load()
            if loaded is None:
                loaded = self._seed()
                persistence.replace_all(loaded)
        self._collections = loaded

    @property
    def collections(self) -> dict[str, Collection]:
        """Every collection by name, as the database has it now."""
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
        if self._stale:
            self._reload()
            return
        persistence = self.persistence
        changed = persistence is not None and persistence.changed_elsewhere()
        if changed and persistence is not None and not persistence.catch_up(self._collections):
            self._reload()

    def _reload(self) -> None:
        assert self.persistence is not None
        self._generation += 1
        self._stale = True
        self._collections = self.persistence.load() or self._seed()
        self._stale = False

    def _seed(self) -> dict[str, Collection]:
        return seed_collections(self.seed_size, computed=self.computed)

    @contextmanager
    def _writing(self) -> Iterator[None]:
        if self.persistence is None:
            try:
                yield
            except BaseException:
                self._settle(committed=False)
                raise
            self._settle(committed=True)
            return
        try:
            with self.persistence.transaction():
                self._sync()
                yield
        except REFUSALS:
            # Refused before anything changed: memory is as the database is.
            self._settle(committed=False)
            raise
        except BaseException:
            # The database refused or the write failed half-way: memory follows the
            # database, now or (when it cannot be read either) before it is next used.
            with contextlib.suppress(Exception):
                self._reload()
            self._settle(committed=False)
            raise
        self._settle(committed=True)

    def _tell(self, change: Change) -> None:
        """Tell the watcher of ``change`` (inside the write's transaction: if it fails,
        the write is undone)."""
        if self.watcher is not None:
            self.watcher.changed(change)

    def _settle(self, *, committed: bool) -> None:
        if self.watcher is not None:
            self.watcher.settled(committed)

    def _told(self, change: Change) -> None:
        """Tell the watcher of ``change``, made and kept outside any transaction."""
        self._tell(change)
        self._settle(committed=True)

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
            if self.persistence is not None:
                self.persistence.saved(collection, record)
            self._tell(Change(name, record, "created"))
        return record

    def put(
        self,
        name: str,
        record_id: int,
        data: dict[str, Any],
        now: float,
        expected: Expected | None = None,
        *,
        action: str | None = None,
    ) -> tuple[Record, bool]:
        """Replace (or create at) ``record_id`` in collection ``name``; True when created.

        With ``expected``, only if the record is still that one (else :class:`Stale`),
        checked and written in one step. ``action`` names the change for the
        watcher (default: ``created`` or ``replaced``).
        """
        with self._writing():
            collection = self._collections[name]
            self._check(collection, record_id, expected)
            record, created = collection.put(record_id, data, now)
            if self.persistence is not None:
                self.persistence.saved(collection, record)
            self._tell(Change(name, record, action or ("created" if created else "replaced")))
        return record, created

    def delete(
        self, name: str, record_id: int, now: float = 0.0, expected: Expected | None = None
    ) -> None:
        """Delete ``record_id`` from collection ``name`` at time ``now`` (``expected``: as put)."""
        with self._writing():
            collection = self._collections[name]
            self._check(collection, record_id, expected)
            before = collection.get(record_id)
            collection.delete(record_id, now)
            if self.persistence is not None:
                self.persistence.deleted(collection, record_id)
            self._tell(Change(name, before, "deleted"))

    def reset(self) -> None:
        """Back to the seed, as at first start."""
        with self._writing():
            self._generation += 1
            self._collections = self._seed()
            if self.persistence is not None:
                self.persistence.replace_all(self._collections)
            self._tell(Change(None, None, "reset"))
