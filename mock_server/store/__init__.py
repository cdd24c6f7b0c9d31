"""The store: collections of records, in memory, optionally journaled to disk."""

from __future__ import annotations

from mock_server.store.collection import Collection, Conflict, Gone, NotFound, Record, Stale
from mock_server.store.store import Journal, Store

__all__ = ["Collection", "Conflict", "Gone", "Journal", "NotFound", "Record", "Stale", "Store"]
