"""Where the store keeps its writes: nowhere (in memory), SQLite with ``--db FILE``."""

from __future__ import annotations

from pathlib import Path

from mock_server.store.store import Persistence


def open_persistence(db: Path | None) -> Persistence | None:
    """The database for ``--db`` (None keeps everything in memory)."""
    if db is None:
        return None
    from mock_server.store.sqlite import SQLitePersistence

    return SQLitePersistence(db)
