"""Choosing the journal: none in memory, SQLite with ``--db FILE``."""

from __future__ import annotations

from pathlib import Path

from mock_server.store.store import Journal


def open_journal(db: Path | None) -> Journal | None:
    """The journal for ``--db`` (None keeps everything in memory)."""
    if db is None:
        return None
    from mock_server.store.sqlite import SQLiteJournal

    return SQLiteJournal(db)
