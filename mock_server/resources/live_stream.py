"""An event stream's answer: sse-starlette's response, made to end with the server.

- a comment every ``ping`` seconds (``--event-heartbeat``) keeps an idle stream open;
- a client that reads nothing for :data:`STALL_SECONDS` is dropped;
- when the server stops, the hub closes and the stream ends cleanly; one stuck on a
  client that reads nothing is cut after :data:`CLOSE_GRACE` seconds.

Its own module, imported with the first stream by :mod:`mock_server.resources.events`
(which says what a stream is): sse-starlette is over a millisecond of a start that needs
no stream.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping

import anyio
from sse_starlette import EventSourceResponse, ServerSentEvent
from sse_starlette.sse import SendTimeoutError
from starlette.types import Receive, Scope, Send

from mock_server.events.hub import EventHub
from mock_server.events.wire import SEP
from mock_server.transport.connection_faults import EXTENSION

logger = logging.getLogger("mock_server.events")

#: Seconds a send may wait for a client that reads nothing before it is dropped.
STALL_SECONDS = 30.0
#: Seconds a stream has to end by itself once the server stops, before it is cut.
CLOSE_GRACE = 0.5


class LiveStream(EventSourceResponse):
    """sse-starlette's response, ended cleanly when the hub closes (the server stops)."""

    def __init__(
        self,
        hub: EventHub,
        content: AsyncIterator[ServerSentEvent],
        ping: float,
        headers: Mapping[str, str],
    ) -> None:
        super().__init__(
            content,
            headers=headers,
            ping=ping,
            sep=SEP,
            ping_message_factory=_heartbeat,
            send_timeout=STALL_SECONDS,
        )
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        hub = self.hub
        hub.streams += 1
        cut = False
        try:
            async with anyio.create_task_group() as group:

                async def cut_when_closed() -> None:
                    nonlocal cut
                    await hub.until_closed()
                    await anyio.sleep(CLOSE_GRACE)
                    cut = True
                    group.cancel_scope.cancel()

                group.start_soon(cut_when_closed)
                try:
                    await super().__call__(scope, receive, send)
                except SendTimeoutError:
                    logger.info("dropped an event stream whose client read nothing for a while")
                    cut = True
                group.cancel_scope.cancel()
            if cut:
                await _hang_up(scope, receive)
        finally:
            hub.streams -= 1


async def _hang_up(scope: Scope, receive: Receive) -> None:
    """Close the connection under a stream that cannot end cleanly, and wait until the
    server knows (so it does not report an unfinished answer as the app's fault)."""
    transport = (scope.get("extensions") or {}).get(EXTENSION)
    if transport is None:
        return
    transport.abort()
    with anyio.move_on_after(1.0):
        while (await receive())["type"] != "http.disconnect":
            pass


def _heartbeat() -> ServerSentEvent:
    return ServerSentEvent(comment="heartbeat", sep=SEP)
