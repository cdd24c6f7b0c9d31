"""The ``WWW-Authenticate`` challenges a 401 carries (RFC 9110 section 11.6.1).

Both schemes the server accepts are offered, Bearer first (RFC 6750) then Basic
(RFC 7617). When a Bearer token was sent but is bad or expired, the Bearer
challenge says so with ``error="invalid_token"`` (RFC 6750 section 3.1), so a
client knows to get a new token rather than to ask the user for a password.

With the OAuth server on, the Bearer challenge also names the protected
resource metadata (``resource_metadata``, RFC 9728 section 5.1), so a client
learns from a 401 alone where and how to get a token. A token whose scopes do
not reach an operation gets 403 with ``error="insufficient_scope"`` and the
``scope`` it needs (RFC 6750 section 3.1).
"""

from __future__ import annotations

from http import HTTPStatus

from mock_server.auth.sessions import clear_cookie
from mock_server.http.problems import Problem

REALM = "restwalk"

INVALID_TOKEN = "invalid_token"
INSUFFICIENT_SCOPE = "insufficient_scope"


def _quoted(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _bearer(
    error: str | None,
    description: str | None = None,
    *,
    scope: str | None = None,
    resource_metadata: str | None = None,
) -> str:
    params = [f"realm={_quoted(REALM)}"]
    if error is not None:
        params.append(f"error={_quoted(error)}")
        if description is not None:
            params.append(f"error_description={_quoted(description)}")
    if scope is not None:
        params.append(f"scope={_quoted(scope)}")
    if resource_metadata is not None:
        params.append(f"resource_metadata={_quoted(resource_metadata)}")
    return "Bearer " + ", ".join(params)


def challenge(
    error: str | None = None,
    description: str | None = None,
    *,
    resource_metadata: str | None = None,
) -> str:
    """The ``WWW-Authenticate`` value: the Bearer challenge (with ``error``), then Basic."""
    bearer = _bearer(error, description, resource_metadata=resource_metadata)
    return f"{bearer}, Basic realm={_quoted(REALM)}"


def unauthorized(
    detail: str,
    *,
    invalid_token: bool = False,
    clear_session: bool = False,
    resource_metadata: str | None = None,
    secure: bool = False,
) -> Problem:
    """The 401 problem with the challenges (and a ``Set-Cookie`` clearing the session,
    ``Secure`` when ``secure``: the request came over HTTPS)."""
    error = INVALID_TOKEN if invalid_token else None
    headers = {"WWW-Authenticate": challenge(error, resource_metadata=resource_metadata)}
    if clear_session:
        headers["Set-Cookie"] = clear_cookie(secure=secure)
    return Problem(HTTPStatus.UNAUTHORIZED, detail, headers=headers)


def insufficient_scope(detail: str, scope: str, *, resource_metadata: str | None = None) -> Problem:
    """The 403 problem for a token without the ``scope`` an operation needs."""
    value = _bearer(INSUFFICIENT_SCOPE, scope=scope, resource_metadata=resource_metadata)
    return Problem(
        HTTPStatus.FORBIDDEN,
        detail,
        headers={"WWW-Authenticate": value},
        extra={"requiredScope": scope},
    )
