"""The logins a client remembers, and the one more try a 401 gets.

:class:`Logins` keeps each :class:`~explorer.core.http.request.LoginFlow`'s token (and
the scheme it goes under when the server asked for another), logs in before the first
request that needs it, and, when a request carrying a credential is refused with 401,
tries once more: under the scheme the server asked for, after logging in again (a
remembered token may have expired), or with an OAuth 2.0 login's renewed token. The
login's own request and its answer are :mod:`explorer.core.http.login`'s (no I/O);
sending is the client's, handed in as functions.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from http import HTTPStatus

import httpx

from explorer.core.http.exchange import Exchange
from explorer.core.http.login import (
    build_login_request,
    form_instead,
    scheme_asked,
    token_from_login,
)
from explorer.core.http.request import BearerAuth, LoginFlow, RequestSpec
from explorer.core.http.token_source import TokenSource
from explorer.core.http.trip import Sent

__all__ = ["Logins"]


class Logins:
    """The tokens :class:`LoginFlow` logins gave, one per flow, and how to send with them.

    ``exchange`` sends a login's request (redirects followed) and returns its exchange.
    """

    def __init__(self, exchange: Callable[[httpx.Request], Awaitable[Exchange]]) -> None:
        self._exchange = exchange
        self._tokens: dict[LoginFlow, str] = {}
        #: The scheme a login's token goes under when the server asked for another than
        #: the flow's (Django REST Framework's ``WWW-Authenticate: Token``).
        self._schemes: dict[LoginFlow, str] = {}
        #: The last login's exchange (its answer shows what the server said).
        self.last: Exchange | None = None

    def token_for(self, flow: LoginFlow) -> str | None:
        """The token ``flow`` logged in for, if it has (None: not logged in yet)."""
        return self._tokens.get(flow)

    def scheme_for(self, flow: LoginFlow) -> str:
        """The scheme ``flow``'s token goes under: its own, or the one the server asked for."""
        return self._schemes.get(flow, flow.scheme)

    def forget_host(self, host: str) -> None:
        """Drop the tokens logged in at ``host``."""
        for flow in [flow for flow in self._tokens if httpx.URL(flow.url).host == host]:
            del self._tokens[flow]

    async def login(self, flow: LoginFlow) -> str:
        """Run ``flow``'s login request and remember its token; returns the token.

        A JSON login the server cannot read is sent once more as a form (an OAuth 2.0
        password grant's, :func:`~explorer.core.http.login.form_instead`).
        """
        sent, refused = flow, None
        exchange = await self._exchange(build_login_request(sent))
        answer = exchange.response
        form = form_instead(flow, answer.status, answer.body)
        if form is not None:
            sent, refused = form, ("JSON", answer.status)
            exchange = await self._exchange(build_login_request(sent))
        self.last = exchange
        token = token_from_login(
            sent, exchange.response.status, exchange.response.body, refused=refused
        )
        self._tokens[flow] = token
        return token

    async def send(
        self,
        spec: RequestSpec,
        send: Callable[[RequestSpec], Awaitable[Sent]],
        renew: tuple[TokenSource, str] | None = None,
    ) -> Sent:
        """``spec`` sent by ``send``, logged in first for a :class:`LoginFlow`, and once
        more after a 401 when that may help; ``renew``: the login whose token ``spec``
        carries, and that token, to renew once after a 401."""
        flow = spec.auth if isinstance(spec.auth, LoginFlow) else None
        remembered = flow is not None and flow in self._tokens
        if flow is not None:
            token = self._tokens.get(flow) or await self.login(flow)
            spec = replace(spec, auth=BearerAuth(token, self.scheme_for(flow)))
        exchange, opened = await send(spec)
        if exchange.response.status != HTTPStatus.UNAUTHORIZED:
            return exchange, opened
        renewed: str | None = None
        scheme = spec.auth.scheme if isinstance(spec.auth, BearerAuth) else "Bearer"
        asked = scheme_asked(exchange.response.header_values("www-authenticate"), scheme)
        if flow is not None and asked is not None:
            # The server reads the token under another scheme: the same token, once more.
            self._schemes[flow] = scheme = asked
            renewed = self._tokens.get(flow)
        elif flow is not None and remembered:
            # A remembered token may have expired: log in again, once, and resend.
            renewed = await self.login(flow)
        elif renew is not None:
            # Refused though fresh (revoked, or the server's clock runs ahead): once more
            # with a new token, when the login has one to give.
            renewed = await renew[0].renewed(renew[1])
        if renewed is not None:
            if opened is not None:
                await opened.aclose()
            exchange, opened = await send(replace(spec, auth=BearerAuth(renewed, scheme)))
        return exchange, opened
