"""What one request/response round trip was, as plain data for every view.

The wire text of a message is :mod:`explorer.core.http.wire`'s business: this module
imports nothing of the explorer, so every other module can import it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


@dataclass(frozen=True)
class SentRequest:
    """A request exactly as it went on the wire."""

    method: str
    url: str
    headers: tuple[tuple[str, str], ...]
    body: bytes = b""
    http_version: str = "HTTP/1.1"


@dataclass(frozen=True)
class ReceivedResponse:
    """A response as received: status, headers in order, the whole body."""

    status: int
    reason: str
    http_version: str
    headers: tuple[tuple[str, str], ...]
    body: bytes
    url: str
    wire_size: int | None = None  # bytes as transferred, before Content-Encoding is undone
    #: The body as it came, before its Content-Encoding was undone (None when the client
    #: did not undo one itself): what a linter checks against Content-Length.
    wire_body: bytes | None = None
    #: How many content codings the server applied when there were more than restwalk
    #: undoes (:data:`explorer.core.http.content_coding.MAX_CODINGS`): none was undone, the
    #: body is as received. 0 otherwise.
    undecoded_codings: int = 0
    #: A body that does not end (server-sent events, JSON lines...): the name of its
    #: framing (:class:`explorer.core.streams.framing.Framing`'s value), and ``body`` is
    #: empty: its events were read as they came, not kept here. "" for a body read whole.
    stream: str = ""

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (case-insensitive), if present."""
        lname = name.lower()
        return next((v for k, v in self.headers if k.lower() == lname), None)

    def header_values(self, name: str) -> list[str]:
        """Every value of header ``name`` in order (case-insensitive)."""
        lname = name.lower()
        return [v for k, v in self.headers if k.lower() == lname]

    @property
    def media_type(self) -> str | None:
        """The media type of the body, without parameters, lower-case."""
        value = self.header("content-type")
        return value.split(";", 1)[0].strip().lower() if value else None


class Hop(NamedTuple):
    """One redirect on the way: the request sent and the 3xx that answered it."""

    request: SentRequest
    response: ReceivedResponse


@dataclass(frozen=True)
class Timings:
    """Seconds spent: until the response headers, and in total; and, on the client's clock,
    when the exchange ended and when each phase of it began (``("connect", t)``...: see
    :mod:`explorer.core.http.phases`), for the Trip tab to add the person's wait up."""

    headers: float
    total: float
    #: The client's clock when the exchange ended (None: not timed on it, a kept copy).
    ended: float | None = field(default=None, compare=False)
    #: Each phase's beginning, on the same clock.
    marks: tuple[tuple[str, float], ...] = field(default=(), compare=False)


class CacheNote(NamedTuple):
    """What the session's cache did for a response, and why, in words a learner reads."""

    #: "fresh" (reused, nothing sent), "revalidated" (a 304: body from the cache),
    #: "replaced" (revalidated, and a new version came), "stored", "not-stored".
    outcome: str
    #: One line: "from the cache: fresh for another 42 s (max-age=60)".
    summary: str
    #: The reasons, one sentence each.
    details: tuple[str, ...] = ()

    @property
    def from_cache(self) -> bool:
        """True when the body shown is the cache's, not one the server just sent."""
        return self.outcome in ("fresh", "revalidated")


@dataclass(frozen=True)
class Exchange:
    """One request as the user made it, each redirect hop, and the final response.

    ``hops`` holds every 3xx answer followed on the way, in order; ``final``
    is the request that got ``response`` (``request`` itself without redirects).
    """

    request: SentRequest
    final: SentRequest
    response: ReceivedResponse
    hops: tuple[Hop, ...] = ()
    timings: Timings = field(default_factory=lambda: Timings(0.0, 0.0))
    #: What the cache did, when caching is on.
    cache: CacheNote | None = None
    #: Each request sent a second time, and why: "GET http://…: the server closed the
    #: kept-alive connection as the request went out, …" (see explorer.core.http.retry).
    retries: tuple[str, ...] = ()
    #: True for a copy whose secrets were masked (a history entry): its credentials and
    #: secret fields read ``****``, so its bodies are not the bytes that went or came.
    masked: bool = False
    #: What a redirect to another origin went without, in one line ("Authorization not
    #: sent to http://b.test: given for http://a.test only"); empty when nothing.
    withheld: str = ""
    #: True when it went over TLS without the server's certificate being checked (``-k``,
    #: ``verify = false``): anyone on the way could have read or changed it.
    tls_unchecked: bool = False
    #: When its first request went (seconds since the epoch; 0: not known): the one time
    #: the history and a page of the walk both give it, so a HAR of either matches.
    sent_at: float = 0.0
