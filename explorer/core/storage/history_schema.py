"""The history file's tables, and opening it: made when missing, brought up to date when an
older restwalk made it.

Two tables: the small ``entries`` rows that searches and lists read (time,
method, URL, status, and the marks: masked, from the cache, made on the bundled
mock server), and the ``payloads`` they point to (the record of
:mod:`~explorer.core.storage.history_record` and the two bodies), read only when
an entry is opened or exported. A ``totals`` row, kept by triggers, lets the
bounds be checked at each insert without reading every entry.

A column added since the first version is added to an older file when it is
opened (:data:`ADDED_COLUMNS`); what an older restwalk writes into the newer
file still fits, as every added column has a default.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from explorer.core.storage.database import Opened, close_quietly, open_database

__all__ = ["ADDED_COLUMNS", "ENTRY_COLUMNS", "SCHEMA", "open_history"]

#: The columns of the ``entries`` table, the id first (an older file may lack the last ones).
ENTRY_COLUMNS = (
    "id",
    "at",
    "method",
    "url",
    "final_url",
    "status",
    "reason",
    "duration",
    "size",
    "source",
    "masked",
    "cache",
    "bundled",
)
SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    method TEXT NOT NULL,
    url TEXT NOT NULL,
    final_url TEXT NOT NULL,
    status INTEGER NOT NULL,
    reason TEXT NOT NULL,
    duration REAL NOT NULL,
    size INTEGER NOT NULL,
    source TEXT NOT NULL,
    masked INTEGER NOT NULL,
    cache TEXT NOT NULL DEFAULT '',
    bundled INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS entries_at ON entries (at);
CREATE TABLE IF NOT EXISTS payloads (
    id INTEGER PRIMARY KEY,
    record BLOB NOT NULL,
    request_body BLOB NOT NULL,
    response_body BLOB NOT NULL
);
-- How many entries and bytes are kept, kept up to date by SQLite itself: the bounds
-- are checked at each insert without reading every entry.
CREATE TABLE IF NOT EXISTS totals (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    entries INTEGER NOT NULL,
    bytes INTEGER NOT NULL
);
INSERT OR IGNORE INTO totals
    SELECT 1, COUNT(*), COALESCE(SUM(size), 0) FROM entries;
CREATE TRIGGER IF NOT EXISTS entries_added AFTER INSERT ON entries BEGIN
    UPDATE totals SET entries = entries + 1, bytes = bytes + NEW.size;
END;
CREATE TRIGGER IF NOT EXISTS entries_removed AFTER DELETE ON entries BEGIN
    UPDATE totals SET entries = entries - 1, bytes = bytes - OLD.size;
END;
"""

#: The columns added since the first history file, with their definitions.
ADDED_COLUMNS = (("cache", "TEXT NOT NULL DEFAULT ''"), ("bundled", "INTEGER NOT NULL DEFAULT 0"))


def open_history(path: Path) -> Opened:
    """Open the history at ``path``: :data:`SCHEMA`, and the columns an older restwalk's
    file lacks added (another process may be adding them at the same moment)."""
    opened = open_database(path, SCHEMA)
    connection = opened.connection
    try:
        if _missing_columns(connection):
            connection.execute("BEGIN IMMEDIATE")
            for name, definition in _missing_columns(connection):
                connection.execute(f"ALTER TABLE entries ADD COLUMN {name} {definition}")
            connection.execute("COMMIT")
    except BaseException:
        close_quietly(opened)
        raise
    return opened


def _missing_columns(connection: sqlite3.Connection) -> list[tuple[str, str]]:
    have = {row[1] for row in connection.execute("PRAGMA table_info(entries)")}
    return [(name, definition) for name, definition in ADDED_COLUMNS if name not in have]
