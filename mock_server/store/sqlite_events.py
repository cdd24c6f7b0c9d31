"""``--db FILE``: the event log and the webhook subscriptions in the database file.

Both live beside the records in the file :class:`~mock_server.store.sqlite.SQLitePersistence`
keeps, in the tables ``events``, ``webhooks`` and ``attempts`` (its schema
makes them). An event is appended inside the write's own transaction (the
persistence's transactions nest), so it commits with the write or not at all,
and since one write transaction runs at a time across the ``--workers``
processes, events are numbered in the order their writes committed: a reader
that has seen event n has seen every event before it. The file keeps the
newest ``capacity`` events (older ones are deleted as new ones come) and its
log's origin (``meta``), which every worker shares.

A reset of the data (``POST /admin/reset``) keeps both: it is an event itself,
and numbers go on.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

import orjson

from mock_server.store.event_log import Event, new_origin
from mock_server.store.event_rows import ATTEMPT_COLUMNS, attempt_of, event_of
from mock_server.store.sqlite_file import SQLiteFile
from mock_server.store.webhook_book import MAX_ATTEMPTS, Attempt, Subscription

#: ``meta`` key: the event log's origin, drawn when the file is first used for events.
ORIGIN = "event_origin"

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, time REAL NOT NULL,
    topic TEXT, path TEXT NOT NULL, record_id INTEGER, payload TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS webhooks (
    id INTEGER PRIMARY KEY AUTOINCREMENT, url TEXT NOT NULL, types TEXT NOT NULL,
    secret TEXT NOT NULL, version INTEGER NOT NULL, base TEXT NOT NULL,
    created REAL NOT NULL, description TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS attempts (
    id INTEGER PRIMARY KEY AUTOINCREMENT, webhook INTEGER NOT NULL, event TEXT NOT NULL,
    type TEXT NOT NULL, number INTEGER NOT NULL, time REAL NOT NULL, status INTEGER,
    outcome TEXT NOT NULL, detail TEXT NOT NULL, duration_ms INTEGER NOT NULL, retry_at REAL
);
CREATE INDEX IF NOT EXISTS attempts_by_webhook ON attempts (webhook, id);
"""

_EVENT_COLUMNS = "seq, type, time, topic, path, record_id, payload"
_WEBHOOK_COLUMNS = "id, url, types, secret, version, base, created, description"


class SQLiteEventLog:
    """An :class:`~mock_server.store.event_log.EventLog` in the database file."""

    shared = True

    def __init__(self, persistence: SQLiteFile, capacity: int) -> None:
        self._persistence = persistence
        self.capacity = capacity
        with persistence.transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)",
                (ORIGIN, new_origin().encode("ascii")),
            )
            row = db.execute("SELECT value FROM meta WHERE key = ?", (ORIGIN,)).fetchone()
        self.origin = bytes(row[0]).decode("ascii")

    def append(self, event: Event) -> Event:
        """Number and keep ``event`` (in the transaction open, if any); forget the oldest."""
        with self._persistence.transaction() as db:
            cursor = db.execute(
                "INSERT INTO events (type, time, topic, path, record_id, payload) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    event.type,
                    event.time,
                    event.topic,
                    event.path,
                    event.record_id,
                    orjson.dumps(event.payload).decode(),
                ),
            )
            seq = cast(int, cursor.lastrowid)
            db.execute("DELETE FROM events WHERE seq <= ?", (seq - self.capacity,))
        return replace(event, seq=seq)

    def after(self, seq: int, limit: int) -> list[Event]:
        """The kept events above ``seq``, oldest first, at most ``limit`` (committed ones)."""
        rows = self._persistence.query(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
            (seq, limit),
        )
        return [event_of(row) for row in rows]

    def newest(self) -> int:
        """The highest number committed (one indexed lookup)."""
        return cast(int, self._persistence.query("SELECT coalesce(max(seq), 0) FROM events")[0][0])


def _subscription(row: tuple[object, ...]) -> Subscription:
    webhook_id, url, types, secret, version, base, created, description = row
    return Subscription(
        url=str(url),
        types=tuple(orjson.loads(cast(str, types))),
        secret=str(secret),
        version=cast(int, version),
        base=str(base),
        created=cast(float, created),
        description=str(description),
        id=cast(int, webhook_id),
    )


class SQLiteWebhookBook:
    """A :class:`~mock_server.store.webhook_book.WebhookBook` in the database file."""

    def __init__(self, persistence: SQLiteFile) -> None:
        self._persistence = persistence

    def add(self, subscription: Subscription) -> Subscription:
        """Keep ``subscription`` under the next id (ids are never reused)."""
        with self._persistence.transaction() as db:
            cursor = db.execute(
                "INSERT INTO webhooks (url, types, secret, version, base, created, description) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    subscription.url,
                    orjson.dumps(list(subscription.types)).decode(),
                    subscription.secret,
                    subscription.version,
                    subscription.base,
                    subscription.created,
                    subscription.description,
                ),
            )
        return replace(subscription, id=cast(int, cursor.lastrowid))

    def get(self, webhook_id: int) -> Subscription | None:
        """The subscription ``webhook_id``, if there is one."""
        rows = self._persistence.query(
            f"SELECT {_WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?", (webhook_id,)
        )
        return _subscription(rows[0]) if rows else None

    def all(self) -> list[Subscription]:
        """Every subscription, by id."""
        rows = self._persistence.query(f"SELECT {_WEBHOOK_COLUMNS} FROM webhooks ORDER BY id")
        return [_subscription(row) for row in rows]

    def remove(self, webhook_id: int) -> bool:
        """Delete the subscription and its attempts."""
        with self._persistence.transaction() as db:
            db.execute("DELETE FROM attempts WHERE webhook = ?", (webhook_id,))
            return db.execute("DELETE FROM webhooks WHERE id = ?", (webhook_id,)).rowcount > 0

    def next_id(self) -> int:
        """The id the next subscription will get (AUTOINCREMENT's counter, plus one)."""
        rows = self._persistence.query("SELECT seq FROM sqlite_sequence WHERE name = 'webhooks'")
        return (cast(int, rows[0][0]) if rows else 0) + 1

    def record(self, attempt: Attempt) -> None:
        """Keep ``attempt`` unless its subscription is gone; the oldest past the limit go."""
        with self._persistence.transaction() as db:
            db.execute(
                f"INSERT INTO attempts ({ATTEMPT_COLUMNS}) "
                "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS "
                "(SELECT 1 FROM webhooks WHERE id = ?)",
                (
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
                    attempt.webhook,
                ),
            )
            db.execute(
                "DELETE FROM attempts WHERE webhook = ? AND id <= (SELECT id FROM attempts "
                "WHERE webhook = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                (attempt.webhook, attempt.webhook, MAX_ATTEMPTS),
            )

    def attempts(self, webhook_id: int) -> list[Attempt]:
        """The attempts kept for ``webhook_id``, newest first."""
        rows = self._persistence.query(
            f"SELECT {ATTEMPT_COLUMNS} FROM attempts WHERE webhook = ? ORDER BY id DESC",
            (webhook_id,),
        )
        return [attempt_of(row) for row in rows]
