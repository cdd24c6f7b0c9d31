"""Stored tokens and sessions in PostgreSQL: every instance accepts what another issued.

The same rules as the SQLite ones (:mod:`mock_server.store.sqlite`): only
digests are kept, at most ``limit`` of each (a new one beyond ends the one
that expires first, the first made among equals), an expired one is
forgotten when read.
"""

from __future__ import annotations

from mock_server.auth.sessions import MAX_SESSIONS, Session
from mock_server.auth.tokens import MAX_TOKENS
from mock_server.auth.users import ROLE_RANK
from mock_server.store.postgresql.connection import Database

_KEEP_NEWEST = """
DELETE FROM restwalk.{table} WHERE digest IN (
    SELECT digest FROM restwalk.{table} ORDER BY expires, made
    LIMIT greatest(0, (SELECT count(*) FROM restwalk.{table}) - %s)
)
"""


class PostgresTokens:
    """The token registry of ``--token-mode stored``, shared by every instance."""

    def __init__(self, database: Database, limit: int = MAX_TOKENS) -> None:
        self._database = database
        self.limit = limit

    def add(self, token_digest: str, subject: str, expires: float) -> None:
        """Remember an issued token until ``expires`` (revoking the oldest when full)."""
        with self._database.connection() as connection, connection.transaction():
            connection.execute(
                "INSERT INTO restwalk.tokens (digest, subject, expires) VALUES (%s, %s, %s) "
                "ON CONFLICT (digest) DO UPDATE SET subject = excluded.subject, "
                "expires = excluded.expires, made = DEFAULT",
                (token_digest, subject, expires),
            )
            connection.execute(_KEEP_NEWEST.format(table="tokens"), (self.limit,))

    def active(self, token_digest: str, now: float) -> bool:
        """True while the token is registered and not expired; forgets an expired one."""
        with self._database.connection() as connection:
            row = connection.execute(
                "SELECT expires FROM restwalk.tokens WHERE digest = %s", (token_digest,)
            ).fetchone()
        if row is None:
            return False
        if now >= float(row[0]):
            self.revoke(token_digest)
            return False
        return True

    def revoke(self, token_digest: str) -> bool:
        """Forget the token; True if it was registered."""
        with self._database.connection() as connection:
            cursor = connection.execute(
                "DELETE FROM restwalk.tokens WHERE digest = %s", (token_digest,)
            )
            return cursor.rowcount > 0

    def purge(self, now: float) -> None:
        """Forget every token expired at ``now``."""
        with self._database.connection() as connection:
            connection.execute("DELETE FROM restwalk.tokens WHERE expires <= %s", (now,))


class PostgresSessions:
    """The session store, shared by every instance (digests of session ids only)."""

    def __init__(self, database: Database, limit: int = MAX_SESSIONS) -> None:
        self._database = database
        self.limit = limit

    def put(self, digest: str, session: Session) -> None:
        """Keep ``session`` under ``digest`` (ending the oldest one when full)."""
        with self._database.connection() as connection, connection.transaction():
            connection.execute(
                'INSERT INTO restwalk.sessions (digest, "user", role, expires) '
                "VALUES (%s, %s, %s, %s) ON CONFLICT (digest) DO UPDATE SET "
                '"user" = excluded."user", role = excluded.role, expires = excluded.expires, '
                "made = DEFAULT",
                (digest, session.user, session.role, session.expires),
            )
            connection.execute(_KEEP_NEWEST.format(table="sessions"), (self.limit,))

    def get(self, digest: str, now: float) -> Session | None:
        """The live session under ``digest``; an expired one is removed."""
        with self._database.connection() as connection:
            row = connection.execute(
                'SELECT "user", role, expires FROM restwalk.sessions WHERE digest = %s',
                (digest,),
            ).fetchone()
        if row is None:
            return None
        user, role, expires = row
        if now >= float(expires) or role not in ROLE_RANK:
            self.delete(digest)
            return None
        return Session(str(user), role, float(expires))

    def delete(self, digest: str) -> bool:
        """End the session; True if there was one."""
        with self._database.connection() as connection:
            cursor = connection.execute(
                "DELETE FROM restwalk.sessions WHERE digest = %s", (digest,)
            )
            return cursor.rowcount > 0

    def purge(self, now: float) -> None:
        """Forget every session expired at ``now``."""
        with self._database.connection() as connection:
            connection.execute("DELETE FROM restwalk.sessions WHERE expires <= %s", (now,))
