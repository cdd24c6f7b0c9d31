"""The store: collections of records, in memory, optionally persisted to disk.

The records and their collections (:mod:`.record`, :mod:`.collection`), read by
queries (:mod:`.query`), seeded (:mod:`.seed`, a large seed computed from ids in
:mod:`.seeded`), written with the lost-update guard's compare-and-write
(:mod:`.write_guard`), and kept in ``--db``'s SQLite file (:mod:`.sqlite`) or a
PostgreSQL every instance shares (:mod:`.postgresql`). Beside them, what the events
need kept: the event log (:mod:`.event_log`) and the webhook subscriptions with their
attempts (:mod:`.webhook_book`), in memory or in the same database
(:mod:`.sqlite_events`, :mod:`.postgresql.events`); the OAuth server's records in the
database (:mod:`.sqlite_oauth`), which the server keeps in memory otherwise; and what
a shared database keeps for every instance, the request journal and the rate limit's
windows (:mod:`.shared`). The types it stores are their owners' (a session is
:mod:`mock_server.auth`'s, an OAuth code :mod:`mock_server.oauth`'s).
"""

from __future__ import annotations

from mock_server.store.collection import Collection, Conflict, Gone, NotFound, Record, Stale
from mock_server.store.store import Persistence, Store

__all__ = ["Collection", "Conflict", "Gone", "NotFound", "Persistence", "Record", "Stale", "Store"]
