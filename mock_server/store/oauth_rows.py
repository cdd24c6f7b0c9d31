"""The OAuth server's codes and device requests from database rows: what SQLite and
PostgreSQL share (:mod:`~mock_server.store.sqlite_oauth`,
:mod:`~mock_server.store.postgresql.oauth`).

Both keep them in the same columns (``"user"`` and ``"interval"`` quoted:
PostgreSQL reserves those words, SQLite accepts them so) and read them back here.
"""

from __future__ import annotations

from dataclasses import astuple
from typing import Any

from mock_server.oauth.state import CodeRecord, DeviceRecord

#: An authorization code's columns, in the order :func:`code_of` reads them (its fields').
CODE_COLUMNS = (
    'digest, client_id, "user", scope, redirect_uri, code_challenge, code_challenge_method, '
    "expires, used, grant_id"
)
#: A device request's columns, in the order :func:`device_of` reads them (its fields').
DEVICE_COLUMNS = (
    'digest, user_code, client_id, scope, expires, "interval", last_poll, "user", approved'
)


def row_of(record: CodeRecord | DeviceRecord) -> tuple[Any, ...]:
    """The values of ``record`` for its columns (:data:`CODE_COLUMNS` or :data:`DEVICE_COLUMNS`)."""
    return astuple(record)


def code_of(row: tuple[Any, ...]) -> CodeRecord:
    """An authorization code from the columns of :data:`CODE_COLUMNS`."""
    digest, client_id, user, scope, redirect_uri, challenge, method, expires, used, grant = row
    return CodeRecord(
        digest=digest,
        client_id=client_id,
        user=user,
        scope=scope,
        redirect_uri=redirect_uri,
        code_challenge=challenge,
        code_challenge_method=method,
        expires=float(expires),
        used=bool(used),
        grant_id=grant,
    )


def device_of(row: tuple[Any, ...]) -> DeviceRecord:
    """A device request from the columns of :data:`DEVICE_COLUMNS`."""
    digest, user_code, client_id, scope, expires, interval, last_poll, user, approved = row
    return DeviceRecord(
        digest=digest,
        user_code=user_code,
        client_id=client_id,
        scope=scope,
        expires=float(expires),
        interval=int(interval),
        last_poll=None if last_poll is None else float(last_poll),
        user=user,
        approved=None if approved is None else bool(approved),
    )
