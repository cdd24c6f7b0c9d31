"""``--db FILE``: the store kept in SQLite, so acknowledged writes survive ``kill -9``.

The file is opened in WAL mode with ``synchronous=FULL``: each write is one
transaction, and a COMMIT returns only once the WAL is on disk (fsync). The
store calls the database before a handler answers, so every write answered
2xx is durable. On start, :meth:`SQLitePersistence.load` rebuilds the collections,
including the deleted ids (410 Gone survives a restart) and each collection's
next id (ids are never reused).

The same file keeps what authentication must remember (see
:class:`mock_server.auth.authenticator.CredentialKeeper`): the digests of
tokens issued in ``--token-mode stored``, the digests of session ids, and the
token signing secret when ``--secret`` is not given, so tokens survive a
restart and every ``--workers`` process accepts the others' tokens; and what
the OAuth server remembers (:mod:`mock_server.store.sqlite_oauth`), so a
flow's steps may land on different workers.

Several processes (``--workers``) share the file. Each write also appends
its record's key to ``changes``, so a process that sees another's commit
reads only what changed since it last looked (:meth:`SQLitePersistence.catch_up`)
rather than every record; a reset starts a new ``epoch`` (everything is read
again), and only the newest :data:`KEPT_CHANGES` keys are kept (a process
further behind reads everything).

A computed seed (:mod:`mock_server.store.seeded`, a large ``--seed-size``)
is not written out: the file says how many rounds it has (``meta``), and
holds only the records written since and the deleted ids, as for the rest.

Tables::

    meta(key, value)           -- the signing secret, the computed seed's rounds, the epoch
    collections(name, unique_field, next_id)
    records(collection, id, data, created, updated)   -- data is JSON
    deleted(collection, id)
    changes(seq, collection, id)              -- which record each write touched
    tokens(digest, subject, expires)
    sessions(digest, user, role, expires)
    events, webhooks, attempts      -- see mock_server.store.sqlite_events
    oauth_codes, oauth_grants, ...  -- see mock_server.store.sqlite_oauth
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import cast

import orjson

from mock_server.auth.sessions import MAX_SESSIONS, Session
from mock_server.auth.tokens import MAX_TOKENS
from mock_server.auth.users import ROLE_RANK
from mock_server.store import sqlite_events, sqlite_oauth
from mock_server.store.collection import Collection, Record
from mock_server.store.errors import PersistenceError
from mock_server.store.rows import apply_row, build_collections
from mock_server.store.sqlite_events import SQLiteEventLog, SQLiteWebhookBook
from mock_server.store.sqlite_oauth import SQLiteOAuthState
from mock_server.store.write_lock import WriteLock

#: ``meta`` key: the rounds of the computed seed under the saved records, if there is one.
SEED_ROUNDS = "seed_rounds"
#: ``meta`` key: moves on with every reset; changes are read one by one only within one.
EPOCH = "epoch"
#: The newest changes kept for processes catching up (older ones read everything).
KEPT_CHANGES = 10_000
#: Writes between two prunings of ``changes``.
PRUNE_EVERY = 1_000

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS collections (
    name TEXT PRIMARY KEY, unique_field TEXT, next_id INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS records (
    collection TEXT NOT NULL, id INTEGER NOT NULL, data TEXT NOT NULL,
    created REAL NOT NULL, updated REAL NOT NULL, PRIMARY KEY (collection, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS deleted (
    collection TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (collection, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS changes (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, collection TEXT NOT NULL, id INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    digest TEXT PRIMARY KEY, subject TEXT NOT NULL, expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    digest TEXT PRIMARY KEY, user TEXT NOT NULL, role TEXT NOT NULL, expires REAL NOT NULL
);
"""


#: The file holds the token-signing secret: only its owner may read it. SQLite makes
#: the ``-wal`` and ``-shm`` files with the mode of the database file.
FILE_MODE = 0o600


def _create_private(path: Path) -> None:
    """Create ``path`` empty with :data:`FILE_MODE` if it does not exist (a file given is kept)."""
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    except FileExistsError:
        return
    os.close(descriptor)


