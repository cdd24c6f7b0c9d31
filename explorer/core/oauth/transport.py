"""Authlib's OAuth 2.0 client on restwalk's own :class:`~explorer.core.http.client.Client`.

Authlib's ``AsyncOAuth2Client`` speaks the protocol (client authentication, PKCE,
token requests, refresh, RFC 6749 errors) on an ``httpx.AsyncClient``.
:class:`ClientTransport` is the httpx transport under it: each request goes through
restwalk's client, so a token request is bounded in bytes and time, uses the
connection's TLS and proxy settings, follows no redirect, sends no cookie, and is
recorded in the history like any exchange (its codes, verifiers, secrets and tokens
masked there by :mod:`explorer.core.http.secret_rules`' names).

:func:`oauth_client_class` loads Authlib's client on first use (a login is rare;
Authlib takes a while to import). Authlib 1.9 prefers ``httpx2`` and warns when it
falls back to httpx: restwalk's stack *is* httpx, so it is loaded on httpx even
where httpx2 is installed, and its warning is kept from the person.
"""

from __future__ import annotations

import sys
import warnings
from functools import cache
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from explorer.core.http.client import Client

__all__ = ["ClientTransport", "oauth_client_class", "oauth_error_class"]

#: Response fields that described the body as it came, not as restwalk's client gives it.
_UNDONE = frozenset({b"content-encoding", b"content-length", b"transfer-encoding"})


class ClientTransport(httpx.AsyncBaseTransport):
    """An httpx transport that sends each request through restwalk's ``client``."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        exchange = await self.client.exchange(request)
        received = exchange.response
        headers = [
            (name.encode("latin-1"), value.encode("latin-1", "replace"))
            for name, value in received.headers
            if name.lower().encode("latin-1") not in _UNDONE
        ]
        return httpx.Response(
            received.status,
            headers=headers,
            content=received.body,
            request=request,
            extensions={"http_version": received.http_version.encode("ascii", "replace")},
        )

    async def aclose(self) -> None:
        """Nothing to close: restwalk's client outlives the OAuth client."""


@cache
def _authlib() -> tuple[Any, Any]:
    """Authlib's ``AsyncOAuth2Client`` and ``OAuthError``, on httpx (see the module docstring)."""
    absent = object()
    saved = sys.modules.get("httpx2", absent)
    sys.modules["httpx2"] = None  # type: ignore[assignment]  # "import httpx2" fails: httpx
    try:
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("ignore")
            from authlib.integrations.httpx_client import AsyncOAuth2Client, OAuthError
    finally:
        if saved is absent:
            del sys.modules["httpx2"]
        else:
            sys.modules["httpx2"] = saved  # type: ignore[assignment]
    return AsyncOAuth2Client, OAuthError


def oauth_client_class() -> Any:
    """Authlib's ``AsyncOAuth2Client`` (an ``httpx.AsyncClient``)."""
    return _authlib()[0]


def oauth_error_class() -> type[Exception]:
    """Authlib's ``OAuthError``: an RFC 6749 error answer (``error``, ``description``)."""
    error: type[Exception] = _authlib()[1]
    return error
