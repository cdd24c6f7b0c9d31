"""The browser screen's connection switches: the session's cache (``C``) and the HTTP
version offered (palette: "HTTP/2 ...").

:class:`BrowserConnection` turns them on and off on the screen's client and says so;
what the cache did for each page is shown by the status line and the trip tab, from
the exchange's :class:`~explorer.core.http.exchange.CacheNote`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen

if TYPE_CHECKING:
    from explorer.core.http.client import Client

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


class BrowserConnection(Screen[None]):
    """Caching on and off, and the HTTP version offered, for the screen's client."""

    client: Client
    #: The most the cache keeps, from config.toml (None: the cache's own default).
    cache_max_bytes: int | None = None

    def action_toggle_cache(self) -> None:
        """``C``: turn the session's cache on or off."""
        self.set_caching(not self.client.caching)

    def set_caching(self, enabled: bool) -> None:
        """Turn the cache on or off, and say what that means."""
        self.client.set_caching(enabled, max_bytes=self.cache_max_bytes)
        if enabled:
            self.notify(
                "Responses are kept as your own (private) HTTP cache would keep them: "
                "a fresh one is reused, a stale one revalidated. The status line says "
                "'from cache'; t (trip) says why.",
                title="Caching on",
                timeout=6,
            )
        else:
            self.notify(
                "Every request goes to the server; what was stored is forgotten.",
                title="Caching off",
            )

    @property
    def protocol_name(self) -> str:
        """The name (of :data:`PROTOCOLS`) of what the client offers now."""
        for name, http2, prior, _ in PROTOCOLS:
            if (self.client.http2, self.client.http2_prior_knowledge) == (http2, prior):
                return name
        return PROTOCOLS[0][0]

    @work(exclusive=True, group="protocol")
    async def use_protocol(self, name: str) -> None:
        """Offer the protocol ``name`` (of :data:`PROTOCOLS`) from the next request on."""
        choice = next(p for p in PROTOCOLS if p[0] == name)
        _, http2, prior, meaning = choice
        if not self.client.can_change_protocol:
            self.notify(
                "This session's client talks through a transport it was given (a test, "
                "an in-process server): its protocol cannot change.",
                severity="warning",
            )
            return
        await self.client.set_protocol(http2=http2, prior_knowledge=prior)
        self.notify(f"{meaning} The status line shows each page's version.", title=name)
