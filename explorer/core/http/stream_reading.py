"""Reading a response whose body does not end: its events as they come, reconnected.

:mod:`.body_reading` reads a body whole within its bound; a stream (server-sent
events, JSON lines, a JSON text sequence, chunked text: see
:mod:`explorer.core.streams.framing`) has no end to wait for. A
:class:`StreamReader` reads one as it comes: each chunk has its Content-Encoding
undone piece by piece (:meth:`~explorer.core.http.content_coding.BodyDecoder.pieces`:
what a small chunk inflates to is never held whole), is fed to the framing's
parser, and every event it completes is yielded at once, numbered and stamped
with the time it came. What a server can make restwalk hold is bounded by
:class:`~explorer.core.streams.event.StreamLimits`, whatever it sends.

**Reconnection.** An event stream that ends, or whose connection breaks, is
reconnected as the WHATWG HTML standard says an ``EventSource`` does: after the
reconnection time (the server's last ``retry:``, else :data:`DEFAULT_RETRY_MS`;
never less than :data:`MIN_RETRY_MS`), asking again with ``Last-Event-ID`` set to
the last event id it gave, so the server can send what came meanwhile. An answer
that is not ``200`` and ``text/event-stream`` ends it (``204 No Content`` is how a
server asks a client to stop); so do :data:`MAX_RECONNECTS` tries in a row that
fail. Each step is said in a :class:`StreamNote` between the events, so a person
sees the gap and why. Other framings have no way to resume: their end is the end.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from enum import Enum
from http import HTTPStatus

import httpx

from explorer.core.http.content_coding import BodyDecoder, CodingError
from explorer.core.http.errors import DecodingError, RestwalkError
from explorer.core.http.failures import FAILURES, received_error
from explorer.core.http.trip import reason_text
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.framing import EVENT_STREAM, Framing, parser_for
from explorer.core.streams.limits import StreamLimits
from explorer.core.streams.sse import SSEParser
from explorer.core.text.plural import counted
from explorer.core.text.sizes import size_text

__all__ = [
    "DEFAULT_RETRY_MS",
    "MAX_RECONNECTS",
    "MAX_RETRY_MS",
    "MIN_RETRY_MS",
    "NoteKind",
    "Opener",
    "StreamNote",
    "StreamReader",
]

#: The reconnection time when the server gave none (browsers wait about as long).
DEFAULT_RETRY_MS = 3000
#: The shortest wait before a reconnection, whatever ``retry:`` asks: a server's
#: ``retry: 0`` on a stream it ends at once would have it asked for hundreds of times a
#: second, for as long as the page is open.
MIN_RETRY_MS = 500
#: The longest wait before a reconnection, whatever ``retry:`` asks.
MAX_RETRY_MS = 60_000
#: Reconnections that fail in a row before the reader gives up.
MAX_RECONNECTS = 5
#: Event ids remembered to tell a stream sent again from the start (the newest).
KEPT_IDS = 10_000

#: How a stream is asked for again: given the header fields to add (``Last-Event-ID``),
#: a context that opens the request and gives its response, its body not read yet.
Opener = Callable[[tuple[tuple[str, str], ...]], AbstractAsyncContextManager[httpx.Response]]


class NoteKind(Enum):
    """What happened to a stream's connection."""

    #: The body ended (the server closed it).
    ENDED = "ended"
    #: The connection broke, or the body's coding could not be undone.
    BROKEN = "broken"
    #: An event had begun when the connection ended: dropped, as the standard says.
    UNFINISHED = "unfinished"
    #: Waiting the reconnection time before asking again.
    WAITING = "waiting"
    #: Asked again, and the stream goes on.
    RESUMED = "resumed"
    #: After a reconnection, the server sent an id it had sent before: it did not go on
    #: after ``Last-Event-ID`` (events may repeat).
    REPLAYED = "replayed"
    #: A reconnection failed (no answer): another try follows, or the reader gives up.
    RETRY_FAILED = "retry-failed"
    #: The reader stops here: the answer to a reconnection was no stream, or too many
    #: failed.
    STOPPED = "stopped"


