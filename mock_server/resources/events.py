"""``GET /events`` and ``GET /{collection}/events``: every change, as server-sent events.

``/events`` carries every event the client may read (order and job events
only with a credential that may read orders; see
:mod:`mock_server.auth.policy`); ``/customers/events``, ``/products/events``,
``/orders/events`` (and those of ``--data`` collections) carry their
collection's events and resets. Each is ``text/event-stream``
(:mod:`mock_server.events.wire` says what is sent); the data are
representations in the version asked for (``/v2/customers/events``), and each
event's URL keeps it.

The response is sse-starlette's, wrapped so that the mock's layers and
server treat it as the endless thing it is:

- ``Cache-Control: no-store, no-transform`` and no ETag: the conditional layer
  neither hashes nor holds it, and the compression layer passes it as it is
  (each event leaves the moment it is made; proxies are told the same with
  ``X-Accel-Buffering: no``);
- a comment every ``--event-heartbeat`` seconds keeps an idle stream open;
- a client that reads nothing for :data:`STALL_SECONDS` is dropped, and one
  that reads slowly is told what it missed (the hub keeps no queue for it);
- at most :data:`MAX_STREAMS` at once per process (more: 503 with Retry-After);
  ``Restwalk-Mock-Process`` names the process serving it (with ``--workers``,
  the events of every process reach every stream);
- when the server stops, the hub closes and every stream ends cleanly;
  one stuck on a client that reads nothing is cut after :data:`CLOSE_GRACE`
  seconds (sse-starlette also ends them on uvicorn's SIGTERM by itself);
- HEAD gets the headers alone.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from http import HTTPStatus

import anyio
from sse_starlette import EventSourceResponse, ServerSentEvent
from sse_starlette.sse import SendTimeoutError
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from mock_server.auth import Principal
from mock_server.auth.policy import required_role
from mock_server.auth.users import role_allows
from mock_server.events.hub import EventHub
from mock_server.events.wire import EVENT_STREAM, SEP, View, document, messages
from mock_server.http import negotiation
from mock_server.http.head import asked_head
from mock_server.http.problems import Problem
from mock_server.http.versions import is_versioned_path
from mock_server.representations.urls import href, version_of
from mock_server.service import Service
from mock_server.store.event_log import Event
from mock_server.transport.connection_faults import EXTENSION
from mock_server.userdata import data_names

logger = logging.getLogger("mock_server.events")

#: Open streams one process serves at most.
MAX_STREAMS = 256
#: Seconds a send may wait for a client that reads nothing before it is dropped.
STALL_SECONDS = 30.0
#: Seconds a stream has to end by itself once the server stops, before it is cut.
CLOSE_GRACE = 0.5
HEADERS = {"Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no"}
#: Which process serves a stream (with --workers, every process's events reach it).
PROCESS_HEADER = "Restwalk-Mock-Process"


def stream_headers() -> dict[str, str]:
    """The header fields of every stream's answer."""
    return {**HEADERS, PROCESS_HEADER: str(os.getpid())}


#: Query parameters a stream takes (the version layer reads ``version``).
PARAMETERS = ("version",)
BUILT_IN = ("customers", "products", "orders")


def readable(topic: str | None, principal: Principal | None) -> bool:
    """True when the client may read the resources of ``topic`` (None: every stream's)."""
    if topic is None:
        return True
    needed = required_role("GET", f"/{topic}")
    return needed is None or (principal is not None and role_allows(principal.role, needed))


def stream_view(request: Request, hub: EventHub, topic: str | None) -> View:
    """What the stream of ``request`` shows of each event (``topic``: one collection's)."""
    principal = request.scope.get("state", {}).get("principal")
    version = version_of(request)
    allowed: dict[str | None, bool] = {}

    def view(event: Event) -> dict[str, object] | None:
        if topic is not None and event.topic not in (topic, None):
            return None
        shown = allowed.get(event.topic)
        if shown is None:
            shown = allowed[event.topic] = readable(event.topic, principal)
        if not shown:
            return None
        url = href(request, event.path) if is_versioned_path(event.path) else event.path
        return document(event, hub.origin, url, hub.describer.render(event, version))

    return view


class LiveStream(EventSourceResponse):
    """sse-starlette's response, ended cleanly when the hub closes (the server stops)."""

    def __init__(self, hub: EventHub, content: AsyncIterator[ServerSentEvent], ping: float) -> None:
        super().__init__(
            content,
            headers=stream_headers(),
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


def routes(service: Service) -> list[BaseRoute]:
    """``/events`` and each collection's ``/{name}/events``."""
    hub = service.events
    heartbeat = service.settings.event_heartbeat_seconds

    def endpoint(topic: str | None) -> Route:
        path = "/events" if topic is None else f"/{topic}/events"
        what = "every change" if topic is None else f"every change to /{topic}"

        async def stream(request: Request) -> Response:
            for name in request.query_params:
                if name not in PARAMETERS:
                    raise Problem(
                        HTTPStatus.BAD_REQUEST,
                        f"Unknown query parameter {name!r}: an event stream takes none "
                        "but version.",
                        extra={"parameter": name},
                    )
            if negotiation.select(request.headers.get("accept"), (EVENT_STREAM,)) is None:
                raise Problem(
                    HTTPStatus.NOT_ACCEPTABLE,
                    f"{request.url.path} is only available as {EVENT_STREAM}.",
                    extra={"available": [EVENT_STREAM]},
                )
            if hub.closed:
                raise Problem(HTTPStatus.SERVICE_UNAVAILABLE, "The server is stopping.")
            if hub.streams >= MAX_STREAMS:
                raise Problem(
                    HTTPStatus.SERVICE_UNAVAILABLE,
                    f"{MAX_STREAMS} event streams are open already; try again later.",
                    headers={"Retry-After": "5"},
                )
            if asked_head(request.scope):
                # GET's header fields, chunked as GET's (no Content-Length: 0), no body.
                return StreamingResponse(
                    iter(()), headers=stream_headers(), media_type=EVENT_STREAM
                )
            comment = f"restwalk-mock: {what}; a heartbeat every {heartbeat:g} s"
            events = messages(
                hub,
                stream_view(request, hub, topic),
                request.headers.get("last-event-id"),
                comment,
            )
            return LiveStream(hub, events, heartbeat)

        return Route(path, stream, methods=["GET"])

    topics: list[str | None] = [None, *BUILT_IN, *sorted(data_names(service.store))]
    return [endpoint(topic) for topic in topics]
