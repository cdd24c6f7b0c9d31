"""An exchange made into the history's rows and written: masked, cut to the bounds.

:func:`row_for` makes the row (a body over :data:`MAX_KEPT_BODY` left out, secrets
masked unless masking is off); :func:`insert_rows` writes rows in one transaction and
drops the oldest entries beyond the bounds (:func:`trim`); :func:`is_known` tells an
import's exchange the history holds already. SQL on a connection the store gives:
the store keeps the file, its lock and its salvage
(:class:`explorer.core.storage.history.HistoryStore`).
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass, replace

from explorer.core.http.exchange import Exchange
from explorer.core.http.masking import mask_exchange
from explorer.core.storage.history_record import record_of

__all__ = ["MAX_KEPT_BODY", "Row", "insert_rows", "is_known", "row_for", "trim"]

#: A body larger than this is not kept (the entry keeps its size and headers).
MAX_KEPT_BODY = 10_000_000

#: The outcomes of a :class:`~explorer.core.http.exchange.CacheNote` an entry is marked with.
_FROM_CACHE = frozenset({"fresh", "revalidated"})
#: An imported time (HAR files keep milliseconds) stands for the times from this much
#: before it (a writer that rounds) to just under a millisecond after it (one that cuts,
#: as restwalk's own ``isoformat(timespec="milliseconds")`` does).
_SAME_TIME_BEFORE = 0.0005
_SAME_TIME_AFTER = 0.001


@dataclass(frozen=True)
class Row:
    """An exchange ready to insert."""

    at: float
    exchange: Exchange
    record: bytes
    request_body: bytes
    response_body: bytes
    source: str
    masked: bool
    bundled: bool = False

    @property
    def cache(self) -> str:
        note = self.exchange.cache
        return note.outcome if note is not None and note.outcome in _FROM_CACHE else ""

    @property
    def size(self) -> int:
        return len(self.record) + len(self.request_body) + len(self.response_body)


def row_for(
    exchange: Exchange,
    at: float | None,
    source: str,
    bundled: bool = False,
    *,
    max_entries: int,
    max_bytes: int,
    mask_secrets: bool,
) -> Row | None:
    """The row to insert for ``exchange``, masked and cut to the bounds; None when it
    cannot fit at all."""
    if max_entries == 0:
        return None
    when = time.time() - exchange.timings.total if at is None else at
    dropped = None
    body = exchange.response.body
    if len(body) > min(MAX_KEPT_BODY, max_bytes // 2):
        dropped = len(body)
        exchange = _without_body(exchange)
    if mask_secrets:
        exchange = mask_exchange(exchange)
    row = Row(
        at=when,
        exchange=exchange,
        record=record_of(exchange, dropped),
        request_body=exchange.final.body,
        response_body=exchange.response.body,
        source=source,
        masked=mask_secrets,
        bundled=bundled,
    )
    return row if row.size <= max_bytes else None


def insert_rows(
    connection: sqlite3.Connection,
    rows: list[Row],
    *,
    max_entries: int,
    max_bytes: int,
    begun: bool = False,
) -> list[int]:
    """Insert ``rows`` in one transaction (``begun``: already begun), the oldest entries
    beyond the bounds dropped; returns the new entries' ids."""
    ids = []
    if not begun:
        connection.execute("BEGIN IMMEDIATE")
    for row in rows:
        response = row.exchange.response
        cursor = connection.execute(
            "INSERT INTO entries (at, method, url, final_url, status, reason, duration, "
            "size, source, masked, cache, bundled) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.at,
                row.exchange.request.method,
                row.exchange.request.url,
                response.url,
                response.status,
                response.reason,
                row.exchange.timings.total,
                row.size,
                row.source,
                int(row.masked),
                row.cache,
                int(row.bundled),
            ),
        )
        entry_id = int(cursor.lastrowid or 0)
        connection.execute(
            "INSERT INTO payloads (id, record, request_body, response_body) VALUES (?, ?, ?, ?)",
            (entry_id, row.record, row.request_body, row.response_body),
        )
        ids.append(entry_id)
    trimmed = trim(connection, max_entries=max_entries, max_bytes=max_bytes)
    connection.execute("COMMIT")
    if trimmed:
        connection.execute("PRAGMA incremental_vacuum")
    return ids


def trim(connection: sqlite3.Connection, *, max_entries: int, max_bytes: int) -> int:
    """Drop the oldest entries beyond either bound; returns how many went."""
    count, size = connection.execute("SELECT entries, bytes FROM totals").fetchone()
    if count <= max_entries and size <= max_bytes:
        return 0
    cut = None
    rows = connection.execute("SELECT id, size FROM entries ORDER BY id")
    for entry_id, entry_size in rows:
        if count <= max_entries and size <= max_bytes:
            break
        cut, count, size = entry_id, count - 1, size - entry_size
    rows.close()
    if cut is None:
        return 0
    connection.execute("DELETE FROM payloads WHERE id <= ?", (cut,))
    return connection.execute("DELETE FROM entries WHERE id <= ?", (cut,)).rowcount


def is_known(connection: sqlite3.Connection, row: Row) -> bool:
    """True when the history holds ``row``'s exchange already: the same method, URL (as
    kept) and status at the same millisecond, which is what a HAR file keeps of the time."""
    found = connection.execute(
        "SELECT 1 FROM entries WHERE at BETWEEN ? AND ? AND method = ? AND url = ? "
        "AND status = ? LIMIT 1",
        (
            row.at - _SAME_TIME_BEFORE,
            row.at + _SAME_TIME_AFTER,
            row.exchange.request.method,
            row.exchange.request.url,
            row.exchange.response.status,
        ),
    ).fetchone()
    return found is not None


def _without_body(exchange: Exchange) -> Exchange:
    return replace(exchange, response=replace(exchange.response, body=b""))