class SQLitePersistence:
    """A :class:`~mock_server.store.store.Persistence` in one SQLite file."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._depth = 0
        self._seen_version = 0
        #: The last change and epoch this process has in memory.
        self._seen_change = 0
        self._seen_epoch: bytes | None = None
        self._writes = 0
        try:
            _create_private(self.path)
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=10.0
            )
            self._write_lock = WriteLock(Path(f"{self.path}-lock"))
        except (sqlite3.Error, OSError) as error:
            raise PersistenceError(f"cannot open the database {self.path}: {error}") from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise PersistenceError(
                    f"the database {self.path} was written by a newer restwalk-mock "
                    f"(schema {version}; this one reads {SCHEMA_VERSION})"
                )
            with self.transaction() as db:
                for statement in (SCHEMA + sqlite_events.SCHEMA + sqlite_oauth.SCHEMA).split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as error:
            self._db.close()
            raise PersistenceError(f"cannot use {self.path} as a database: {error}") from None
        self.tokens = SQLiteTokens(self)
        self.sessions = SQLiteSessions(self)
        #: What the OAuth server remembers, for every worker.
        self.oauth_state = SQLiteOAuthState(self)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: committed (durably) on success, rolled back on error.

        Re-entrant: a transaction opened inside another joins it, and only the
        outermost one commits. ``BEGIN IMMEDIATE`` takes the file's write lock,
        so writers in other processes wait (up to the connection's timeout); the
        :class:`~mock_server.store.write_lock.WriteLock` taken first lets the next
        one go as soon as a write ends, rather than at SQLite's next try.
        """
        with self._lock:
            if self._depth:
                self._depth += 1
                try:
                    yield self._db
                finally:
                    self._depth -= 1
                return
            self._write_lock.acquire()
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._depth = 1
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                else:
                    # Read while holding the write lock: no other commit can come between.
                    # Our own COMMIT does not change the data version we see.
                    self._seen_version = self._data_version()
                    self._db.execute("COMMIT")
                finally:
                    self._depth = 0
            finally:
                self._write_lock.release()

    def _data_version(self) -> int:
        return cast(int, self._db.execute("PRAGMA data_version").fetchone()[0])

    def changed_elsewhere(self) -> bool:
        """True when another connection committed since this one last loaded or wrote.

        SQLite's ``data_version`` changes only for commits by other connections.
        """
        with self._lock:
            return self._seen_version != self._data_version()

    def query(self, sql: str, parameters: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """The rows of a read-only statement."""
        with self._lock:
            return list(self._db.execute(sql, parameters).fetchall())

    def close(self) -> None:
        """Close the file (unusable afterwards)."""
        with self._lock:
            self._db.close()
            self._write_lock.close()

    # The Persistence protocol --------------------------------------------------------------

    def load(self) -> dict[str, Collection] | None:
        """The collections saved earlier, or None when the file holds none yet."""
        with self.transaction():  # one snapshot of every table
            self._seen_version = self._data_version()
            self._seen_change, self._seen_epoch = self._position()
            return self._load()

    def _position(self) -> tuple[int, bytes | None]:
        """The newest change and the epoch in the file now."""
        newest = self.query("SELECT coalesce(max(seq), 0) FROM changes")[0][0]
        epoch = self.query("SELECT value FROM meta WHERE key = ?", (EPOCH,))
        return cast(int, newest), cast(bytes, epoch[0][0]) if epoch else None

    def catch_up(self, collections: dict[str, Collection]) -> bool:
        """Apply to ``collections`` what other processes wrote since this one last looked.

        False when that cannot be told change by change (a reset, or this
        process is further behind than the changes kept): load everything.
        """
        with self.transaction():
            newest, epoch = self._position()
            oldest = self.query("SELECT coalesce(min(seq), 0) FROM changes")[0][0]
            if epoch != self._seen_epoch or cast(int, oldest) > self._seen_change + 1:
                return False
            touched = self.query(
                "SELECT DISTINCT collection, id FROM changes WHERE seq > ?", (self._seen_change,)
            )
            for name, record_id in touched:
                collection = collections.get(str(name))
                if collection is None:
                    return False
                self._apply(collection, cast(int, record_id))
            for name, next_id in self.query("SELECT name, next_id FROM collections"):
                if str(name) in collections:
                    found = collections[str(name)]
                    found.next_id = max(found.next_id, cast(int, next_id))
            self._seen_change = newest
            self._seen_version = self._data_version()
        return True

    def _apply(self, collection: Collection, record_id: int) -> None:
        """Record ``record_id`` as the file has it now, into ``collection``."""
        rows = self.query(
            "SELECT data, created, updated FROM records WHERE collection = ? AND id = ?",
            (collection.name, record_id),
        )
        apply_row(collection, record_id, rows[0] if rows else None)

    def _changed(self, db: sqlite3.Connection, collection: Collection, record_id: int) -> None:
        """Note that ``record_id`` changed (inside the write's transaction)."""
        cursor = db.execute(
            "INSERT INTO changes (collection, id) VALUES (?, ?)", (collection.name, record_id)
        )
        # This process has every change up to its own: it caught up when the write began.
        self._seen_change = cast(int, cursor.lastrowid)
        self._writes += 1
        if self._writes % PRUNE_EVERY == 0:
            db.execute("DELETE FROM changes WHERE seq <= ?", (self._seen_change - KEPT_CHANGES,))

    def _load(self) -> dict[str, Collection] | None:
        rounds = self.query("SELECT value FROM meta WHERE key = ?", (SEED_ROUNDS,))
        return build_collections(
            self.query("SELECT name, unique_field, next_id FROM collections ORDER BY name"),
            int(cast(bytes, rounds[0][0])) if rounds else None,
            self.query(
                "SELECT collection, id, data, created, updated FROM records ORDER BY collection, id"
            ),
            self.query("SELECT collection, id FROM deleted"),
        )

    def saved(self, collection: Collection, record: Record) -> None:
        """``record`` was created or replaced in ``collection``: durable on return."""
        with self.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO records (collection, id, data, created, updated) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    collection.name,
                    record.id,
                    orjson.dumps(record.data).decode(),
                    record.created,
                    record.updated,
                ),
            )
            self._save_head(db, collection)
            self._changed(db, collection, record.id)

    def deleted(self, collection: Collection, record_id: int) -> None:
        """Record ``record_id`` was deleted: durable on return, remembered as gone."""
        with self.transaction() as db:
            db.execute(
                "DELETE FROM records WHERE collection = ? AND id = ?", (collection.name, record_id)
            )
            db.execute(
                "INSERT OR IGNORE INTO deleted (collection, id) VALUES (?, ?)",
                (collection.name, record_id),
            )
            self._save_head(db, collection)
            self._changed(db, collection, record_id)

    def replace_all(self, collections: dict[str, Collection]) -> None:
        """Everything was reset to ``collections`` (first start, ``POST /admin/reset``)."""
        with self.transaction() as db:
            for table in ("records", "deleted", "collections", "changes"):
                db.execute(f"DELETE FROM {table}")
            db.execute("DELETE FROM meta WHERE key IN (?, ?)", (SEED_ROUNDS, EPOCH))
            self._seen_epoch = os.urandom(8).hex().encode("ascii")
            db.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (EPOCH, self._seen_epoch))
            self._seen_change = 0
            rounds = {c.seed.rounds for c in collections.values() if c.seed is not None}
            if rounds:
                db.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?)",
                    (SEED_ROUNDS, str(rounds.pop()).encode("ascii")),
                )
            for collection in collections.values():
                self._save_head(db, collection)
                db.executemany(
                    "INSERT INTO records (collection, id, data, created, updated) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [
                        (
                            collection.name,
                            r.id,
                            orjson.dumps(r.data).decode(),
                            r.created,
                            r.updated,
                        )
                        for r in collection.written.values()
                    ],
                )
                db.executemany(
                    "INSERT INTO deleted (collection, id) VALUES (?, ?)",
                    [(collection.name, record_id) for record_id in collection.deleted],
                )

    @staticmethod
    def _save_head(db: sqlite3.Connection, collection: Collection) -> None:
        db.execute(
            "INSERT OR REPLACE INTO collections (name, unique_field, next_id) VALUES (?, ?, ?)",
            (collection.name, collection.unique, collection.next_id),
        )

    def event_log(self, capacity: int) -> SQLiteEventLog:
        """The event log in this file, keeping the newest ``capacity`` events."""
        return SQLiteEventLog(self, capacity)

    def webhook_book(self) -> SQLiteWebhookBook:
        """The webhook subscriptions and delivery attempts in this file."""
        return SQLiteWebhookBook(self)

    # What authentication keeps -----------------------------------------------------------

    def shared_secret(self, fresh: bytes) -> bytes:
        """The signing secret saved in the file; ``fresh`` is saved first if there is none."""
        with self.transaction() as db:
            db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('secret', ?)", (fresh,))
            row = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
        return bytes(row[0])


