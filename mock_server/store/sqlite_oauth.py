"""``--db FILE``: what the OAuth server remembers, in the database file, for every worker.

:class:`SQLiteOAuthState` is the :class:`~mock_server.oauth.state.OAuthState`
of ``--db`` (the persistence's ``oauth_state``): with ``--workers N`` a flow's
steps may each land on another worker (the code got on one, exchanged on the
next, the refresh token rotated on a third), and each finds what the others
recorded. Every step that changes something is one transaction holding the
file's write lock, so two workers racing the same code or refresh token
cannot both win: the one that comes second finds it used (``UPDATE ...
WHERE NOT used`` changes no row).

Only digests of codes and tokens are kept, as in memory. Each kind keeps at
most :data:`~mock_server.oauth.state.MAX_RECORDS` rows (clients
:data:`~mock_server.oauth.state.MAX_CLIENTS`), the oldest going first.
"""

from __future__ import annotations

import sqlite3
from typing import Any, cast

import orjson

from mock_server.oauth.state import (
    MAX_CLIENTS,
    MAX_RECORDS,
    SLOW_DOWN_STEP,
    ClientRecord,
    CodeRecord,
    DeviceRecord,
    GrantRecord,
)
from mock_server.store.oauth_rows import CODE_COLUMNS, DEVICE_COLUMNS, code_of, device_of, row_of
from mock_server.store.sqlite_file import SQLiteFile

SCHEMA = """
CREATE TABLE IF NOT EXISTS oauth_codes (
    digest TEXT PRIMARY KEY, client_id TEXT NOT NULL, user TEXT NOT NULL, scope TEXT NOT NULL,
    redirect_uri TEXT, code_challenge TEXT, code_challenge_method TEXT, expires REAL NOT NULL,
    used INTEGER NOT NULL DEFAULT 0, grant_id TEXT
);
CREATE TABLE IF NOT EXISTS oauth_grants (
    grant_id TEXT PRIMARY KEY, client_id TEXT NOT NULL, user TEXT, scope TEXT NOT NULL,
    refresh_digest TEXT, expires REAL NOT NULL, revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS oauth_refresh (digest TEXT PRIMARY KEY, grant_id TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS oauth_refresh_by_grant ON oauth_refresh (grant_id);
CREATE TABLE IF NOT EXISTS oauth_access (
    jti TEXT PRIMARY KEY, grant_id TEXT NOT NULL, expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS oauth_access_by_grant ON oauth_access (grant_id);
CREATE TABLE IF NOT EXISTS oauth_revoked (jti TEXT PRIMARY KEY, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS oauth_devices (
    digest TEXT PRIMARY KEY, user_code TEXT NOT NULL, client_id TEXT NOT NULL,
    scope TEXT NOT NULL, expires REAL NOT NULL, interval INTEGER NOT NULL, last_poll REAL,
    user TEXT, approved INTEGER
);
CREATE INDEX IF NOT EXISTS oauth_devices_by_user_code ON oauth_devices (user_code);
CREATE TABLE IF NOT EXISTS oauth_clients (
    client_id TEXT PRIMARY KEY, name TEXT NOT NULL, secret_digest TEXT,
    redirect_uris TEXT NOT NULL, grant_types TEXT NOT NULL, scopes TEXT NOT NULL
);
"""

_GRANT_COLUMNS = "grant_id, client_id, user, scope, refresh_digest, expires, revoked"
_CLIENT_COLUMNS = "client_id, name, secret_digest, redirect_uris, grant_types, scopes"


def _keep_newest(db: sqlite3.Connection, table: str, newest: int | None, limit: int) -> None:
    """Delete the rows of ``table`` more than ``limit`` behind row ``newest`` (by rowid)."""
    if newest is not None:
        db.execute(f"DELETE FROM {table} WHERE rowid <= ?", (newest - limit,))


