"""The bundled mock server, as ``restwalk`` with no URL starts it: what was kept against
it in an earlier run, followed to where it answers now.

``restwalk`` serves the mock on 127.0.0.1 at 8642, or at the port
``$RESTWALK_MOCK_PORT`` names (``0``: any free one; :mod:`explorer.core.bundled.port`).
When that port is taken (a second restwalk, another server), it falls back to a
free port and says so. A history entry or a bookmark made on the bundled mock is
marked as such, so that one made on port 8642 and opened in a run on port 41789
goes to 41789: :func:`rebase_url` and :func:`rebase_exchange` put the origin of
this run in place of the one it was made on. Only the origin changes: the path,
query and fragment stay, and so do the links of a kept body, which the mock
writes as paths.

Starting the server is the command line's (it opens a socket); this module only
knows URLs.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple
from urllib.parse import urlsplit, urlunsplit

from explorer.core.http.exchange import Exchange, Hop, ReceivedResponse, SentRequest
from explorer.core.http.secret_rules import origin_of

__all__ = [
    "BundledMock",
    "on_this_mock",
    "rebase_exchange",
    "rebase_url",
]


class BundledMock(NamedTuple):
    """The bundled mock server of this run: its origin, and what to tell the person about
    its port (empty when it got the one it prefers)."""

    origin: str
    note: str = ""

    def made_on(self, url: str) -> bool:
        """True when ``url`` is this run's bundled mock server's."""
        return bool(self.origin) and origin_of(url) == self.origin


def rebase_url(url: str, origin: str) -> str:
    """``url`` at ``origin`` (``scheme://host:port``): its path, query and fragment kept."""
    try:
        parts = urlsplit(url)
        target = urlsplit(origin)
    except ValueError:
        return url
    if not parts.scheme or not parts.netloc:
        return url
    return urlunsplit(parts._replace(scheme=target.scheme, netloc=target.netloc))


def _moved(url: str, old: str, new: str) -> str:
    return rebase_url(url, new) if origin_of(url) == old else url


def _location(
    headers: tuple[tuple[str, str], ...], old: str, new: str
) -> tuple[tuple[str, str], ...]:
    """``headers`` with an absolute ``Location`` at ``old`` moved to ``new``."""
    return tuple(
        (name, _moved(value, old, new) if name.lower() == "location" else value)
        for name, value in headers
    )


def _request(request: SentRequest, old: str, new: str) -> SentRequest:
    return replace(request, url=_moved(request.url, old, new))


def _response(response: ReceivedResponse, old: str, new: str) -> ReceivedResponse:
    return replace(
        response,
        url=_moved(response.url, old, new),
        headers=_location(response.headers, old, new),
    )


def rebase_exchange(exchange: Exchange, origin: str) -> Exchange:
    """``exchange``, made on a bundled mock server at another origin, as if made at
    ``origin``: every URL of that origin (requests, responses, redirects) moved."""
    old = origin_of(exchange.request.url)
    if not old or old == origin:
        return exchange
    return replace(
        exchange,
        request=_request(exchange.request, old, origin),
        final=_request(exchange.final, old, origin),
        response=_response(exchange.response, old, origin),
        hops=tuple(
            Hop(_request(h.request, old, origin), _response(h.response, old, origin))
            for h in exchange.hops
        ),
    )


def on_this_mock(exchange: Exchange, bundled: BundledMock | None) -> tuple[Exchange, str]:
    """``exchange``, kept from the bundled mock server of some run, as made on this run's
    (``bundled``, None when this run started none); and what to say of it (empty when
    nothing moved)."""
    if bundled is None:
        return exchange, (
            "It was made on the bundled mock server, which this restwalk did not start "
            "(restwalk with no URL does)."
        )
    if bundled.made_on(exchange.request.url):
        return exchange, ""
    moved = rebase_exchange(exchange, bundled.origin)
    return moved, f"Made on the bundled mock server: r sends it to {bundled.origin}."
