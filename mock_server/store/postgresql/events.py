"""The event log and the webhook subscriptions in PostgreSQL, for every instance.

**Events** (``restwalk.events``) are appended inside the write's own
transaction (the persistence's transactions nest), which holds ``head``'s row
lock: the event's number is ``head.events`` plus one, taken under that lock,
so events are numbered in the order their writes commit, with no gap left by
a write undone, and no reader sees event n+1 before n. The same statement
deletes the events more than ``capacity`` behind (the backlog is bounded)
and NOTIFYs the new number on :data:`~mock_server.store.postgresql.listener.EVENTS_CHANNEL`,
delivered at the commit.

``newest()``, asked every tenth of a second while a stream is open, costs no
round trip: it is the newest number the instance's LISTEN connection heard
(:class:`~mock_server.store.postgresql.listener.Listener`), or its own last
commit's. While the listener cannot be trusted (not connected, or connected
since the last look), it reads ``head`` instead. The log's origin is kept in
``meta``, shared by every instance.

**Webhooks** (``restwalk.webhooks``, ``restwalk.attempts``): a subscription's
id is ``head.webhooks`` plus one, taken in a write transaction, so ids are
never reused and every id below the next was given once. Attempts go with
their subscription (``ON DELETE CASCADE``); the newest
:data:`~mock_server.store.webhook_book.MAX_ATTEMPTS` of each are kept.

Each event is delivered by the instance whose write made it (its hub tells
only its own commits to its deliverer), so once across instances, and every
instance lists every attempt.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import replace
from typing import Any, Protocol

import orjson
import psycopg

from mock_server.store.errors import StoreUnavailable
from mock_server.store.event_log import Event, new_origin
from mock_server.store.event_rows import ATTEMPT_COLUMNS, attempt_of, event_of
from mock_server.store.postgresql.connection import Database
from mock_server.store.postgresql.listener import EVENTS_CHANNEL, Listener
from mock_server.store.webhook_book import MAX_ATTEMPTS, Attempt, Subscription

#: ``meta`` key: the event log's origin, drawn when the database is first used for events.
ORIGIN = "event_origin"

_APPEND = """
WITH numbered AS (
    UPDATE restwalk.head SET events = events + 1 RETURNING events AS seq
), kept AS (
    INSERT INTO restwalk.events (seq, type, time, topic, path, record_id, payload)
    SELECT seq, %(type)s, %(time)s, %(topic)s, %(path)s, %(record_id)s, %(payload)s::json
    FROM numbered
), forgotten AS (
    DELETE FROM restwalk.events WHERE seq <= (SELECT seq FROM numbered) - %(capacity)s
)
SELECT seq, pg_notify(%(channel)s, seq::text) FROM numbered
"""

_EVENT_COLUMNS = "seq, type, time, topic, path, record_id, payload::text"


class Writes(Protocol):
    """What the log and the book ask of the persistence whose writes they join.

    The :class:`~mock_server.store.postgresql.persistence.PostgresPersistence`: its
    database, its write transactions (an event is appended in the write's own), and
    the newest event number its listener heard or its own commits made.
    """

    @property
    def database(self) -> Database:
        """The pool (and its lock) every statement of this instance goes through."""

    @property
    def listener(self) -> Listener:
        """The LISTEN connection: the newest event number another instance NOTIFYed."""

    @property
    def newest_event(self) -> int:
        """The newest event number this instance's own commits made."""

    def transaction(self) -> AbstractContextManager[psycopg.Connection[tuple[Any, ...]]]:
        """One write transaction (re-entrant: one opened inside another joins it)."""

    def wrote_event(self, seq: int) -> None:
        """Event ``seq`` was appended in the write open."""


_WEBHOOK_COLUMNS = "id, url, types, secret, version, base, created, description"


class PostgresEventLog:
    """An :class:`~mock_server.store.event_log.EventLog` in PostgreSQL."""

    shared = True

    def __init__(self, persistence: Writes, capacity: int) -> None:
        self._persistence = persistence
        self.capacity = capacity
        with persistence.database.connection() as connection, connection.transaction():
            connection.execute(
                "INSERT INTO restwalk.meta (key, value) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                (ORIGIN, new_origin().encode("ascii")),
            )
            row = connection.execute(
                "SELECT value FROM restwalk.meta WHERE key = %s", (ORIGIN,)
            ).fetchone()
        assert row is not None
        self.origin = bytes(row[0]).decode("ascii")

    def append(self, event: Event) -> Event:
        """Number and keep ``event`` (in the write open, if any); forget the oldest."""
        persistence = self._persistence
        with persistence.transaction() as connection:
            row = connection.execute(
                _APPEND,
                {
                    "type": event.type,
                    "time": event.time,
                    "topic": event.topic,
                    "path": event.path,
                    "record_id": event.record_id,
                    "payload": orjson.dumps(event.payload).decode(),
                    "capacity": self.capacity,
                    "channel": EVENTS_CHANNEL,
                },
            ).fetchone()
            assert row is not None
            seq = int(row[0])
            persistence.wrote_event(seq)
        return replace(event, seq=seq)

    def after(self, seq: int, limit: int) -> list[Event]:
        """The kept events above ``seq``, oldest first, at most ``limit`` (committed ones)."""
        with self._persistence.database.connection() as connection:
            rows = connection.execute(
                f"SELECT {_EVENT_COLUMNS} FROM restwalk.events WHERE seq > %s "
                "ORDER BY seq LIMIT %s",
                (seq, limit),
            ).fetchall()
        return [event_of(row) for row in rows]

    def newest(self) -> int:
        """The highest number committed, as heard (no round trip while the listener is sure).

        While the database is away, the newest known: streams wait rather than fail.
        """
        persistence = self._persistence
        listener = persistence.listener
        with persistence.database.lock:
            heard = listener.newest_event()
            if heard is None:
                try:
                    with persistence.database.connection() as connection:
                        row = connection.execute("SELECT events FROM restwalk.head").fetchone()
                except StoreUnavailable:
                    return max(listener.heard_events, persistence.newest_event)
                assert row is not None
                heard = listener.events_read(int(row[0]))
            return max(heard, persistence.newest_event)


def _subscription(row: tuple[Any, ...]) -> Subscription:
    webhook_id, url, types, secret, version, base, created, description = row
    return Subscription(
        url=url,
        types=tuple(types),
        secret=secret,
        version=int(version),
        base=base,
        created=float(created),
        description=description,
        id=int(webhook_id),
    )


class PostgresWebhookBook:
    """A :class:`~mock_server.store.webhook_book.WebhookBook` in PostgreSQL."""

    def __init__(self, persistence: Writes) -> None:
        self._persistence = persistence
        self._database = persistence.database

    def add(self, subscription: Subscription) -> Subscription:
        """Keep ``subscription`` under the next id (ids are never reused)."""
        with self._persistence.transaction() as connection:
            row = connection.execute(
                "WITH numbered AS (UPDATE restwalk.head SET webhooks = webhooks + 1 "
                "RETURNING webhooks AS id) "
                "INSERT INTO restwalk.webhooks "
                "(id, url, types, secret, version, base, created, description) "
                "SELECT id, %s, %s, %s, %s, %s, %s, %s FROM numbered RETURNING id",
                (
                    subscription.url,
                    list(subscription.types),
                    subscription.secret,
                    subscription.version,
                    subscription.base,
                    subscription.created,
                    subscription.description,
                ),
            ).fetchone()
        assert row is not None
        return replace(subscription, id=int(row[0]))

    def get(self, webhook_id: int) -> Subscription | None:
        """The subscription ``webhook_id``, if there is one."""
        with self._database.connection() as connection:
            row = connection.execute(
                f"SELECT {_WEBHOOK_COLUMNS} FROM restwalk.webhooks WHERE id = %s", (webhook_id,)
            ).fetchone()
        return None if row is None else _subscription(row)

    def all(self) -> list[Subscription]:
        """Every subscription, by id."""
        with self._database.connection() as connection:
            rows = connection.execute(
                f"SELECT {_WEBHOOK_COLUMNS} FROM restwalk.webhooks ORDER BY id"
            ).fetchall()
        return [_subscription(row) for row in rows]

    def remove(self, webhook_id: int) -> bool:
        """Delete the subscription and its attempts (they go with it)."""
        with self._database.connection() as connection:
            cursor = connection.execute(
                "DELETE FROM restwalk.webhooks WHERE id = %s", (webhook_id,)
            )
            return cursor.rowcount > 0

    def next_id(self) -> int:
        """The id the next subscription will get."""
        with self._database.connection() as connection:
            row = connection.execute("SELECT webhooks FROM restwalk.head").fetchone()
        assert row is not None
        return int(row[0]) + 1

    def record(self, attempt: Attempt) -> None:
        """Keep ``attempt`` unless its subscription is gone; the oldest past the limit go."""
        values = (
            attempt.webhook,
            attempt.event,
            attempt.type,
            attempt.number,
            attempt.time,
            attempt.status,
            attempt.outcome,
            attempt.detail,
            attempt.duration_ms,
            attempt.retry_at,
        )
        try:
            with self._database.connection() as connection, connection.transaction():
                connection.execute(
                    f"INSERT INTO restwalk.attempts ({ATTEMPT_COLUMNS}) "
                    "SELECT %s, %s, %s, %s, %s, %s, %s, %s, %s, %s "
                    "WHERE EXISTS (SELECT 1 FROM restwalk.webhooks WHERE id = %s)",
                    (*values, attempt.webhook),
                )
                connection.execute(
                    "DELETE FROM restwalk.attempts WHERE webhook = %s AND id <= "
                    "(SELECT id FROM restwalk.attempts WHERE webhook = %s "
                    "ORDER BY id DESC OFFSET %s LIMIT 1)",
                    (attempt.webhook, attempt.webhook, MAX_ATTEMPTS),
                )
        except psycopg.errors.ForeignKeyViolation:
            pass  # deleted (by another instance) while the attempt was being kept

    def attempts(self, webhook_id: int) -> list[Attempt]:
        """The attempts kept for ``webhook_id``, newest first."""
        with self._database.connection() as connection:
            rows = connection.execute(
                f"SELECT {ATTEMPT_COLUMNS} FROM restwalk.attempts WHERE webhook = %s "
                "ORDER BY id DESC",
                (webhook_id,),
            ).fetchall()
        return [attempt_of(row) for row in rows]
