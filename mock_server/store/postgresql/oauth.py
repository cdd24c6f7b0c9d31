"""What the OAuth server remembers, in PostgreSQL: every instance carries on another's flow.

:class:`PostgresOAuthState` is the :class:`~mock_server.oauth.state.OAuthState`
of ``--store postgresql://`` (the persistence's ``oauth_state``): a code got
on one instance is exchanged on another, a refresh token rotated on one and
presented again on another revokes its family. Each step that decides
something is one statement that compares and sets, so two instances racing
the same code, refresh token or user code cannot both win:

- a code is used by ``UPDATE ... WHERE NOT used RETURNING``;
- a refresh token is rotated by ``UPDATE ... WHERE refresh_digest = old AND
  NOT revoked``, which also records the new token's digest;
- an access token issued in a grant that another instance revoked meanwhile is
  revoked as it is recorded (the grant's row is read ``FOR SHARE``, so the
  revocation and the record are ordered);
- a poll of a device code moves its interval and says whether it came too
  soon in one ``UPDATE`` (``slowed``, set from the row as it was).

Only digests of codes and tokens are kept, as in memory. Each kind keeps at
most :data:`~mock_server.oauth.state.MAX_RECORDS` rows (clients
:data:`~mock_server.oauth.state.MAX_CLIENTS`): a new one deletes those more
than that many behind it (``made``).
"""

from __future__ import annotations

from typing import Any

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
from mock_server.store.postgresql.connection import Database

_GRANT_COLUMNS = (
    'g.grant_id, g.client_id, g."user", g.scope, g.refresh_digest, g.expires, g.revoked'
)
_CLIENT_COLUMNS = "client_id, name, secret_digest, redirect_uris, grant_types, scopes"

#: Deletes the rows of a table more than ``limit`` behind the one just made.
_KEEP_NEWEST = "DELETE FROM restwalk.{table} WHERE made <= %s"