def _keep_newest(db: sqlite3.Connection, table: str, limit: int) -> None:
    """Delete the rows of ``table`` that expire first until at most ``limit`` remain."""
    db.execute(
        f"DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table} ORDER BY expires, rowid "
        f"LIMIT max(0, (SELECT count(*) FROM {table}) - ?))",
        (limit,),
    )


class SQLiteTokens:
    """The token registry of ``--token-mode stored`` in the database file (at most ``limit``)."""

    def __init__(self, persistence: SQLitePersistence, limit: int = MAX_TOKENS) -> None:
        self._persistence = persistence
        self.limit = limit

    def add(self, token_digest: str, subject: str, expires: float) -> None:
        """Remember an issued token until ``expires`` (revoking the oldest when full)."""
        with self._persistence.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO tokens (digest, subject, expires) VALUES (?, ?, ?)",
                (token_digest, subject, expires),
            )
            _keep_newest(db, "tokens", self.limit)

    def active(self, token_digest: str, now: float) -> bool:
        """True while the token is registered and not expired; forgets an expired one."""
        rows = self._persistence.query(
            "SELECT expires FROM tokens WHERE digest = ?", (token_digest,)
        )
        if not rows:
            return False
        if now >= cast(float, rows[0][0]):
            self.revoke(token_digest)
            return False
        return True

    def revoke(self, token_digest: str) -> bool:
        """Forget the token; True if it was registered."""
        with self._persistence.transaction() as db:
            cursor = db.execute("DELETE FROM tokens WHERE digest = ?", (token_digest,))
            return cursor.rowcount > 0

    def purge(self, now: float) -> None:
        """Forget every token expired at ``now``."""
        with self._persistence.transaction() as db:
            db.execute("DELETE FROM tokens WHERE expires <= ?", (now,))