class SQLiteOAuthState:
    """The OAuth server's records in the database file, shared by every worker."""

    def __init__(self, persistence: SQLiteFile) -> None:
        self._persistence = persistence

    def _rows(self, sql: str, parameters: tuple[object, ...]) -> list[tuple[Any, ...]]:
        return self._persistence.query(sql, parameters)

    # Codes -----------------------------------------------------------------------------

    def add_code(self, code: CodeRecord) -> None:
        """Remember a new authorization code."""
        with self._persistence.transaction() as db:
            cursor = db.execute(
                f"INSERT OR REPLACE INTO oauth_codes ({CODE_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row_of(code),
            )
            _keep_newest(db, "oauth_codes", cursor.lastrowid, MAX_RECORDS)

    def code(self, digest: str) -> CodeRecord | None:
        """The code with this digest, used or not, expired or not."""
        rows = self._rows(f"SELECT {CODE_COLUMNS} FROM oauth_codes WHERE digest = ?", (digest,))
        return code_of(rows[0]) if rows else None

    def use_code(self, digest: str, grant_id: str | None) -> bool:
        """Mark the code used by ``grant_id``; False when it was used already (by any worker)."""
        with self._persistence.transaction() as db:
            cursor = db.execute(
                "UPDATE oauth_codes SET used = 1, grant_id = ? WHERE digest = ? AND NOT used",
                (grant_id, digest),
            )
            return cursor.rowcount > 0

    # Grants ----------------------------------------------------------------------------

    def add_grant(self, grant: GrantRecord) -> None:
        """Remember a new grant and its first refresh token."""
        with self._persistence.transaction() as db:
            cursor = db.execute(
                f"INSERT OR REPLACE INTO oauth_grants ({_GRANT_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    grant.grant_id,
                    grant.client_id,
                    grant.user,
                    grant.scope,
                    grant.refresh_digest,
                    grant.expires,
                    grant.revoked,
                ),
            )
            if grant.refresh_digest is not None:
                db.execute(
                    "INSERT OR REPLACE INTO oauth_refresh (digest, grant_id) VALUES (?, ?)",
                    (grant.refresh_digest, grant.grant_id),
                )
            newest = cursor.lastrowid
            if newest is not None and newest > MAX_RECORDS:
                self._forget_grants(db, f"rowid <= {newest - MAX_RECORDS}")

    @staticmethod
    def _forget_grants(db: sqlite3.Connection, condition: str, *values: object) -> None:
        """Delete the grants meeting ``condition``, with their refresh and access tokens."""
        gone = f"SELECT grant_id FROM oauth_grants WHERE {condition}"
        db.execute(f"DELETE FROM oauth_refresh WHERE grant_id IN ({gone})", values)
        db.execute(f"DELETE FROM oauth_access WHERE grant_id IN ({gone})", values)
        db.execute(f"DELETE FROM oauth_grants WHERE {condition}", values)

    def _grant(self, grant_id: str) -> GrantRecord | None:
        """The grant, then the access tokens issued in it (each read on its own: a token
        recorded between the two is one the grant did not have yet)."""
        rows = self._rows(
            f"SELECT {_GRANT_COLUMNS} FROM oauth_grants WHERE grant_id = ?", (grant_id,)
        )
        if not rows:
            return None
        found, client_id, user, scope, refresh_digest, expires, revoked = rows[0]
        tokens = self._rows("SELECT jti, expires FROM oauth_access WHERE grant_id = ?", (found,))
        return GrantRecord(
            grant_id=found,
            client_id=client_id,
            user=user,
            scope=scope,
            refresh_digest=refresh_digest,
            expires=float(expires),
            revoked=bool(revoked),
            access_tokens={str(jti): float(when) for jti, when in tokens},
        )

    def grant(self, grant_id: str) -> GrantRecord | None:
        """The grant with this id, with the access tokens issued in it."""
        return self._grant(grant_id)

    def grant_of_refresh(self, refresh_digest: str) -> GrantRecord | None:
        """The grant a refresh token was issued in, whether it is the current one or not."""
        rows = self._rows("SELECT grant_id FROM oauth_refresh WHERE digest = ?", (refresh_digest,))
        return self._grant(str(rows[0][0])) if rows else None

    def rotate(self, grant_id: str, old_digest: str, new_digest: str, expires: float) -> bool:
        """Replace the current refresh token, if ``old_digest`` still is it (compare and set)."""
        with self._persistence.transaction() as db:
            cursor = db.execute(
                "UPDATE oauth_grants SET refresh_digest = ?, expires = ? "
                "WHERE grant_id = ? AND refresh_digest = ? AND NOT revoked",
                (new_digest, expires, grant_id, old_digest),
            )
            if cursor.rowcount == 0:
                return False
            db.execute(
                "INSERT OR REPLACE INTO oauth_refresh (digest, grant_id) VALUES (?, ?)",
                (new_digest, grant_id),
            )
            return True

    def add_access_token(self, grant_id: str, jti: str, expires: float) -> None:
        """Record an access token issued in a grant; revoked at once if the grant is."""
        with self._persistence.transaction() as db:
            db.execute(
                "INSERT OR IGNORE INTO oauth_access (jti, grant_id, expires) "
                "SELECT ?, grant_id, ? FROM oauth_grants WHERE grant_id = ?",
                (jti, expires, grant_id),
            )
            db.execute(
                "INSERT OR IGNORE INTO oauth_revoked (jti, expires) "
                "SELECT ?, ? FROM oauth_grants WHERE grant_id = ? AND revoked",
                (jti, expires, grant_id),
            )

    def revoke_grant(self, grant_id: str) -> None:
        """Revoke the grant: its refresh tokens and its access tokens."""
        with self._persistence.transaction() as db:
            db.execute(
                "UPDATE oauth_grants SET revoked = 1, refresh_digest = NULL WHERE grant_id = ?",
                (grant_id,),
            )
            db.execute(
                "INSERT OR IGNORE INTO oauth_revoked (jti, expires) "
                "SELECT jti, expires FROM oauth_access WHERE grant_id = ?",
                (grant_id,),
            )

    def revoke_access_token(self, jti: str, expires: float) -> None:
        """Revoke one access token until it would have expired."""
        with self._persistence.transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO oauth_revoked (jti, expires) VALUES (?, ?)", (jti, expires)
            )
            _keep_newest(db, "oauth_revoked", cursor.lastrowid, MAX_RECORDS)

    def access_token_revoked(self, jti: str) -> bool:
        """True when the access token ``jti`` was revoked (by any worker)."""
        return bool(self._rows("SELECT 1 FROM oauth_revoked WHERE jti = ?", (jti,)))

    # Devices ---------------------------------------------------------------------------

    def add_device(self, device: DeviceRecord) -> None:
        """Remember a new device authorization request."""
        with self._persistence.transaction() as db:
            cursor = db.execute(
                f"INSERT OR REPLACE INTO oauth_devices ({DEVICE_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row_of(device),
            )
            _keep_newest(db, "oauth_devices", cursor.lastrowid, MAX_RECORDS)

    def device(self, digest: str) -> DeviceRecord | None:
        """The device authorization with this device code digest."""
        rows = self._rows(f"SELECT {DEVICE_COLUMNS} FROM oauth_devices WHERE digest = ?", (digest,))
        return device_of(rows[0]) if rows else None

    def device_by_user_code(self, user_code: str) -> DeviceRecord | None:
        """The device authorization a user code names (the newest, should two share it)."""
        rows = self._rows(
            f"SELECT {DEVICE_COLUMNS} FROM oauth_devices WHERE user_code = ? "
            "ORDER BY rowid DESC LIMIT 1",
            (user_code,),
        )
        return device_of(rows[0]) if rows else None

    def decide_device(self, user_code: str, user: str | None, approved: bool) -> bool:
        """Record the decision; False when the code is not pending (decided elsewhere too)."""
        with self._persistence.transaction() as db:
            cursor = db.execute(
                "UPDATE oauth_devices SET user = ?, approved = ? WHERE rowid = (SELECT rowid "
                "FROM oauth_devices WHERE user_code = ? ORDER BY rowid DESC LIMIT 1) "
                "AND approved IS NULL",
                (user, approved, user_code),
            )
            return cursor.rowcount > 0

    def poll_device(self, digest: str, now: float) -> int | None:
        """Note a poll; the new, longer interval when it came too soon (``slow_down``)."""
        with self._persistence.transaction() as db:
            row = db.execute(
                "SELECT last_poll, interval FROM oauth_devices WHERE digest = ?", (digest,)
            ).fetchone()
            if row is None:
                return None
            last_poll, interval = row
            too_soon = last_poll is not None and now - last_poll < interval
            if too_soon:
                interval += SLOW_DOWN_STEP
            db.execute(
                "UPDATE oauth_devices SET last_poll = ?, interval = ? WHERE digest = ?",
                (now, interval, digest),
            )
        return cast(int, interval) if too_soon else None

    def remove_device(self, digest: str) -> None:
        """Forget a device authorization (its token was issued)."""
        with self._persistence.transaction() as db:
            db.execute("DELETE FROM oauth_devices WHERE digest = ?", (digest,))

    # Clients ---------------------------------------------------------------------------

    def add_client(self, client: ClientRecord) -> None:
        """Remember a registered client (the oldest registered go past the limit)."""
        with self._persistence.transaction() as db:
            cursor = db.execute(
                f"INSERT OR REPLACE INTO oauth_clients ({_CLIENT_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    client.client_id,
                    client.name,
                    client.secret_digest,
                    orjson.dumps(client.redirect_uris).decode(),
                    orjson.dumps(client.grant_types).decode(),
                    orjson.dumps(client.scopes).decode(),
                ),
            )
            _keep_newest(db, "oauth_clients", cursor.lastrowid, MAX_CLIENTS)

    def client(self, client_id: str) -> ClientRecord | None:
        """The registered client with this id (registered on any worker)."""
        rows = self._rows(
            f"SELECT {_CLIENT_COLUMNS} FROM oauth_clients WHERE client_id = ?", (client_id,)
        )
        if not rows:
            return None
        found, name, secret_digest, redirect_uris, grant_types, scopes = rows[0]
        return ClientRecord(
            client_id=found,
            name=name,
            secret_digest=secret_digest,
            redirect_uris=tuple(orjson.loads(redirect_uris)),
            grant_types=tuple(orjson.loads(grant_types)),
            scopes=tuple(orjson.loads(scopes)),
        )

    # Housekeeping ----------------------------------------------------------------------

    def purge(self, now: float) -> None:
        """Forget whatever expired before ``now`` (a grant takes its tokens with it)."""
        with self._persistence.transaction() as db:
            for table in ("oauth_codes", "oauth_revoked", "oauth_devices"):
                db.execute(f"DELETE FROM {table} WHERE expires <= ?", (now,))
            self._forget_grants(db, "expires <= ?", now)