class PostgresOAuthState:
    """The OAuth server's records in PostgreSQL, shared by every instance."""

    def __init__(self, database: Database) -> None:
        self._database = database

    def _insert(self, table: str, statement: str, values: tuple[Any, ...], limit: int) -> None:
        """Run ``statement`` (an INSERT returning ``made``), then forget the oldest rows."""
        with self._database.connection() as connection:
            row = connection.execute(statement, values).fetchone()
            if row is not None:
                connection.execute(_KEEP_NEWEST.format(table=table), (int(row[0]) - limit,))

    # Codes -----------------------------------------------------------------------------

    def add_code(self, code: CodeRecord) -> None:
        """Remember a new authorization code."""
        self._insert(
            "oauth_codes",
            f"INSERT INTO restwalk.oauth_codes ({CODE_COLUMNS}) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING made",
            row_of(code),
            MAX_RECORDS,
        )

    def code(self, digest: str) -> CodeRecord | None:
        """The code with this digest, used or not, expired or not."""
        with self._database.connection() as connection:
            row = connection.execute(
                f"SELECT {CODE_COLUMNS} FROM restwalk.oauth_codes WHERE digest = %s", (digest,)
            ).fetchone()
        return None if row is None else code_of(row)

    def use_code(self, digest: str, grant_id: str | None) -> bool:
        """Mark the code used by ``grant_id``; False when it was used already (anywhere)."""
        with self._database.connection() as connection:
            row = connection.execute(
                "UPDATE restwalk.oauth_codes SET used = true, grant_id = %s "
                "WHERE digest = %s AND NOT used RETURNING digest",
                (grant_id, digest),
            ).fetchone()
        return row is not None

    # Grants ----------------------------------------------------------------------------

    def add_grant(self, grant: GrantRecord) -> None:
        """Remember a new grant and its first refresh token (one statement)."""
        self._insert(
            "oauth_grants",
            "WITH kept AS (INSERT INTO restwalk.oauth_grants "
            '(grant_id, client_id, "user", scope, refresh_digest, expires, revoked) '
            "VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING grant_id, refresh_digest, made), "
            "refresh AS (INSERT INTO restwalk.oauth_refresh (digest, grant_id) "
            "SELECT refresh_digest, grant_id FROM kept WHERE refresh_digest IS NOT NULL) "
            "SELECT made FROM kept",
            (
                grant.grant_id,
                grant.client_id,
                grant.user,
                grant.scope,
                grant.refresh_digest,
                grant.expires,
                grant.revoked,
            ),
            MAX_RECORDS,
        )

    def _grant_where(self, condition: str, value: str) -> GrantRecord | None:
        with self._database.connection() as connection:
            row = connection.execute(
                f"SELECT {_GRANT_COLUMNS}, coalesce((SELECT json_object_agg(a.jti, a.expires) "
                "FROM restwalk.oauth_access AS a WHERE a.grant_id = g.grant_id), '{}') "
                f"FROM restwalk.oauth_grants AS g WHERE {condition}",
                (value,),
            ).fetchone()
        if row is None:
            return None
        grant_id, client_id, user, scope, refresh_digest, expires, revoked, tokens = row
        return GrantRecord(
            grant_id=grant_id,
            client_id=client_id,
            user=user,
            scope=scope,
            refresh_digest=refresh_digest,
            expires=float(expires),
            revoked=bool(revoked),
            access_tokens={str(jti): float(when) for jti, when in tokens.items()},
        )

    def grant(self, grant_id: str) -> GrantRecord | None:
        """The grant with this id, with the access tokens issued in it."""
        return self._grant_where("g.grant_id = %s", grant_id)

    def grant_of_refresh(self, refresh_digest: str) -> GrantRecord | None:
        """The grant a refresh token was issued in, whether it is the current one or not."""
        return self._grant_where(
            "g.grant_id = (SELECT grant_id FROM restwalk.oauth_refresh WHERE digest = %s)",
            refresh_digest,
        )

    def rotate(self, grant_id: str, old_digest: str, new_digest: str, expires: float) -> bool:
        """Replace the current refresh token, if ``old_digest`` still is it (compare and set)."""
        with self._database.connection() as connection:
            row = connection.execute(
                "WITH rotated AS (UPDATE restwalk.oauth_grants "
                "SET refresh_digest = %(new)s, expires = %(expires)s "
                "WHERE grant_id = %(grant)s AND refresh_digest = %(old)s AND NOT revoked "
                "RETURNING grant_id) "
                "INSERT INTO restwalk.oauth_refresh (digest, grant_id) "
                "SELECT %(new)s, grant_id FROM rotated RETURNING grant_id",
                {"new": new_digest, "expires": expires, "grant": grant_id, "old": old_digest},
            ).fetchone()
        return row is not None

    def add_access_token(self, grant_id: str, jti: str, expires: float) -> None:
        """Record an access token issued in a grant; revoked at once if the grant is."""
        with self._database.connection() as connection:
            connection.execute(
                "WITH g AS (SELECT grant_id, revoked FROM restwalk.oauth_grants "
                "WHERE grant_id = %(grant)s FOR SHARE), "
                "kept AS (INSERT INTO restwalk.oauth_access (jti, grant_id, expires) "
                "SELECT %(jti)s, grant_id, %(expires)s FROM g ON CONFLICT DO NOTHING) "
                "INSERT INTO restwalk.oauth_revoked (jti, expires) "
                "SELECT %(jti)s, %(expires)s FROM g WHERE revoked ON CONFLICT DO NOTHING",
                {"grant": grant_id, "jti": jti, "expires": expires},
            )

    def revoke_grant(self, grant_id: str) -> None:
        """Revoke the grant: its refresh tokens and its access tokens."""
        with self._database.connection() as connection, connection.transaction():
            # The row lock first: an access token recorded meanwhile is then seen below
            # (each statement reads what committed before it began).
            connection.execute(
                "UPDATE restwalk.oauth_grants SET revoked = true, refresh_digest = NULL "
                "WHERE grant_id = %s",
                (grant_id,),
            )
            connection.execute(
                "INSERT INTO restwalk.oauth_revoked (jti, expires) "
                "SELECT jti, expires FROM restwalk.oauth_access WHERE grant_id = %s "
                "ON CONFLICT DO NOTHING",
                (grant_id,),
            )

    def revoke_access_token(self, jti: str, expires: float) -> None:
        """Revoke one access token until it would have expired."""
        self._insert(
            "oauth_revoked",
            "INSERT INTO restwalk.oauth_revoked (jti, expires) VALUES (%s, %s) "
            "ON CONFLICT DO NOTHING RETURNING made",
            (jti, expires),
            MAX_RECORDS,
        )

    def access_token_revoked(self, jti: str) -> bool:
        """True when the access token ``jti`` was revoked (by any instance)."""
        with self._database.connection() as connection:
            row = connection.execute(
                "SELECT 1 FROM restwalk.oauth_revoked WHERE jti = %s", (jti,)
            ).fetchone()
        return row is not None

    # Devices ---------------------------------------------------------------------------

    def add_device(self, device: DeviceRecord) -> None:
        """Remember a new device authorization request."""
        self._insert(
            "oauth_devices",
            f"INSERT INTO restwalk.oauth_devices ({DEVICE_COLUMNS}) "
            "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING made",
            row_of(device),
            MAX_RECORDS,
        )

    def device(self, digest: str) -> DeviceRecord | None:
        """The device authorization with this device code digest."""
        with self._database.connection() as connection:
            row = connection.execute(
                f"SELECT {DEVICE_COLUMNS} FROM restwalk.oauth_devices WHERE digest = %s",
                (digest,),
            ).fetchone()
        return None if row is None else device_of(row)

    def device_by_user_code(self, user_code: str) -> DeviceRecord | None:
        """The device authorization a user code names (the newest, should two share it)."""
        with self._database.connection() as connection:
            row = connection.execute(
                f"SELECT {DEVICE_COLUMNS} FROM restwalk.oauth_devices WHERE user_code = %s "
                "ORDER BY made DESC LIMIT 1",
                (user_code,),
            ).fetchone()
        return None if row is None else device_of(row)

    def decide_device(self, user_code: str, user: str | None, approved: bool) -> bool:
        """Record the decision; False when the code is not pending (decided elsewhere too)."""
        with self._database.connection() as connection:
            row = connection.execute(
                'UPDATE restwalk.oauth_devices SET "user" = %s, approved = %s '
                "WHERE digest = (SELECT digest FROM restwalk.oauth_devices WHERE user_code = %s "
                "ORDER BY made DESC LIMIT 1) AND approved IS NULL RETURNING digest",
                (user, approved, user_code),
            ).fetchone()
        return row is not None

    def poll_device(self, digest: str, now: float) -> int | None:
        """Note a poll; the new, longer interval when it came too soon (``slow_down``)."""
        with self._database.connection() as connection:
            # SET reads the row as it was: ``slowed`` says whether this poll came too soon.
            row = connection.execute(
                "UPDATE restwalk.oauth_devices SET last_poll = %(now)s, "
                'slowed = (last_poll IS NOT NULL AND %(now)s - last_poll < "interval"), '
                '"interval" = "interval" + CASE WHEN last_poll IS NOT NULL '
                'AND %(now)s - last_poll < "interval" THEN %(step)s ELSE 0 END '
                'WHERE digest = %(digest)s RETURNING slowed, "interval"',
                {"now": now, "step": SLOW_DOWN_STEP, "digest": digest},
            ).fetchone()
        if row is None or not row[0]:
            return None
        return int(row[1])

    def remove_device(self, digest: str) -> None:
        """Forget a device authorization (its token was issued)."""
        with self._database.connection() as connection:
            connection.execute("DELETE FROM restwalk.oauth_devices WHERE digest = %s", (digest,))

    # Clients ---------------------------------------------------------------------------

    def add_client(self, client: ClientRecord) -> None:
        """Remember a registered client (the oldest registered go past the limit)."""
        self._insert(
            "oauth_clients",
            f"INSERT INTO restwalk.oauth_clients ({_CLIENT_COLUMNS}) "
            "VALUES (%s, %s, %s, %s, %s, %s) RETURNING made",
            (
                client.client_id,
                client.name,
                client.secret_digest,
                list(client.redirect_uris),
                list(client.grant_types),
                list(client.scopes),
            ),
            MAX_CLIENTS,
        )

    def client(self, client_id: str) -> ClientRecord | None:
        """The registered client with this id (registered on any instance)."""
        with self._database.connection() as connection:
            row = connection.execute(
                f"SELECT {_CLIENT_COLUMNS} FROM restwalk.oauth_clients WHERE client_id = %s",
                (client_id,),
            ).fetchone()
        if row is None:
            return None
        found_id, name, secret_digest, redirect_uris, grant_types, scopes = row
        return ClientRecord(
            client_id=found_id,
            name=name,
            secret_digest=secret_digest,
            redirect_uris=tuple(redirect_uris),
            grant_types=tuple(grant_types),
            scopes=tuple(scopes),
        )

    # Housekeeping ----------------------------------------------------------------------

    def purge(self, now: float) -> None:
        """Forget whatever expired before ``now`` (a grant takes its tokens with it)."""
        with self._database.connection() as connection, connection.transaction():
            for table in ("oauth_codes", "oauth_revoked", "oauth_grants", "oauth_devices"):
                connection.execute(f"DELETE FROM restwalk.{table} WHERE expires <= %s", (now,))