class SQLiteSessions:
    """The session store in the database file (digests of session ids only, at most ``limit``)."""

    def __init__(self, persistence: SQLitePersistence, limit: int = MAX_SESSIONS) -> None:
        self._persistence = persistence
        self.limit = limit

    def put(self, digest: str, session: Session) -> None:
        """Keep ``session`` under ``digest`` (ending the oldest one when full)."""
        with self._persistence.transaction() as db:
            db.execute(
                "INSERT OR REPLACE INTO sessions (digest, user, role, expires) VALUES (?, ?, ?, ?)",
                (digest, session.user, session.role, session.expires),
            )
            _keep_newest(db, "sessions", self.limit)

    def get(self, digest: str, now: float) -> Session | None:
        """The live session under ``digest``; an expired one is removed."""
        rows = self._persistence.query(
            "SELECT user, role, expires FROM sessions WHERE digest = ?", (digest,)
        )
        if not rows:
            return None
        user, role, expires = rows[0]
        if now >= cast(float, expires) or role not in ROLE_RANK:
            self.delete(digest)
            return None
        return Session(str(user), role, cast(float, expires))

    def delete(self, digest: str) -> bool:
        """End the session; True if there was one."""
        with self._persistence.transaction() as db:
            return db.execute("DELETE FROM sessions WHERE digest = ?", (digest,)).rowcount > 0

    def purge(self, now: float) -> None:
        """Forget every session expired at ``now``."""
        with self._persistence.transaction() as db:
            db.execute("DELETE FROM sessions WHERE expires <= ?", (now,))
