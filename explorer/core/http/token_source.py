"""Where an OAuth 2.0 request's token comes from: a :class:`TokenSource` found by name.

An :class:`~explorer.core.http.request.OAuthBearer` request names its login; the
client looks it up among the sources registered with it
(:attr:`explorer.core.http.client.Client.token_sources`) and asks for a token.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from explorer.core.http.errors import LoginFailed
from explorer.core.http.request import OAuthBearer

__all__ = ["TokenSource", "token_source"]


class TokenSource(Protocol):
    """Where an :class:`~explorer.core.http.request.OAuthBearer` request's token comes from:
    an OAuth 2.0 login (:class:`explorer.core.oauth.login.Login`), registered in
    :attr:`explorer.core.http.client.Client.token_sources` under its name."""

    async def token(self, url: str) -> str:
        """The access token to send to ``url`` now (refreshed first when it is about to
        expire); an :class:`~explorer.core.http.errors.InvalidRequest` when ``url`` is not
        on the origin the token is for."""
        ...

    async def renewed(self, rejected: str) -> str | None:
        """A new token after the server refused ``rejected`` with a 401; None when there
        is no other to try."""
        ...


def token_source(sources: Mapping[str, TokenSource], auth: OAuthBearer) -> TokenSource:
    """The login ``auth`` names; :class:`LoginFailed` when there is none."""
    source = sources.get(auth.login)
    if source is None:
        raise LoginFailed(
            f"Not logged in with OAuth 2.0 as {auth.login!r}: no token to send.",
            hint=f"Log in first: restwalk auth login {auth.login}",
        )
    return source
