"""The history: every exchange restwalk made, kept in SQLite, searchable and bounded.

One file, ``history.sqlite`` in the data directory, shared by every restwalk
process (see :mod:`~explorer.core.storage.database` for how). Two tables: the
small ``entries`` rows that searches and lists read (time, method, URL, status),
and the ``payloads`` they point to (headers, redirect hops, timings, bodies),
read only when an entry is opened or exported.

The history is bounded by :class:`~explorer.core.config.HistoryConfig`: beyond
``max_entries`` entries or ``max_bytes`` bytes (headers and bodies as kept) the
oldest go first. A body over :data:`MAX_KEPT_BODY` is not kept (the entry says
how large it was). Unless ``mask_secrets`` is off, secrets are masked before
anything is written (:mod:`~explorer.core.storage.masking`).

An exchange that failed (refused, timed out) is not kept: like a browser's
history, this one holds what answered.
"""

from __future__ import annotations

import base64
import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import orjson

from explorer.core.exchange import Exchange, Hop, ReceivedResponse, SentRequest, Timings
from explorer.core.storage.database import (
    Opened,
    close_quietly,
    is_corruption,
    move_aside,
    open_database,
)
from explorer.core.storage.history_query import HistoryQuery
from explorer.core.storage.masking import mask_exchange

__all__ = [
    "HISTORY_FILE",
    "MAX_KEPT_BODY",
    "HistoryEntry",
    "HistoryError",
    "HistoryStore",
    "Warn",
]

#: The file's name in the data directory.
HISTORY_FILE = "history.sqlite"
#: A body larger than this is not kept (the entry keeps its size and headers).
MAX_KEPT_BODY = 10_000_000

#: How a store tells the person something went wrong that did not stop it (one line).
Warn = Callable[[str], None]

_T = TypeVar("_T")

