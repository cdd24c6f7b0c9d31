"""The rate limit's windows and the request journal, kept in PostgreSQL for every instance.

Both tables are unlogged (fast; emptied if the database crashes). A rate
limit decision is one call of ``restwalk.rate_take`` (see
:mod:`~mock_server.store.postgresql.schema`); a journal entry is one
INSERT, and every :data:`PRUNE_EVERY` entries the ones past the journal's
size are deleted.
"""

from __future__ import annotations

from typing import Any

import orjson

from mock_server.request_journal import Entry
from mock_server.store.postgresql.connection import Database

#: Counting requests between two sweeps of idle clients' windows.
SWEEP_EVERY = 1024
#: Entries between two prunings of the journal.
PRUNE_EVERY = 256

_COLUMNS = "id, time, method, url, path, query, headers, client, body, body_size, status"


class RateWindows:
    """The :class:`~mock_server.store.shared.RateCounter` of every instance."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._since_sweep = 0

    def take(self, client: str, now: float, span: float, most: int) -> tuple[bool, int, float]:
        """Count a request of ``client`` at ``now`` if a slot is free (see ``rate_take``)."""
        with self._database.connection() as connection:
            row = connection.execute(
                "SELECT allowed, used, oldest FROM restwalk.rate_take(%s, %s, %s, %s)",
                (client, now, span, most),
            ).fetchone()
            self._since_sweep += 1
            if self._since_sweep >= SWEEP_EVERY:
                self._since_sweep = 0
                connection.execute(
                    "DELETE FROM restwalk.rate_windows "
                    "WHERE coalesce(hits[cardinality(hits)], 0) <= %s",
                    (now - span,),
                )
        assert row is not None
        return bool(row[0]), int(row[1]), float(row[2])


def _headers(raw: list[tuple[bytes, bytes]]) -> bytes:
    return orjson.dumps([[name.decode("latin-1"), value.decode("latin-1")] for name, value in raw])


def _entry(row: tuple[Any, ...]) -> Entry:
    entry_id, time, method, url, path, query, headers, client, body, body_size, status = row
    raw = orjson.loads(bytes(headers))
    entry = Entry(
        int(entry_id),
        float(time),
        str(method),
        str(url),
        str(path),
        str(query),
        [(name.encode("latin-1"), value.encode("latin-1")) for name, value in raw],
        None if client is None else str(client),
        bytearray(bytes(body)),
        int(body_size),
        None if status is None else int(status),
    )
    return entry


class JournalTable:
    """The :class:`~mock_server.store.shared.JournalBackend` of every instance."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._since_prune = 0

    def insert(self, entry: Entry, size: int) -> int:
        """Keep ``entry``; its id (the table's, unique across instances)."""
        with self._database.connection() as connection:
            row = connection.execute(
                "INSERT INTO restwalk.journal (time, method, url, path, query, headers, client, "
                "body, body_size, status) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
                "RETURNING id",
                (
                    entry.time,
                    entry.method,
                    entry.url,
                    entry.path,
                    entry.query,
                    _headers(entry.raw_headers),
                    entry.client,
                    bytes(entry.body),
                    entry.body_size,
                    entry.status,
                ),
            ).fetchone()
            assert row is not None
            entry_id = int(row[0])
            self._since_prune += 1
            if self._since_prune >= PRUNE_EVERY:
                self._since_prune = 0
                connection.execute(
                    "DELETE FROM restwalk.journal WHERE id <= %s", (entry_id - size,)
                )
        return entry_id

    def update(self, entry: Entry) -> None:
        """``entry`` has more of its body (or its status) than when it was kept."""
        with self._database.connection() as connection:
            connection.execute(
                "UPDATE restwalk.journal SET body = %s, body_size = %s, status = %s WHERE id = %s",
                (bytes(entry.body), entry.body_size, entry.status, entry.id),
            )

    def newest(self, size: int) -> list[Entry]:
        """The newest ``size`` entries, oldest first."""
        with self._database.connection() as connection:
            rows = connection.execute(
                f"SELECT {_COLUMNS} FROM (SELECT {_COLUMNS} FROM restwalk.journal "
                "ORDER BY id DESC LIMIT %s) AS newest ORDER BY id",
                (size,),
            ).fetchall()
        return [_entry(row) for row in rows]

    def clear(self) -> int:
        """Forget every entry; how many there were (of the newest ``size``)."""
        with self._database.connection() as connection:
            return connection.execute("DELETE FROM restwalk.journal").rowcount
