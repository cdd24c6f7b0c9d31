"""Reaching PostgreSQL: a pool of connections, and a 503 rather than a hang when it is gone.

:class:`Database` hands out connections from a :mod:`psycopg_pool` pool
(autocommit: every transaction is explicit). Any failure to reach the server
(refused, reset, shut down, a pool that has no live connection in
:data:`CONNECT_WAIT` seconds) becomes :class:`StoreUnavailable`, and for the
next :data:`PAUSE` seconds every request is refused at once, without
waiting on the network: the server keeps answering (503 with
``Retry-After``) instead of queueing requests behind a dead socket. The pool
replaces broken connections by itself; the first request after the pause
tries again, and the server goes on as soon as the database is back.

The store's calls come from the event loop's thread (the in-process server's
tests read from another): one re-entrant lock orders them, as the SQLite
store's does.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg_pool
from psycopg.conninfo import conninfo_to_dict

from mock_server.store.errors import PersistenceError, StoreUnavailable

logger = logging.getLogger("mock_server")

#: Seconds a request waits for a connection from the pool before its 503.
CONNECT_WAIT = 1.0
#: Seconds after a failure during which requests are refused without trying.
PAUSE = 0.5
#: Seconds a new connection may take (the pool's, and the first one at start).
CONNECT_TIMEOUT = 3
#: ``Retry-After`` of the 503s while the database is away.
RETRY_AFTER = 1
#: The errors that mean "the database cannot be reached", not "the query is wrong".
UNREACHABLE: tuple[type[Exception], ...] = (psycopg.OperationalError, psycopg.InterfaceError)


def shown(url: str) -> str:
    """``url`` without its password, to name the database in messages."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "postgresql://(unreadable address)"
    user = f"{parts['user']}@" if parts.get("user") else ""
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    return f"postgresql://{user}{host}{port}/{parts.get('dbname') or ''}"


def first_line(error: BaseException) -> str:
    """The first line of a driver's message (libpq's run on over several)."""
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def connect(url: str) -> psycopg.Connection[tuple[Any, ...]]:
    """One autocommit connection to ``url``; :class:`PersistenceError` when there is none."""
    try:
        return psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
    except (psycopg.Error, ValueError) as error:
        where = shown(url)
        raise PersistenceError(f"cannot reach the database {where}: {first_line(error)}") from None


class Database:
    """Connections to one PostgreSQL database, and whether it can be reached now."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = shown(url)
        self.lock = threading.RLock()
        self._down_until = 0.0
        self._down = False
        self._pool: psycopg_pool.ConnectionPool[psycopg.Connection[tuple[Any, ...]]]
        self._pool = psycopg_pool.ConnectionPool(
            url,
            min_size=1,
            max_size=4,
            kwargs={"autocommit": True, "connect_timeout": CONNECT_TIMEOUT},
            open=False,
            name="restwalk",
        )
        try:
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT * 2)
        except psycopg_pool.PoolTimeout:
            self._pool.close()
            raise PersistenceError(f"cannot reach the database {self.where}") from None

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[tuple[Any, ...]]]:
        """A connection for one piece of work (held with :attr:`lock`).

        :class:`StoreUnavailable` when the database cannot be reached, at once
        while a recent failure's pause lasts.
        """
        with self.lock:
            if time.monotonic() < self._down_until:
                raise self.unavailable()
            try:
                with self._pool.connection(timeout=CONNECT_WAIT) as connection:
                    yield connection
            except UNREACHABLE as error:
                raise self.lost(error) from None
            if self._down:
                self._down = False
                logger.warning("the database %s is back", self.where)

    def lost(self, error: BaseException) -> StoreUnavailable:
        """Note that the database failed (``error``); the exception to answer with."""
        with self.lock:
            self._down_until = time.monotonic() + PAUSE
            if not self._down:
                self._down = True
                # Its idle connections died with it: closed now, rather than each
                # failing one more request once it is back.
                self._pool.drain()
                logger.warning(
                    "the database %s cannot be reached (%s): answering 503 until it is back",
                    self.where,
                    first_line(error),
                )
        return self.unavailable()

    def unavailable(self) -> StoreUnavailable:
        """The refusal for a request while the database is away."""
        return StoreUnavailable(
            f"The store's database cannot be reached now; retry in {RETRY_AFTER} s.",
            RETRY_AFTER,
        )

    def close(self) -> None:
        """Close every connection (unusable afterwards)."""
        self._pool.close()
