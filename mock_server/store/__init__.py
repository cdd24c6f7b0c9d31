"""The store: collections of records, in memory, optionally persisted to disk.

Beside them, what the events need kept: the event log (:mod:`.event_log`) and
the webhook subscriptions with their attempts (:mod:`.webhook_book`), in memory
or in the same database (:mod:`.sqlite_events`, and PostgreSQL's in
:mod:`.postgresql`); and the OAuth server's records in the database
(:mod:`.sqlite_oauth`), which the server keeps in memory otherwise. The lost-update
guard carries what a write's preconditions saw to the store's compare-and-write
(:mod:`.write_guard`).
"""

from __future__ import annotations

from mock_server.store.collection import Collection, Conflict, Gone, NotFound, Record, Stale
from mock_server.store.store import Persistence, Store

__all__ = ["Collection", "Conflict", "Gone", "NotFound", "Persistence", "Record", "Stale", "Store"]
