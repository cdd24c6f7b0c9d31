"""What the tables beside the records ask of the SQLite file they live in.

The event log, the webhook book (:mod:`.sqlite_events`) and the OAuth records
(:mod:`.sqlite_oauth`) write in the transactions of the file the store's
:class:`~mock_server.store.sqlite.SQLitePersistence` keeps, and read through it:
:class:`SQLiteFile` is that much of it.
"""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from typing import Protocol


class SQLiteFile(Protocol):
    """One database file's write transactions and reads, shared by every table in it."""

    def transaction(self) -> AbstractContextManager[sqlite3.Connection]:
        """One write transaction (re-entrant: one opened inside another joins it)."""

    def query(self, sql: str, parameters: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """The rows of a read-only statement."""