_SCHEMA = """
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
    masked INTEGER NOT NULL
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


class HistoryError(Exception):
    """The history cannot be used (a read-only or full disk); the message says why."""


@dataclass(frozen=True)
class HistoryEntry:
    """One kept exchange, as a list shows it (the whole exchange: :meth:`HistoryStore.load`)."""

    id: int
    #: When the request was sent, in seconds since the epoch.
    at: float
    method: str
    #: The URL as requested (secrets masked when masking is on).
    url: str
    #: Where the answer came from, after redirects.
    final_url: str
    status: int
    reason: str
    #: Seconds the whole exchange took.
    duration: float
    #: Bytes the entry takes in the history.
    size: int
    #: Who made it: ``tui``, ``cli`` or ``har`` (imported).
    source: str
    masked: bool


# --- an exchange as a record ----------------------------------------------------------------


def _request_json(request: SentRequest, with_body: bool) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "method": request.method,
        "url": request.url,
        "headers": request.headers,
        "http_version": request.http_version,
    }
    if with_body:
        doc["body"] = base64.b64encode(request.body).decode("ascii")
    return doc


def _response_json(response: ReceivedResponse, with_body: bool) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "status": response.status,
        "reason": response.reason,
        "http_version": response.http_version,
        "headers": response.headers,
        "url": response.url,
        "wire_size": response.wire_size,
    }
    if with_body:
        doc["body"] = base64.b64encode(response.body).decode("ascii")
    return doc


def _request_of(doc: dict[str, Any], body: bytes | None = None) -> SentRequest:
    return SentRequest(
        method=doc["method"],
        url=doc["url"],
        headers=tuple((str(k), str(v)) for k, v in doc["headers"]),
        body=body if body is not None else base64.b64decode(doc.get("body", "")),
        http_version=doc.get("http_version", "HTTP/1.1"),
    )


def _response_of(doc: dict[str, Any], body: bytes | None = None) -> ReceivedResponse:
    return ReceivedResponse(
        status=int(doc["status"]),
        reason=doc["reason"],
        http_version=doc["http_version"],
        headers=tuple((str(k), str(v)) for k, v in doc["headers"]),
        body=body if body is not None else base64.b64decode(doc.get("body", "")),
        url=doc["url"],
        wire_size=doc.get("wire_size"),
    )


def _record(exchange: Exchange, dropped: int | None) -> bytes:
    """The exchange but its two bodies, as JSON (the bodies are columns of their own)."""
    doc = {
        "request": _request_json(exchange.request, with_body=exchange.request != exchange.final),
        "final": _request_json(exchange.final, with_body=False),
        "response": _response_json(exchange.response, with_body=False),
        "hops": [
            {
                "request": _request_json(h.request, True),
                "response": _response_json(h.response, True),
            }
            for h in exchange.hops
        ],
        "timings": [exchange.timings.headers, exchange.timings.total],
        "dropped_body": dropped,
    }
    return orjson.dumps(doc)


def _exchange_of(record: bytes, request_body: bytes, response_body: bytes) -> Exchange:
    doc = orjson.loads(record)
    final = _request_of(doc["final"], request_body)
    first = doc["request"]
    request = final if "body" not in first and first == doc["final"] else _request_of(first)
    headers, total = doc["timings"]
    return Exchange(
        request=request,
        final=final,
        response=_response_of(doc["response"], response_body),
        hops=tuple(
            Hop(_request_of(h["request"]), _response_of(h["response"])) for h in doc["hops"]
        ),
        timings=Timings(float(headers), float(total)),
    )


@dataclass(frozen=True)
class _Row:
    """An exchange ready to insert."""

    at: float
    exchange: Exchange
    record: bytes
    request_body: bytes
    response_body: bytes
    source: str
    masked: bool

    @property
    def size(self) -> int:
        return len(self.record) + len(self.request_body) + len(self.response_body)


# --- the store ------------------------------------------------------------------------------


class HistoryStore:
    """The history file: add exchanges, search them, load one whole.

    Safe to share between the threads of one process (each call takes a lock; a
    call is one short transaction). The file is opened at the first call.
    ``warn`` is told, in one line, when a damaged file was moved aside.
    """

    def __init__(
        self,
        path: Path,
        *,
        max_entries: int = 10_000,
        max_bytes: int = 200_000_000,
        mask_secrets: bool = True,
        warn: Warn | None = None,
    ) -> None:
        self.path = path
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.mask_secrets = mask_secrets
        self.warn: Warn = warn or (lambda _message: None)
        self._opened: Opened | None = None
        self._lock = threading.Lock()

    @classmethod
    def in_directory(
        cls,
        directory: Path,
        *,
        max_entries: int = 10_000,
        max_bytes: int = 200_000_000,
        mask_secrets: bool = True,
        warn: Warn | None = None,
    ) -> HistoryStore:
        """The history kept in ``directory`` (restwalk's data directory)."""
        return cls(
            directory / HISTORY_FILE,
            max_entries=max_entries,
            max_bytes=max_bytes,
            mask_secrets=mask_secrets,
            warn=warn,
        )

    # -- the file ------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._opened is None:
            try:
                self._opened = open_database(self.path, _SCHEMA)
            except sqlite3.DatabaseError as error:
                if not is_corruption(error):
                    raise HistoryError(
                        f"the history {self.path} cannot be opened: {error}"
                    ) from None
                self._move_aside(None, error)
                self._opened = open_database(self.path, _SCHEMA)
            except OSError as error:
                raise HistoryError(
                    f"the history {self.path} cannot be opened: {error.strerror or error}"
                ) from None
        return self._opened.connection

    def _move_aside(self, opened: Opened | None, error: BaseException) -> None:
        """Move the damaged file aside (the one ``opened`` has open, if given) and say so."""
        if opened is not None:
            close_quietly(opened)
        moved = move_aside(self.path, opened.identity if opened is not None else None)
        self._opened = None
        if moved is not None:
            self.warn(
                f"the history database {self.path} is damaged ({error}); it was moved to "
                f"{moved} and a new one started"
            )

    def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` on the connection, under the lock; a damaged file is moved aside
        once and the work done again on a new one."""
        with self._lock:
            for attempt in (1, 2):
                connection = self._connection()
                try:
                    return work(connection)
                except sqlite3.DatabaseError as error:
                    with contextlib.suppress(sqlite3.Error):
                        connection.execute("ROLLBACK")
                    if attempt == 1 and is_corruption(error):
                        assert self._opened is not None
                        self._move_aside(self._opened, error)
                        continue
                    raise HistoryError(f"the history {self.path}: {error}") from None
            raise AssertionError("unreachable")

    def close(self) -> None:
        """Close the file (a later call opens it again)."""
        with self._lock:
            if self._opened is not None:
                self._opened.connection.close()
                self._opened = None

    # -- writing ---------------------------------------------------------------------------

    def _row(self, exchange: Exchange, at: float | None, source: str) -> _Row | None:
        """The row to insert for ``exchange``, masked and cut to the bounds; None when it
        cannot fit at all."""
        if self.max_entries == 0:
            return None
        when = time.time() - exchange.timings.total if at is None else at
        dropped = None
        body = exchange.response.body
        if len(body) > min(MAX_KEPT_BODY, self.max_bytes // 2):
            dropped = len(body)
            exchange = _without_body(exchange)
        if self.mask_secrets:
            exchange = mask_exchange(exchange)
        row = _Row(
            at=when,
            exchange=exchange,
            record=_record(exchange, dropped),
            request_body=exchange.final.body,
            response_body=exchange.response.body,
            source=source,
            masked=self.mask_secrets,
        )
        return row if row.size <= self.max_bytes else None

    def add(
        self, exchange: Exchange, *, at: float | None = None, source: str = "cli"
    ) -> int | None:
        """Keep ``exchange`` (sent at ``at``, default: now less its duration); returns its id,
        or None when it is larger than the whole history may be."""
        row = self._row(exchange, at, source)
        if row is None:
            return None
        ids = self._run(lambda connection: self._insert(connection, [row]))
        return ids[0]

    def add_many(self, items: Sequence[tuple[Exchange, float]], *, source: str) -> int:
        """Keep each ``(exchange, at)`` in one transaction; returns how many were kept."""
        rows = [row for exchange, at in items if (row := self._row(exchange, at, source))]
        if not rows:
            return 0
        return len(self._run(lambda connection: self._insert(connection, rows)))

    def _insert(self, connection: sqlite3.Connection, rows: list[_Row]) -> list[int]:
        ids = []
        connection.execute("BEGIN IMMEDIATE")
        for row in rows:
            response = row.exchange.response
            cursor = connection.execute(
                "INSERT INTO entries (at, method, url, final_url, status, reason, duration, "
                "size, source, masked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                ),
            )
            entry_id = int(cursor.lastrowid or 0)
            connection.execute(
                "INSERT INTO payloads (id, record, request_body, response_body) "
                "VALUES (?, ?, ?, ?)",
                (entry_id, row.record, row.request_body, row.response_body),
            )
            ids.append(entry_id)
        trimmed = self._trim(connection)
        connection.execute("COMMIT")
        if trimmed:
            connection.execute("PRAGMA incremental_vacuum")
        return ids

    def _trim(self, connection: sqlite3.Connection) -> int:
        """Drop the oldest entries beyond either bound; returns how many went."""
        count, size = connection.execute("SELECT entries, bytes FROM totals").fetchone()
        if count <= self.max_entries and size <= self.max_bytes:
            return 0
        cut = None
        rows = connection.execute("SELECT id, size FROM entries ORDER BY id")
        for entry_id, entry_size in rows:
            if count <= self.max_entries and size <= self.max_bytes:
                break
            cut, count, size = entry_id, count - 1, size - entry_size
        rows.close()
        if cut is None:
            return 0
        connection.execute("DELETE FROM payloads WHERE id <= ?", (cut,))
        return connection.execute("DELETE FROM entries WHERE id <= ?", (cut,)).rowcount

    def clear(self) -> int:
        """Forget every entry; returns how many there were."""

        def clear(connection: sqlite3.Connection) -> int:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("DELETE FROM payloads")
            count = connection.execute("DELETE FROM entries").rowcount
            connection.execute("COMMIT")
            connection.execute("PRAGMA incremental_vacuum")
            return count

        return self._run(clear)

    # -- reading ---------------------------------------------------------------------------

    def search(
        self, query: HistoryQuery | None = None, *, limit: int | None = 100, offset: int = 0
    ) -> list[HistoryEntry]:
        """The entries ``query`` asks for, newest first, at most ``limit`` (None: all)."""
        where, params = _where(query or HistoryQuery())
        sql = (
            "SELECT id, at, method, url, final_url, status, reason, duration, size, source, "
            f"masked FROM entries {where} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?"
        )
        params += [-1 if limit is None else limit, offset]
        rows = self._run(lambda connection: connection.execute(sql, params).fetchall())
        return [_entry(row) for row in rows]

    def count(self, query: HistoryQuery | None = None) -> int:
        """How many entries ``query`` asks for."""
        where, params = _where(query or HistoryQuery())
        sql = f"SELECT COUNT(*) FROM entries {where}"
        return int(self._run(lambda connection: connection.execute(sql, params).fetchone()[0]))

    def totals(self) -> tuple[int, int]:
        """How many entries are kept, and how many bytes they take."""
        row = self._run(
            lambda connection: connection.execute("SELECT entries, bytes FROM totals").fetchone()
        )
        return int(row[0]), int(row[1])

    def load(self, entry_id: int) -> Exchange | None:
        """The whole exchange of entry ``entry_id`` (None when it is gone)."""
        row = self._run(
            lambda connection: connection.execute(
                "SELECT record, request_body, response_body FROM payloads WHERE id = ?",
                (entry_id,),
            ).fetchone()
        )
        return _exchange_of(row[0], row[1], row[2]) if row is not None else None

    def exchanges(
        self, query: HistoryQuery | None = None, *, limit: int | None = None
    ) -> Iterator[tuple[HistoryEntry, Exchange]]:
        """Each entry ``query`` asks for with its whole exchange, oldest first (for export)."""
        entries = self.search(query, limit=limit)
        for entry in reversed(entries):
            exchange = self.load(entry.id)
            if exchange is not None:
                yield entry, exchange


def _without_body(exchange: Exchange) -> Exchange:
    return replace(exchange, response=replace(exchange.response, body=b""))


def _entry(row: Sequence[Any]) -> HistoryEntry:
    return HistoryEntry(
        id=int(row[0]),
        at=float(row[1]),
        method=str(row[2]),
        url=str(row[3]),
        final_url=str(row[4]),
        status=int(row[5]),
        reason=str(row[6]),
        duration=float(row[7]),
        size=int(row[8]),
        source=str(row[9]),
        masked=bool(row[10]),
    )


def _like(text: str) -> str:
    """``text`` as a LIKE pattern matching it anywhere, its ``%`` and ``_`` taken literally."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def _where(query: HistoryQuery) -> tuple[str, list[object]]:
    """The SQL ``WHERE`` clause of ``query`` and its parameters."""
    clauses: list[str] = []
    params: list[object] = []
    for term in query.text:
        clauses.append("(url LIKE ? ESCAPE '\\' OR final_url LIKE ? ESCAPE '\\')")
        params += [_like(term), _like(term)]
    if query.methods:
        clauses.append(f"method IN ({', '.join('?' * len(query.methods))})")
        params += sorted(query.methods)
    if query.statuses:
        clauses.append("(" + " OR ".join("status BETWEEN ? AND ?" for _ in query.statuses) + ")")
        for low, high in query.statuses:
            params += [low, high]
    if query.since is not None:
        clauses.append("at >= ?")
        params.append(query.since)
    if query.until is not None:
        clauses.append("at < ?")
        params.append(query.until)
    return ("WHERE " + " AND ".join(clauses)) if clauses else "", params
