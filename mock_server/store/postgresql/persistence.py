"""``--store postgresql://``: the store's :class:`~mock_server.store.store.Persistence`
in PostgreSQL, shared by every instance, on every host, that names the database.

Each instance keeps the collections in memory, as with ``--db``, and the
database is the truth they all follow:

- **A write** is one transaction that first locks the one row of ``head``
  (``SELECT ... FOR UPDATE``): writers of every instance go one at a time.
  Holding it, the instance reads what the others wrote since it last looked
  (:meth:`PostgresPersistence.catch_up`: the ``changes`` past its position),
  then the store checks the write's preconditions against that, changes
  memory, and the rows follow: the record, the collection's next id, a
  ``changes`` row, the new position in ``head``, and a NOTIFY, all committed
  together or not at all. So ``If-Match`` is atomic across instances (two
  instances racing one PUT: one 2xx, one 412), ids are never handed out
  twice, and a write that fails leaves no trace in the database and none in
  memory (the store reads it again).
- **A read** is served from memory. A request's first look at the store
  reads ``head`` (one round trip; see :mod:`mock_server.store.freshness`),
  and the store catches up if another instance wrote: a write acknowledged
  anywhere before the request arrived is in what it reads. Later looks in
  the same request ask the listener
  (:mod:`~mock_server.store.postgresql.listener`), which costs no round trip.
  A page is made from one state of memory, never half of another write.
- **A reset** starts a new epoch: every instance reads everything again.

The same database keeps what the instances share besides the data: tokens
and sessions (:mod:`~mock_server.store.postgresql.credentials`), the signing
secret, the rate limit's windows and the request journal
(:mod:`~mock_server.store.postgresql.shared`), the events and webhooks
(:mod:`~mock_server.store.postgresql.events`), and what the OAuth server
remembers (:mod:`~mock_server.store.postgresql.oauth`).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import orjson
import psycopg

from mock_server.store.collection import Collection, Record
from mock_server.store.freshness import View, current_view
from mock_server.store.postgresql.connection import Database, connect, shown
from mock_server.store.postgresql.credentials import PostgresSessions, PostgresTokens
from mock_server.store.postgresql.events import PostgresEventLog, PostgresWebhookBook
from mock_server.store.postgresql.listener import CHANNEL, Listener, Position, payload
from mock_server.store.postgresql.oauth import PostgresOAuthState
from mock_server.store.postgresql.schema import migrate
from mock_server.store.postgresql.shared import JournalTable, RateWindows
from mock_server.store.rows import apply_row, build_collections

logger = logging.getLogger("mock_server")

#: ``meta`` key: the rounds of the computed seed under the saved records, if there is one.
SEED_ROUNDS = "seed_rounds"
#: The newest changes kept for instances catching up (one further behind reads everything).
KEPT_CHANGES = 10_000
#: Writes between two prunings of ``changes``.
PRUNE_EVERY = 1_000

Connection = psycopg.Connection[tuple[Any, ...]]

_SAVE = """
WITH record AS (
    INSERT INTO restwalk.records (collection, id, data, created, updated)
    VALUES (%(name)s, %(id)s, %(data)s::json, %(created)s, %(updated)s)
    ON CONFLICT (collection, id) DO UPDATE
    SET data = excluded.data, created = excluded.created, updated = excluded.updated
), head AS (
    INSERT INTO restwalk.collections (name, unique_field, next_id)
    VALUES (%(name)s, %(unique)s, %(next_id)s)
    ON CONFLICT (name) DO UPDATE SET unique_field = excluded.unique_field,
        next_id = excluded.next_id
)
INSERT INTO restwalk.changes (seq, collection, id) VALUES (%(seq)s, %(name)s, %(id)s)
"""

_DELETE = """
WITH record AS (
    DELETE FROM restwalk.records WHERE collection = %(name)s AND id = %(id)s
), tombstone AS (
    INSERT INTO restwalk.deleted (collection, id) VALUES (%(name)s, %(id)s)
    ON CONFLICT DO NOTHING
), head AS (
    UPDATE restwalk.collections SET next_id = %(next_id)s WHERE name = %(name)s
)
INSERT INTO restwalk.changes (seq, collection, id) VALUES (%(seq)s, %(name)s, %(id)s)
"""

_MOVE_HEAD = (
    "WITH moved AS (UPDATE restwalk.head SET epoch = %s, seq = %s) SELECT pg_notify(%s, %s)"
)


class PostgresPersistence:
    """A :class:`~mock_server.store.store.Persistence` in one PostgreSQL database."""

    def __init__(self, url: str) -> None:
        first = connect(url)
        try:
            migrate(first, shown(url))
        finally:
            first.close()
        self.database = Database(url)
        self.where = self.database.where
        #: Hears the other instances' writes and events.
        self.listener = Listener(url)
        #: The newest event this instance committed itself.
        self.newest_event = 0
        #: The position this instance's memory is at.
        self._seen: Position = (0, 0)
        #: Inside a write: the position locked in ``head``, and the one written up to.
        self._connection: Connection | None = None
        self._depth = 0
        self._head: Position = (0, 0)
        self._written: Position | None = None
        self._event_written: int | None = None
        self._writes = 0
        #: The request whose first look read ``head`` (see :mod:`mock_server.store.freshness`).
        self._checked: View | None = None
        self.tokens = PostgresTokens(self.database)
        self.sessions = PostgresSessions(self.database)
        self.journal_table = JournalTable(self.database)
        self.rate_windows = RateWindows(self.database)
        self.oauth_state = PostgresOAuthState(self.database)

    # Transactions ----------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One write transaction, holding ``head``'s row lock: writers go one at a time.

        Re-entrant: one opened inside another joins it. At the outermost end the
        new position is written, and NOTIFYed at the commit (as are its events).
        """
        with self.database.lock:
            if self._depth:
                assert self._connection is not None
                self._depth += 1
                try:
                    yield self._connection
                finally:
                    self._depth -= 1
                return
            written: Position | None = None
            event: int | None = None
            with self.database.connection() as connection:
                try:
                    with connection.transaction():
                        row = connection.execute(
                            "SELECT epoch, seq FROM restwalk.head FOR UPDATE"
                        ).fetchone()
                        assert row is not None
                        self._head = (int(row[0]), int(row[1]))
                        self._connection, self._depth, self._written = connection, 1, None
                        self._event_written = None
                        yield connection
                        written, event = self._written, self._event_written
                        if written is not None:
                            connection.execute(_MOVE_HEAD, (*written, CHANNEL, payload(written)))
                finally:
                    self._connection, self._depth, self._written = None, 0, None
                    self._event_written = None
            if written is not None:
                self._seen = written
            if event is not None:
                self.newest_event = max(self.newest_event, event)

    def wrote_event(self, seq: int) -> None:
        """Event ``seq`` was appended in the write open: this instance's newest once it commits."""
        self._event_written = seq

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """A consistent view for reading: the write's own, or a repeatable-read snapshot."""
        with self.database.lock:
            if self._connection is not None:
                yield self._connection
                return
            with self.database.connection() as connection, connection.transaction():
                connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                yield connection

    # The Persistence protocol ----------------------------------------------------------------

    def changed_elsewhere(self) -> bool:
        """True when another instance may have written since this one last looked.

        Inside a write, exactly (the position just locked); at a request's first
        look, exactly (``head`` read now); at its later looks, as heard.
        """
        with self.database.lock:
            if self._depth:
                return self._head != self._seen
            view = current_view()
            if view is not None and view is self._checked:
                return self.listener.heard_past(self._seen)
            with self.database.connection() as connection:
                position = self._position(connection)
            self._checked = view
            return position != self._seen or self.listener.heard_past(self._seen)

    def load(self) -> dict[str, Collection] | None:
        """The collections saved earlier, or None when the database holds none yet."""
        listening = self.listener.connected
        with self._reading() as connection:
            position = self._position(connection)
            rounds = connection.execute(
                "SELECT convert_from(value, 'UTF8') FROM restwalk.meta WHERE key = %s",
                (SEED_ROUNDS,),
            ).fetchone()
            collections = build_collections(
                connection.execute(
                    "SELECT name, unique_field, next_id FROM restwalk.collections ORDER BY name"
                ),
                int(rounds[0]) if rounds else None,
                connection.execute(
                    "SELECT collection, id, data::text, created, updated FROM restwalk.records "
                    "ORDER BY collection, id"
                ),
                connection.execute("SELECT collection, id FROM restwalk.deleted"),
            )
        self._seen = position
        if listening:
            self.listener.settled()
        return collections

    def catch_up(self, collections: dict[str, Collection]) -> bool:
        """Apply to ``collections`` what other instances wrote since this one last looked.

        False when that cannot be told change by change (a reset, or this
        instance is further behind than the changes kept): load everything.
        """
        listening = self.listener.connected
        with self._reading() as connection:
            position = self._position(connection)
            if position == self._seen:
                caught_up = True
            else:
                caught_up = self._apply_changes(connection, collections, position)
        if caught_up:
            self._seen = position
            if listening:
                self.listener.settled()
        return caught_up

    def _position(self, connection: Connection) -> Position:
        if self._connection is not None:
            return self._head
        row = connection.execute("SELECT epoch, seq FROM restwalk.head").fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    def _apply_changes(
        self, connection: Connection, collections: dict[str, Collection], position: Position
    ) -> bool:
        epoch, seen = self._seen
        if position[0] != epoch:
            return False
        oldest = connection.execute("SELECT min(seq) FROM restwalk.changes").fetchone()
        if oldest is None or oldest[0] is None or int(oldest[0]) > seen + 1:
            return False
        touched = connection.execute(
            "SELECT c.collection, c.id, r.data::text, r.created, r.updated "
            "FROM (SELECT DISTINCT collection, id FROM restwalk.changes "
            "      WHERE seq > %s AND seq <= %s) AS c "
            "LEFT JOIN restwalk.records AS r USING (collection, id)",
            (seen, position[1]),
        ).fetchall()
        if any(str(name) not in collections for name, *_ in touched):
            return False
        for name, record_id, data, created, updated in touched:
            row = None if data is None else (data, created, updated)
            apply_row(collections[str(name)], int(record_id), row)
        for name, next_id in connection.execute("SELECT name, next_id FROM restwalk.collections"):
            found = collections.get(str(name))
            if found is not None:
                found.next_id = max(found.next_id, int(next_id))
        return True

    def _change(
        self, collection: Collection, record_id: int, statement: str, **values: Any
    ) -> None:
        """Run ``statement`` for one record's change, numbered next, in the write."""
        with self.transaction() as connection:
            epoch, seq = self._written or self._head
            self._written = (epoch, seq + 1)
            connection.execute(
                statement,
                {
                    "name": collection.name,
                    "id": record_id,
                    "next_id": collection.next_id,
                    "seq": seq + 1,
                    **values,
                },
            )
            self._writes += 1
            if self._writes % PRUNE_EVERY == 0:
                connection.execute(
                    "DELETE FROM restwalk.changes WHERE seq <= %s", (seq + 1 - KEPT_CHANGES,)
                )

    def saved(self, collection: Collection, record: Record) -> None:
        """``record`` was created or replaced in ``collection``: committed with the write."""
        self._change(
            collection,
            record.id,
            _SAVE,
            data=orjson.dumps(record.data).decode(),
            created=record.created,
            updated=record.updated,
            unique=collection.unique,
        )

    def deleted(self, collection: Collection, record_id: int) -> None:
        """Record ``record_id`` was deleted: committed with the write, remembered as gone."""
        self._change(collection, record_id, _DELETE)

    def replace_all(self, collections: dict[str, Collection]) -> None:
        """Everything was reset to ``collections`` (first start, ``POST /admin/reset``)."""
        with self.transaction() as connection:
            for table in ("records", "deleted", "collections", "changes"):
                connection.execute(f"DELETE FROM restwalk.{table}")
            connection.execute("DELETE FROM restwalk.meta WHERE key = %s", (SEED_ROUNDS,))
            rounds = {c.seed.rounds for c in collections.values() if c.seed is not None}
            if rounds:
                connection.execute(
                    "INSERT INTO restwalk.meta (key, value) VALUES (%s, convert_to(%s, 'UTF8'))",
                    (SEED_ROUNDS, str(rounds.pop())),
                )
            with connection.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO restwalk.collections (name, unique_field, next_id) "
                    "VALUES (%s, %s, %s)",
                    [(c.name, c.unique, c.next_id) for c in collections.values()],
                )
                cursor.executemany(
                    "INSERT INTO restwalk.records (collection, id, data, created, updated) "
                    "VALUES (%s, %s, %s::json, %s, %s)",
                    [
                        (c.name, r.id, orjson.dumps(r.data).decode(), r.created, r.updated)
                        for c in collections.values()
                        for r in c.written.values()
                    ],
                )
                cursor.executemany(
                    "INSERT INTO restwalk.deleted (collection, id) VALUES (%s, %s)",
                    [(c.name, i) for c in collections.values() for i in c.deleted],
                )
            # A new epoch at seq 0: every instance reads everything again.
            self._written = ((self._written or self._head)[0] + 1, 0)

    # What the events keep -------------------------------------------------------------------

    def event_log(self, capacity: int) -> PostgresEventLog:
        """The event log in this database, keeping the newest ``capacity`` events."""
        return PostgresEventLog(self, capacity)

    def webhook_book(self) -> PostgresWebhookBook:
        """The webhook subscriptions and delivery attempts in this database."""
        return PostgresWebhookBook(self)

    # What authentication keeps ---------------------------------------------------------------

    def shared_secret(self, fresh: bytes) -> bytes:
        """The signing secret kept in the database; ``fresh`` is kept first if there is none."""
        with self.database.connection() as connection, connection.transaction():
            connection.execute(
                "INSERT INTO restwalk.meta (key, value) VALUES ('secret', %s) "
                "ON CONFLICT DO NOTHING",
                (fresh,),
            )
            row = connection.execute(
                "SELECT value FROM restwalk.meta WHERE key = 'secret'"
            ).fetchone()
        assert row is not None
        return bytes(row[0])

    def close(self) -> None:
        """Close every connection (unusable afterwards)."""
        self.listener.close()
        self.database.close()
