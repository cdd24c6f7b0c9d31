"""A stream a tab reads: its head shown as a page, its events kept as they come.

When a tab's answer is a body that does not end (server-sent events, JSON lines,
a JSON text sequence: :mod:`explorer.core.http.opened`), the page shows its head
and the tab holds a :class:`LiveStream`: the response left open, read by a
:class:`~explorer.core.http.stream_reading.StreamReader`, each event kept
(:class:`~explorer.core.streams.kept.KeptEvents`, bounded) and handed on as it
comes. An event stream that breaks is asked for again the way it was first, with
``Last-Event-ID``, through the tab's client (its credential, cookies and
deadline for the head); what the server answers then is said in a note. The
front end decides when to stop (Escape, ``--max-events``): :meth:`LiveStream.aclose`.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace

import httpx

from explorer.core.http.client import Client
from explorer.core.http.exchange import Exchange
from explorer.core.http.opened import Opened
from explorer.core.http.request import RequestSpec
from explorer.core.http.stream_reading import StreamNote, StreamReader
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.framing import Framing
from explorer.core.streams.kept import KeptEvents
from explorer.core.streams.limits import StreamLimits
from explorer.core.text.plural import counted
from explorer.core.text.sizes import size_text

__all__ = ["MAX_NOTES", "LiveStream", "StreamItem"]

#: Notes kept (reconnections, ends): the newest.
MAX_NOTES = 100
#: What a stream gives, in the order it came.
StreamItem = StreamEvent | StreamNote
LAST_EVENT_ID = "Last-Event-ID"


class LiveStream:
    """A stream a tab reads (see the module docstring)."""

    def __init__(
        self,
        client: Client,
        spec: RequestSpec,
        opened: Opened,
        *,
        limits: StreamLimits | None = None,
        text: bool = False,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if opened.response is None or opened.framing is None:
            raise ValueError("not a stream: its body was read whole")
        self.client = client
        self.spec = spec
        self.exchange: Exchange = opened.exchange
        self.framing: Framing = opened.framing
        self.limits = limits or StreamLimits()
        self.text = text
        self._opened = opened
        self._clock = clock
        #: The events kept, newest last.
        self.kept = KeptEvents(self.limits)
        #: What befell the connection, newest last.
        self.notes: deque[StreamNote] = deque(maxlen=MAX_NOTES)
        #: When reading began.
        self.started = clock()
        #: True once the stream ended for good (not when it was stopped).
        self.ended = False
        given = next((v for k, v in spec.headers if k.lower() == LAST_EVENT_ID.lower()), "")
        self.reader = StreamReader(
            self.framing,
            limits=self.limits,
            reopen=self._reopen if self.framing is Framing.SSE else None,
            last_event_id=given,
            clock=clock,
            sleep=sleep,
        )

    async def items(self) -> AsyncGenerator[StreamItem, None]:
        """The events and notes as they come, each kept; the response closed at the end."""
        response = self._opened.response
        assert response is not None  # checked when made
        try:
            async for item in self.reader.read(response):
                if isinstance(item, StreamEvent):
                    self.kept.add(item)
                else:
                    self.notes.append(item)
                yield item
            self.ended = True
        finally:
            await self._opened.aclose()

    async def aclose(self) -> None:
        """Stop reading: the response is closed."""
        await self._opened.aclose()

    def summary(self, now: float | None = None) -> str:
        """``12 events (3.4 KB) in 42 s; 3 heartbeats; reconnected once; 1,204 older dropped``."""
        seconds = (self._clock() if now is None else now) - self.started
        parts = [
            f"{counted(self.kept.received, 'event')} ({size_text(self.reader.bytes_read)}) "
            f"in {seconds:.0f} s"
        ]
        if self.reader.heartbeats:
            parts.append(counted(self.reader.heartbeats, "heartbeat"))
        if self.reader.connections > 1:
            parts.append(f"{counted(self.reader.connections - 1, 'reconnection')}")
        if self.kept.dropped:
            parts.append(f"{counted(self.kept.dropped, 'older event')} dropped")
        return "; ".join(parts)

    def _reopen(
        self, headers: tuple[tuple[str, str], ...]
    ) -> AbstractAsyncContextManager[httpx.Response]:
        """The stream asked for again as it was first, ``headers`` (``Last-Event-ID``)
        in place of any of the same name."""
        names = {name.lower() for name, _ in headers}
        kept = tuple((k, v) for k, v in self.spec.headers if k.lower() not in names)
        spec = replace(self.spec, headers=(*kept, *headers))
        return _reopened(self.client, spec, self.text)


@asynccontextmanager
async def _reopened(client: Client, spec: RequestSpec, text: bool) -> AsyncIterator[httpx.Response]:
    """The response to ``spec``: the stream, open; or, when the answer is no stream (its
    body read whole), its head, for the reader to say why it stops."""
    async with await client.open(spec, text=text) as opened:
        if opened.response is not None:
            yield opened.response
            return
        answer = opened.exchange.response
        request = httpx.Request(opened.exchange.final.method, answer.url)
        yield httpx.Response(answer.status, headers=list(answer.headers), request=request)
