"""A response whose body does not end, as the client hands it on: its head, its body open.

:meth:`~explorer.core.http.client.Client.send` reads an ordinary body whole,
within its bound and the exchange's deadline. A stream's body has no end to
wait for (:func:`stream_framing` tells one by its header fields), so the client
never reads it: :meth:`~explorer.core.http.client.Client.send` closes it and
says what it was (:attr:`~explorer.core.http.exchange.ReceivedResponse.stream`),
and :meth:`~explorer.core.http.client.Client.open` hands it on open, as
:class:`Opened`, for a :class:`~explorer.core.http.stream_reading.StreamReader`
to read as it comes. The exchange's deadline covers the way to the head, not
the body.
"""

from __future__ import annotations

from types import TracebackType

import httpx

from explorer.core.http.exchange import Exchange
from explorer.core.streams.framing import Framing, framing_of

__all__ = ["Opened", "stream_framing"]


def stream_framing(response: httpx.Response, *, text: bool = False) -> Framing | None:
    """The framing of ``response``'s body when it does not end (None: it is read whole).

    Its media type tells (server-sent events, JSON lines, JSON text sequences); with
    ``text``, so does text sent in chunks with no length (HTTP/1.1's chunked coding,
    or an HTTP/2 body without Content-Length), read line by line.
    """
    length = response.headers.get("content-length")
    chunked = "chunked" in response.headers.get("transfer-encoding", "").lower() or (
        response.http_version == "HTTP/2" and length is None
    )
    return framing_of(
        response.headers.get("content-type"), content_length=length, chunked=chunked and text
    )


class Opened:
    """An exchange from :meth:`~explorer.core.http.client.Client.open`: a stream's with its
    response still open (close it: ``async with``, or :meth:`aclose`), any other whole.
    (A plain class: an open response is no other's equal, and the TUI's start need not
    compile a dataclass's methods for it.)"""

    __slots__ = ("exchange", "response")

    def __init__(self, exchange: Exchange, response: httpx.Response | None = None) -> None:
        self.exchange = exchange
        #: The stream's response, its body not read yet (None: not a stream, read whole).
        self.response = response

    @property
    def framing(self) -> Framing | None:
        """How the stream's body is cut into events (None: not a stream)."""
        return Framing(self.exchange.response.stream) if self.response is not None else None

    async def aclose(self) -> None:
        """Close the stream's response (nothing when there is none)."""
        if self.response is not None:
            await self.response.aclose()

    async def __aenter__(self) -> Opened:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
