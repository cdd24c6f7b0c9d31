"""The store: the three collections, writes journaled when persistence is on."""

from __future__ import annotations

from typing import Any, Protocol

from mock_server.store.collection import Collection, Record
from mock_server.store.seed import seed_collections


class Journal(Protocol):
    """Where writes go to survive a restart (``--db FILE``); the memory store has none.

    Each call must be durable when it returns: the server answers 2xx only after.
    """

    def load(self) -> dict[str, Collection] | None:
        """The collections saved earlier, or None when there is nothing saved yet."""

    def saved(self, collection: Collection, record: Record) -> None:
        """``record`` was created or replaced in ``collection``."""

    def deleted(self, collection: Collection, record_id: int) -> None:
        """Record ``record_id`` was deleted from ``collection``."""

    def replace_all(self, collections: dict[str, Collection]) -> None:
        """Everything was reset to ``collections``."""


class Store:
    """Customers, products and orders; ``journal`` (if any) sees every write first-hand."""

    def __init__(self, seed_size: int = 1, journal: Journal | None = None) -> None:
        self.seed_size = seed_size
        self.journal = journal
        loaded = journal.load() if journal is not None else None
        if loaded is None:
            self.collections = seed_collections(seed_size)
            if journal is not None:
                journal.replace_all(self.collections)
        else:
            self.collections = loaded

    def __getitem__(self, name: str) -> Collection:
        return self.collections[name]

    def create(self, name: str, data: dict[str, Any], now: float) -> Record:
        """Create a record in collection ``name``."""
        collection = self.collections[name]
        record = collection.create(data, now)
        if self.journal is not None:
            self.journal.saved(collection, record)
        return record

    def put(
        self, name: str, record_id: int, data: dict[str, Any], now: float
    ) -> tuple[Record, bool]:
        """Replace (or create at) ``record_id`` in collection ``name``; True when created."""
        collection = self.collections[name]
        record, created = collection.put(record_id, data, now)
        if self.journal is not None:
            self.journal.saved(collection, record)
        return record, created

    def delete(self, name: str, record_id: int, now: float = 0.0) -> None:
        """Delete ``record_id`` from collection ``name`` at time ``now``."""
        collection = self.collections[name]
        collection.delete(record_id, now)
        if self.journal is not None:
            self.journal.deleted(collection, record_id)

    def reset(self) -> None:
        """Back to the seed, as at first start."""
        self.collections = seed_collections(self.seed_size)
        if self.journal is not None:
            self.journal.replace_all(self.collections)
