"""The store: collections of records, in memory, optionally persisted to disk.

Beside them, what the events need kept: the event log (:mod:`.event_log`) and
the webhook subscriptions with their attempts (:mod:`.webhook_book`), in memory
or in the same database file (:mod:`.sqlite_events`).
"""

from __future__ import annotations

from mock_server.store.collection import Collection, Conflict, Gone, NotFound, Record, Stale
from mock_server.store.store import Persistence, Store

__all__ = ["Collection", "Conflict", "Gone", "NotFound", "Persistence", "Record", "Stale", "Store"]
