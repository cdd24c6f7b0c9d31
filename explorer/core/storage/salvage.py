"""What can still be read from a damaged history, copied into a new one.

A disk error or a crash can damage some pages of ``history.sqlite`` and leave
the rest readable: a search that misses the damaged pages still works, and the
first query that reaches one fails. Before the file is moved aside, every entry
that still reads back whole (its row, its payload, its record as JSON) is
copied into a new file, by id: a damaged page costs the entries on it, not the
history.

SQLite's own tool for this, the shell's ``.recover``, is not part of Python's
``sqlite3``; this reads the tables row by row through SQLite itself, and where
a range scan meets a damaged page, looks the ids past it up one by one until it
reads again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from explorer.core.storage.history_record import exchange_of
from explorer.core.storage.history_schema import ENTRY_COLUMNS

__all__ = ["salvage_history"]

#: Ids looked up one by one past a damaged page before giving up: a damaged interior
#: page of the ``entries`` tree hides some thousands (a leaf holds some dozens).
_MOST_PROBES = 20_000


def _present(connection: sqlite3.Connection) -> tuple[str, ...]:
    """The columns of :data:`ENTRY_COLUMNS` the damaged file's ``entries`` has."""
    try:
        have = {row[1] for row in connection.execute("PRAGMA table_info(entries)")}
    except sqlite3.DatabaseError:
        have = set()
    return tuple(name for name in ENTRY_COLUMNS if name in have) or ENTRY_COLUMNS[:11]


def _highest_id(connection: sqlite3.Connection) -> int:
    """The largest id ``entries`` has had, as far as can still be read."""
    for sql in (
        "SELECT seq FROM sqlite_sequence WHERE name = 'entries'",
        "SELECT max(id) FROM entries",
    ):
        try:
            row = connection.execute(sql).fetchone()
        except sqlite3.DatabaseError:
            continue
        if row is not None and row[0] is not None:
            return int(row[0])
    return 2**62


def _rows(
    connection: sqlite3.Connection, columns: Sequence[str], highest: int
) -> Iterator[tuple[Any, ...]]:
    """The readable rows of ``entries``, by id: a range scan, and past a damaged page
    the next ids looked up one by one until one reads."""
    listed = ", ".join(columns)
    last = -(2**63)
    while True:
        try:
            for row in connection.execute(
                f"SELECT {listed} FROM entries WHERE id > ? ORDER BY id", (last,)
            ):
                last = int(row[0])
                yield tuple(row)
            return
        except sqlite3.DatabaseError:
            pass
        start = max(last + 1, 0)
        for candidate in range(start, min(highest, start + _MOST_PROBES) + 1):
            try:
                row = connection.execute(
                    f"SELECT {listed} FROM entries WHERE id = ?", (candidate,)
                ).fetchone()
            except sqlite3.DatabaseError:
                continue
            if row is not None:
                last = candidate
                yield tuple(row)
                break
        else:
            return


def _payload(connection: sqlite3.Connection, entry_id: int) -> tuple[bytes, bytes, bytes] | None:
    """Entry ``entry_id``'s payload when it reads back whole (its record as an exchange)."""
    try:
        row = connection.execute(
            "SELECT record, request_body, response_body FROM payloads WHERE id = ?", (entry_id,)
        ).fetchone()
    except sqlite3.DatabaseError:
        return None
    if row is None:
        return None
    record, request_body, response_body = (bytes(part) for part in row)
    try:
        exchange_of(record, request_body, response_body)
    except (ValueError, KeyError, TypeError):
        return None
    return record, request_body, response_body


def salvage_history(damaged: Path, into: sqlite3.Connection) -> int:
    """Copy every entry of the history file ``damaged`` that reads back whole into the
    (new, empty) history ``into``, in one transaction; returns how many were kept.

    ``damaged`` is only read. Nothing readable: 0.
    """
    try:
        source = sqlite3.connect(f"{damaged.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return 0
    kept = 0
    try:
        source.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError:  # not a database at all, or its schema is gone
        source.close()
        return 0
    try:
        columns = _present(source)
        placeholders = ", ".join("?" * len(columns))
        into.execute("BEGIN IMMEDIATE")
        for row in _rows(source, columns, _highest_id(source)):
            payload = _payload(source, int(row[0]))
            if payload is None:
                continue
            try:
                into.execute(
                    f"INSERT INTO entries ({', '.join(columns)}) VALUES ({placeholders})", row
                )
            except sqlite3.IntegrityError:  # a damaged row: NULL where none may be
                continue
            into.execute(
                "INSERT INTO payloads (id, record, request_body, response_body) "
                "VALUES (?, ?, ?, ?)",
                (row[0], *payload),
            )
            kept += 1
        into.execute("COMMIT")
    except sqlite3.Error:
        if into.in_transaction:
            into.execute("ROLLBACK")
        return 0
    finally:
        source.close()
    return kept
