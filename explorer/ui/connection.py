"""The connection switches the browser offers: the HTTP version (palette: "Protocol: ...")
and the session's cache (``C``, palette: "Caching: ..."), and what each means, said.

What the cache did for each page is shown by the status line and the trip tab, from
the exchange's :class:`~explorer.core.http.exchange.CacheNote`.
"""

from __future__ import annotations

from textual.widget import Widget

from explorer.core.http.client import Client

__all__ = ["PROTOCOLS", "caching_said", "protocol_name", "use_protocol"]

#: The protocol choices: (name, HTTP/2 offered, by prior knowledge, what it means).
PROTOCOLS = (
    ("HTTP/1.1 only", False, False, "HTTP/2 off: every connection speaks HTTP/1.1."),
    (
        "HTTP/2 by ALPN",
        True,
        False,
        "HTTP/2 offered: an https server that agrees (ALPN, in the TLS handshake) speaks it; "
        "http:// stays HTTP/1.1.",
    ),
    (
        "HTTP/2 by prior knowledge",
        True,
        True,
        "HTTP/2 from the first byte, also over http:// (h2c): only for servers known to "
        "speak it there (restwalk-mock --http2 does).",
    ),
)


def protocol_name(client: Client) -> str:
    """The name (of :data:`PROTOCOLS`) of what ``client`` offers now."""
    for name, http2, prior, _ in PROTOCOLS:
        if (client.http2, client.http2_prior_knowledge) == (http2, prior):
            return name
    return PROTOCOLS[0][0]


async def use_protocol(node: Widget, client: Client, name: str) -> None:
    """Offer the protocol ``name`` (of :data:`PROTOCOLS`) from ``client``'s next request on,
    and say so on ``node``'s app (run it in a worker: the old connections are closed)."""
    _, http2, prior, meaning = next(p for p in PROTOCOLS if p[0] == name)
    if not client.can_change_protocol:
        node.notify(
            "This session's client talks through a transport it was given (a test, "
            "an in-process server): its protocol cannot change.",
            severity="warning",
        )
        return
    await client.set_protocol(http2=http2, prior_knowledge=prior)
    node.notify(f"{meaning} The status line shows each page's version.", title=name)


def caching_said(enabled: bool) -> tuple[str, str, float | None]:
    """What turning the cache on (or off) means: a title, the words, how long to show them."""
    if enabled:
        return (
            "Caching on",
            "Responses are kept as your own (private) HTTP cache would keep them: a fresh "
            "one is reused, a stale one revalidated. The status line says 'from cache'; "
            "t (trip) says why.",
            6,
        )
    return "Caching off", "Every request goes to the server; what was stored is forgotten.", None
