"""``GET /events`` and ``GET /{collection}/events``: every change, as server-sent events.

``/events`` carries every event the client may read (order and job events
only with a credential that may read orders; see
:mod:`mock_server.auth.policy`); ``/customers/events``, ``/products/events``,
``/orders/events`` (and those of ``--data`` collections) carry their
collection's events and resets. Each is ``text/event-stream``
(:mod:`mock_server.events.wire` says what is sent); the data are
representations in the version asked for (``/v2/customers/events``), and each
event's URL keeps it.

The response is sse-starlette's (:mod:`~mock_server.resources.live_stream`), wrapped so
that the mock's layers and
server treat it as the endless thing it is:

- ``Cache-Control: no-store, no-transform`` and no ETag: the conditional layer
  neither hashes nor holds it, and the compression layer passes it as it is
  (each event leaves the moment it is made; proxies are told the same with
  ``X-Accel-Buffering: no``);
- a comment every ``--event-heartbeat`` seconds keeps an idle stream open;
- a client that reads nothing for
  :data:`~mock_server.resources.live_stream.STALL_SECONDS` is dropped, and one that
  reads slowly is told what it missed (the hub keeps no queue for it);
- at most :data:`MAX_STREAMS` at once per process (more: 503 with Retry-After);
  ``Restwalk-Mock-Process`` names the process serving it (with ``--workers``,
  the events of every process reach every stream);
- when the server stops, the hub closes and every stream ends cleanly;
  one stuck on a client that reads nothing is cut after
  :data:`~mock_server.resources.live_stream.CLOSE_GRACE` seconds (sse-starlette also
  ends them on uvicorn's SIGTERM by itself);
- HEAD gets the headers alone.
"""

from __future__ import annotations

import os
from http import HTTPStatus

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from mock_server.auth import Principal
from mock_server.auth.policy import required_role
from mock_server.auth.users import role_allows
from mock_server.events.hub import EventHub
from mock_server.events.wire import EVENT_STREAM, View, document
from mock_server.http import negotiation
from mock_server.http.head import asked_head
from mock_server.http.problems import Problem
from mock_server.http.versions import is_versioned_path
from mock_server.representations.urls import href, version_of
from mock_server.service import Service
from mock_server.store.event_log import Event
from mock_server.userdata import data_names

#: Open streams one process serves at most.
MAX_STREAMS = 256
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
            # Imported with the first stream: sse-starlette is over 1 ms of every start.
            from mock_server.events.stream import messages
            from mock_server.resources.live_stream import LiveStream

            comment = f"restwalk-mock: {what}; a heartbeat every {heartbeat:g} s"
            events = messages(
                hub,
                stream_view(request, hub, topic),
                request.headers.get("last-event-id"),
                comment,
            )
            return LiveStream(hub, events, heartbeat, stream_headers())

        return Route(path, stream, methods=["GET"])

    topics: list[str | None] = [None, *BUILT_IN, *sorted(data_names(service.store))]
    return [endpoint(topic) for topic in topics]
