"""The history: every exchange restwalk made, kept in SQLite, searchable and bounded.

One file, ``history.sqlite`` in the data directory, shared by every restwalk
process (see :mod:`~explorer.core.storage.database` for how); its tables are
:mod:`~explorer.core.storage.history_schema`'s.

The history is bounded by :class:`~explorer.core.config.HistoryConfig`: beyond
``max_entries`` entries or ``max_bytes`` bytes (headers and bodies as kept) the
oldest go first. A body over
:data:`~explorer.core.storage.history_rows.MAX_KEPT_BODY` is not kept (the entry says
how large it was). Unless ``mask_secrets`` is off, secrets are masked before
anything is written (:mod:`~explorer.core.http.masking`). An exchange becomes rows in
:mod:`~explorer.core.storage.history_rows`; a list shows each as a
:class:`~explorer.core.storage.history_entry.HistoryEntry`.

An exchange that failed (refused, timed out) is not kept: like a browser's
history, this one holds what answered. An answer of the session's cache is kept
and marked so (its entry's ``cache``): a fresh one was never sent.

A file whose pages are damaged loses only the entries on them: the rest is
copied into a new file (:mod:`~explorer.core.storage.salvage`) before the old
one is moved aside, and a one-line warning says how many were kept.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from explorer.core.http.exchange import Exchange
from explorer.core.storage.database import (
    Opened,
    close_quietly,
    is_corruption,
    move_aside,
)
from explorer.core.storage.history_entry import LISTED, HistoryEntry, entry_of
from explorer.core.storage.history_query import HistoryQuery, sql_where
from explorer.core.storage.history_record import exchange_of
from explorer.core.storage.history_rows import Row, insert_rows, is_known, row_for
from explorer.core.storage.history_schema import open_history
from explorer.core.storage.salvage import salvage_history

__all__ = ["HISTORY_FILE", "Added", "HistoryError", "HistoryStore", "Warn"]

#: The file's name in the data directory.
HISTORY_FILE = "history.sqlite"

#: How a store tells the person something went wrong that did not stop it (one line).
Warn = Callable[[str], None]

_T = TypeVar("_T")


class HistoryError(Exception):
    """The history cannot be used (a read-only or full disk); the message says why."""


@dataclass(frozen=True)
class Added:
    """What :meth:`HistoryStore.add_many` did: how many it kept, and how many it left out
    as the history held them already (an import made twice)."""

    kept: int
    known: int = 0


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
                self._opened = open_history(self.path)
            except sqlite3.DatabaseError as error:
                if not is_corruption(error):
                    raise HistoryError(
                        f"the history {self.path} cannot be opened: {error}"
                    ) from None
                self._salvage(None, error)
                self._opened = open_history(self.path)
            except OSError as error:
                raise HistoryError(
                    f"the history {self.path} cannot be opened: {error.strerror or error}"
                ) from None
        return self._opened.connection

    def _salvage(self, opened: Opened | None, error: BaseException) -> None:
        """Copy what the damaged file (the one ``opened`` has open, if given) still holds
        into a new one, move the damaged one aside, put the new one in its place; say so.

        When another process moved it first, the file now there is left alone.
        """
        if opened is not None:
            close_quietly(opened)
        self._opened = None
        identity = opened.identity if opened is not None else None
        fresh = self.path.with_name(f".{self.path.name}.salvage-{os.getpid()}")
        for leftover in (fresh, Path(f"{fresh}-wal"), Path(f"{fresh}-shm")):
            leftover.unlink(missing_ok=True)
        try:
            new = open_history(fresh)
        except (sqlite3.Error, OSError):
            new = None
        kept = salvage_history(self.path, new.connection) if new is not None else 0
        if new is not None:
            close_quietly(new)
        moved = move_aside(self.path, identity)
        if moved is None:  # another process did it: its new file stays
            fresh.unlink(missing_ok=True)
            return
        if new is not None:
            os.replace(fresh, self.path)
        what = (
            "no entry could be read"
            if not kept
            else (
                f"{kept} entr{'y' if kept == 1 else 'ies'} could still be read and "
                f"{'was' if kept == 1 else 'were'} kept"
            )
        )
        self.warn(
            f"the history database {self.path} is damaged ({error}); {what}; the damaged "
            f"file was moved to {moved}"
        )

    def _run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` on the connection, under the lock; a damaged file is salvaged once
        (:meth:`_salvage`) and the work done again on the new one."""
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
                        self._salvage(self._opened, error)
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

    def add(
        self,
        exchange: Exchange,
        *,
        at: float | None = None,
        source: str = "cli",
        bundled: bool = False,
    ) -> int | None:
        """Keep ``exchange`` (sent at ``at``, default: now less its duration; ``bundled``:
        made on the bundled mock server); returns its id, or None when it is larger than the
        whole history may be."""
        row = self._row(exchange, at, source, bundled)
        if row is None:
            return None
        ids = self._run(lambda connection: self._insert(connection, [row]))
        return ids[0]

    def add_many(
        self, items: Sequence[tuple[Exchange, float]], *, source: str, skip_known: bool = False
    ) -> Added:
        """Keep each ``(exchange, at)`` in one transaction.

        With ``skip_known``, one the history holds already is left out: the same
        method, URL (as kept) and status at the same millisecond, which is what a HAR
        file keeps of the time. Importing a file twice then keeps it once.
        """
        rows = [row for exchange, at in items if (row := self._row(exchange, at, source))]
        if not rows:
            return Added(0)

        def insert(connection: sqlite3.Connection) -> Added:
            connection.execute("BEGIN IMMEDIATE")
            new = [r for r in rows if not skip_known or not is_known(connection, r)]
            return Added(len(self._insert(connection, new, begun=True)), len(rows) - len(new))

        return self._run(insert)

    def _row(
        self, exchange: Exchange, at: float | None, source: str, bundled: bool = False
    ) -> Row | None:
        """The row to insert for ``exchange`` under this store's bounds and masking."""
        return row_for(
            exchange,
            at,
            source,
            bundled,
            max_entries=self.max_entries,
            max_bytes=self.max_bytes,
            mask_secrets=self.mask_secrets,
        )

    def _insert(
        self, connection: sqlite3.Connection, rows: list[Row], *, begun: bool = False
    ) -> list[int]:
        return insert_rows(
            connection, rows, max_entries=self.max_entries, max_bytes=self.max_bytes, begun=begun
        )

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
        where, params = sql_where(query or HistoryQuery())
        sql = f"SELECT {LISTED} FROM entries {where} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?"
        params += [-1 if limit is None else limit, offset]
        rows = self._run(lambda connection: connection.execute(sql, params).fetchall())
        return [entry_of(row) for row in rows]

    def entry(self, entry_id: int) -> HistoryEntry | None:
        """Entry ``entry_id`` as a list shows it (None when it is gone)."""
        sql = f"SELECT {LISTED} FROM entries WHERE id = ?"
        row = self._run(lambda connection: connection.execute(sql, (entry_id,)).fetchone())
        return entry_of(row) if row is not None else None

    def count(self, query: HistoryQuery | None = None) -> int:
        """How many entries ``query`` asks for."""
        where, params = sql_where(query or HistoryQuery())
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
        return exchange_of(row[0], row[1], row[2]) if row is not None else None

    def exchanges(
        self, query: HistoryQuery | None = None, *, limit: int | None = None
    ) -> Iterator[tuple[HistoryEntry, Exchange]]:
        """Each entry ``query`` asks for with its whole exchange, oldest first (for export)."""
        entries = self.search(query, limit=limit)
        for entry in reversed(entries):
            exchange = self.load(entry.id)
            if exchange is not None:
                yield entry, exchange
