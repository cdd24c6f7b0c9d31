"""How one request of a ``.http`` file is sent: its timeouts, its cookie jar, its protocol.

A request's own lines say how it goes, over what the command line set:

======================================  ============================================
``# @timeout 5``                        5 s for each of connect, read, write, pool
``# @connection-timeout 2``             2 s to connect (the rest: ``@timeout``, else
                                        the client's)
``# @no-cookie-jar``                    a jar of its own, empty and dropped after:
                                        the run's cookies neither go nor are kept
``# @no-redirect``                      a 3xx is the answer
``HTTP/1.1``, ``HTTP/2``, ``HTTP/2      spoken from this request on; a line with no
(Prior Knowledge)`` after the URL       version speaks as the command line chose
======================================  ============================================

:func:`how_to_send` decides; :func:`send_resolved` sends, through the run's client
or, for a request without the jar, through one made for it alone.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass

import httpx

from explorer.core.http.client import Client
from explorer.core.http.exchange import Exchange
from explorer.core.http.request import RequestSpec
from explorer.core.httpfile.resolve import ResolvedRequest
from explorer.core.httpfile.versions import Protocol

__all__ = ["Sending", "how_to_send", "send_resolved", "speak"]

#: Makes a client of the run's settings with a cookie jar of its own (closed when done).
MakeClient = Callable[[], AbstractAsyncContextManager[Client]]


@dataclass(frozen=True)
class Sending:
    """How one resolved request goes: ``spec`` with these timeouts, redirects, protocol,
    and the run's cookie jar or one of its own."""

    spec: RequestSpec
    timeout: float | httpx.Timeout | None
    follow_redirects: bool | None
    protocol: Protocol
    own_jar: bool


def how_to_send(
    resolved: ResolvedRequest, spec: RequestSpec, client: Client, chosen: Protocol
) -> Sending:
    """How ``resolved`` (sent as ``spec``: its secrets kept where they may go) goes out on
    ``client``, whose connection the command line set to ``chosen``."""
    timeout: float | httpx.Timeout | None = resolved.timeout
    if resolved.connect_timeout is not None:
        timeout = httpx.Timeout(
            resolved.timeout or client.timeout, connect=resolved.connect_timeout
        )
    return Sending(
        spec,
        timeout,
        resolved.follow_redirects,
        resolved.protocol or chosen,
        own_jar=not resolved.cookie_jar,
    )


async def speak(client: Client, protocol: Protocol) -> None:
    """Have ``client`` offer ``protocol`` from its next request on (the cookie jar stays);
    a client on a transport it was given (a test's) speaks as that transport does."""
    if (client.http2, client.http2_prior_knowledge) == (protocol.http2, protocol.prior_knowledge):
        return
    if client.can_change_protocol:
        await client.set_protocol(http2=protocol.http2, prior_knowledge=protocol.prior_knowledge)


async def send_resolved(how: Sending, client: Client, alone: MakeClient) -> Exchange:
    """Send as ``how`` says: through ``client``, or through a client ``alone`` makes."""
    if not how.own_jar:
        await speak(client, how.protocol)
        return await client.send(
            how.spec, follow_redirects=how.follow_redirects, timeout=how.timeout
        )
    async with alone() as other:  # its own empty jar, dropped after
        await speak(other, how.protocol)
        return await other.send(
            how.spec, follow_redirects=how.follow_redirects, timeout=how.timeout
        )
