"""The httpx client under restwalk's: its connection pool, the protocols it offers.

:class:`explorer.core.http.client.Client` keeps one, made by :func:`new_pool` (again
when the protocols change), and sends down to it through :class:`ThroughHttpx`, the
bottom of its stack of transports.
"""

from __future__ import annotations

import ssl

import httpx

from explorer.core.http.redirects import hold_location

__all__ = ["ThroughHttpx", "new_pool"]


def new_pool(
    *,
    transport: httpx.AsyncBaseTransport | None,
    http2: bool,
    prior_knowledge: bool,
    verify: ssl.SSLContext | str | bool,
    proxy: str | None,
) -> httpx.AsyncClient:
    """An httpx client that connects through ``transport`` (None: its own connections),
    offering HTTP/2 by ALPN (``http2``) or only h2 (``prior_knowledge``)."""
    if transport is None and prior_knowledge:
        # Only h2 offered: ALPN asks for it over TLS, and over cleartext
        # the connection starts with the HTTP/2 preface right away.
        transport = httpx.AsyncHTTPTransport(http1=False, http2=True, verify=verify, proxy=proxy)
    return httpx.AsyncClient(
        transport=transport,
        proxy=proxy if transport is None else None,
        http2=http2,
        verify=verify,
        follow_redirects=False,
        event_hooks={"response": [hold_location]},
    )


class ThroughHttpx(httpx.AsyncBaseTransport):
    """The bottom of the client's stack: its ``httpx.AsyncClient``, which keeps the
    connection pool, the proxies (the environment's too, which a transport of its own
    would lose) and the response hooks; redirects are the client's, one hop at a time."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.http.send(request, stream=True, follow_redirects=False)

    async def aclose(self) -> None:
        """Nothing: the httpx client is the :class:`Client`'s to close."""