@dataclass(frozen=True)
class StreamNote:
    """Something the reader says between events: a connection ended, broke, resumed."""

    kind: NoteKind
    #: One sentence for a person (server text in it is not yet made visible).
    text: str
    #: When, in seconds since the epoch.
    at: float
    #: True when it says the stream failed: it broke, a reconnection failed, or the
    #: reader stopped on an answer that is no stream (a 204 is a server's clean stop).
    failed: bool = False


class StreamReader:
    """Reads one stream as it comes (see the module docstring).

    ``reopen`` asks for the stream again; without it nothing is reconnected.
    ``last_event_id`` is where a stream asked for with ``Last-Event-ID`` starts.
    ``clock`` and ``sleep`` are the time's, or a test's.
    """

    def __init__(
        self,
        framing: Framing,
        *,
        limits: StreamLimits | None = None,
        reopen: Opener | None = None,
        last_event_id: str = "",
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        max_reconnects: int = MAX_RECONNECTS,
    ) -> None:
        self.framing = framing
        self.limits = limits or StreamLimits()
        self._reopen = reopen
        self._clock = clock
        self._sleep = sleep
        self.max_reconnects = max_reconnects
        self._parser = parser_for(framing, self.limits, last_event_id=last_event_id)
        #: Events read so far, across connections.
        self.events = 0
        #: Bytes of body read so far (decoded), across connections.
        self.bytes_read = 0
        #: Connections the stream was read on (1 until a reconnection).
        self.connections = 0
        #: The event ids met, the newest :data:`KEPT_IDS` (to tell a stream sent again).
        self._ids: dict[str, None] = {}

    @property
    def last_event_id(self) -> str:
        """The last event id an event stream gave ("" when none, or not an event stream)."""
        return self._parser.last_event_id if isinstance(self._parser, SSEParser) else ""

    @property
    def heartbeats(self) -> int:
        """Comments an event stream sent (to keep its connection open, mostly)."""
        return self._parser.comments if isinstance(self._parser, SSEParser) else 0

    @property
    def pending(self) -> int:
        """Bytes of an event begun and not yet ended (a line that has not ended, say)."""
        return self._parser.pending

    @property
    def retry_ms(self) -> int:
        """How long a reconnection waits, in milliseconds (the server's ``retry:``, bounded)."""
        asked = self._parser.retry if isinstance(self._parser, SSEParser) else None
        return min(max(DEFAULT_RETRY_MS if asked is None else asked, MIN_RETRY_MS), MAX_RETRY_MS)

    async def read(
        self, response: httpx.Response
    ) -> AsyncGenerator[StreamEvent | StreamNote, None]:
        """The stream's events and notes, beginning with ``response`` (open, its body not
        read), until it ends for good; reconnected when it is an event stream."""
        async for item in self._connection(response):
            self._remember(item)
            yield item
        if self.framing is not Framing.SSE or self._reopen is None:
            return
        failures = 0
        while failures < self.max_reconnects:
            wait = self.retry_ms
            since = f" with Last-Event-ID {self.last_event_id}" if self.last_event_id else ""
            yield self._note(NoteKind.WAITING, f"reconnecting in {wait / 1000:g} s{since}")
            await self._sleep(wait / 1000)
            headers = (("Last-Event-ID", self.last_event_id),) if self.last_event_id else ()
            try:
                async with self._reopen(headers) as again:
                    refusal = _refusal(again)
                    if refusal is not None:
                        failed = again.status_code != HTTPStatus.NO_CONTENT
                        yield self._note(NoteKind.STOPPED, refusal, failed=failed)
                        return
                    failures = 0
                    sent = self.last_event_id
                    yield self._note(NoteKind.RESUMED, _resumed(again, sent))
                    checking = bool(sent)
                    async for item in self._connection(again):
                        if checking and isinstance(item, StreamEvent) and item.id != sent:
                            checking = False  # the first id of its own says it
                            if item.id in self._ids:
                                yield self._note(NoteKind.REPLAYED, _replayed(item.id, sent))
                        self._remember(item)
                        yield item
            except RestwalkError as error:
                failures += 1
                yield self._note(NoteKind.RETRY_FAILED, error.message, failed=True)
            except FAILURES as exc:
                failures += 1
                url = str(response.request.url)
                message = received_error(exc, url).message
                yield self._note(NoteKind.RETRY_FAILED, message, failed=True)
        yield self._note(
            NoteKind.STOPPED,
            f"gave up after {counted(self.max_reconnects, 'reconnection')} failed in a row",
            failed=True,
        )

    async def _connection(
        self, response: httpx.Response
    ) -> AsyncIterator[StreamEvent | StreamNote]:
        """The events of one connection's body, then what ended it."""
        self.connections += 1
        url = str(response.request.url)
        decoder = BodyDecoder(response.headers.get("content-encoding"), sys.maxsize)
        ending: StreamNote
        try:
            async for raw in response.aiter_raw():
                for piece in decoder.pieces(raw):
                    for event in self._fed(piece):
                        yield event
            for piece in decoder.flushed():
                for event in self._fed(piece):
                    yield event
            for event in self._parser.end():
                yield self._stamped(event)
            ending = self._note(NoteKind.ENDED, "the server ended the stream")
        except CodingError as exc:
            error = DecodingError(detail=str(exc), url=url)
            ending = self._note(NoteKind.BROKEN, error.message, failed=True)
        except FAILURES as exc:
            ending = self._note(NoteKind.BROKEN, received_error(exc, url).message, failed=True)
        unfinished = self._parser.pending
        if isinstance(self._parser, SSEParser):
            self._parser.reconnected()
        if unfinished:
            yield self._note(
                NoteKind.UNFINISHED,
                f"an event begun when it ended ({size_text(unfinished)}) was dropped",
            )
        yield ending

    def _remember(self, item: StreamEvent | StreamNote) -> None:
        """Keep an event's id among the newest :data:`KEPT_IDS` met."""
        if isinstance(item, StreamEvent) and item.id and item.id not in self._ids:
            self._ids[item.id] = None
            if len(self._ids) > KEPT_IDS:
                del self._ids[next(iter(self._ids))]

    def _fed(self, piece: bytes) -> list[StreamEvent]:
        self.bytes_read += len(piece)
        return [self._stamped(event) for event in self._parser.feed(piece)]

    def _stamped(self, event: StreamEvent) -> StreamEvent:
        self.events += 1
        return replace(event, number=self.events, arrived=self._clock())

    def _note(self, kind: NoteKind, text: str, *, failed: bool = False) -> StreamNote:
        return StreamNote(kind, text, self._clock(), failed)


def _refusal(response: httpx.Response) -> str | None:
    """Why a reconnection's answer ends the stream (None: it is the stream again)."""
    status = response.status_code
    media_type = response.headers.get("content-type", "").partition(";")[0].strip().lower()
    if status == HTTPStatus.NO_CONTENT:
        return "the reconnection was answered 204 No Content: the server asks not to reconnect"
    if status != HTTPStatus.OK or media_type != EVENT_STREAM:
        given = media_type or "no Content-Type"
        return (
            f"the reconnection was answered {status} {reason_text(response)} ({given}), "
            "not an event stream: not reconnecting"
        )
    return None


def _resumed(response: httpx.Response, last_event_id: str) -> str:
    after = f"; asked for the events after {last_event_id}" if last_event_id else ""
    return f"reconnected: {response.status_code} {reason_text(response)}{after}"


def _replayed(event_id: str, last_event_id: str) -> str:
    return (
        f"the server sent id {event_id} again: it does not go on after Last-Event-ID "
        f"{last_event_id}, so the events after it may repeat ones already shown"
    )
