"""The store: collections of records, in memory, optionally persisted to disk."""

from __future__ import annotations

from mock_server.store.collection import Collection, Conflict, Gone, NotFound, Record, Stale
from mock_server.store.store import Persistence, Store

__all__ = ["Collection", "Conflict", "Gone", "NotFound", "Persistence", "Record", "Stale", "Store"]
