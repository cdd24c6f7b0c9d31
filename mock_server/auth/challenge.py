"""The ``WWW-Authenticate`` challenges a 401 carries (RFC 9110 section 11.6.1).

Both schemes the server accepts are offered, Bearer first (RFC 6750) then Basic
(RFC 7617). When a Bearer token was sent but is bad or expired, the Bearer
challenge says so with ``error="invalid_token"`` (RFC 6750 section 3.1), so a
client knows to get a new token rather than to ask the user for a password.
"""

from __future__ import annotations

from http import HTTPStatus

from mock_server.auth.sessions import clear_cookie
from mock_server.http.problems import Problem

REALM = "restwalk"

INVALID_TOKEN = "invalid_token"


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def challenge(error: str | None = None, description: str | None = None) -> str:
    """The ``WWW-Authenticate`` value: the Bearer challenge (with ``error``), then Basic."""
    bearer = [f"realm={_quoted(REALM)}"]
    if error is not None:
        bearer.append(f"error={_quoted(error)}")
        if description is not None:
            bearer.append(f"error_description={_quoted(description)}")
    return f"Bearer {', '.join(bearer)}, Basic realm={_quoted(REALM)}"


def unauthorized(
    detail: str, *, invalid_token: bool = False, clear_session: bool = False, secure: bool = False
) -> Problem:
    """The 401 problem with the challenges (and a ``Set-Cookie`` clearing the session,
    ``Secure`` when ``secure``: the request came over HTTPS)."""
    headers = {"WWW-Authenticate": challenge(INVALID_TOKEN if invalid_token else None)}
    if clear_session:
        headers["Set-Cookie"] = clear_cookie(secure=secure)
    return Problem(HTTPStatus.UNAUTHORIZED, detail, headers=headers)
