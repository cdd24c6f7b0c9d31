"""One request sent without keeping a client: :func:`send`, for a script or a test.

It makes a :class:`~explorer.core.http.client.Client` for the one request (or wraps an
``httpx.AsyncClient`` given), so its bounds, redirects and errors are the client's.
"""

from __future__ import annotations

import ssl

import httpx

from explorer.core.http.client import Client
from explorer.core.http.exchange import Exchange
from explorer.core.http.limits import DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT
from explorer.core.http.request import RequestSpec

__all__ = ["send"]


async def send(
    spec: RequestSpec,
    *,
    client: httpx.AsyncClient | None = None,
    follow_redirects: bool = True,
    max_redirects: int = DEFAULT_MAX_REDIRECTS,
    timeout: float = DEFAULT_TIMEOUT,
    http2: bool = False,
    http2_prior_knowledge: bool = False,
    verify: ssl.SSLContext | str | bool = True,
) -> Exchange:
    """Send one request and return its :class:`~explorer.core.http.exchange.Exchange`.

    With ``client``, its pool and cookie jar are used (and ``http2`` flags are
    the client's own business); without, a client is made for this request alone.
    """
    if client is not None:
        wrapper = Client(http=client, timeout=timeout)
        return await wrapper.send(
            spec, follow_redirects=follow_redirects, max_redirects=max_redirects
        )
    async with Client(
        http2=http2,
        http2_prior_knowledge=http2_prior_knowledge,
        verify=verify,
        timeout=timeout,
    ) as owned:
        return await owned.send(
            spec, follow_redirects=follow_redirects, max_redirects=max_redirects
        )
