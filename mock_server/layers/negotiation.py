"""Content negotiation layer: picks the representation from ``Accept`` (406 if none).

The chosen media type goes to ``scope["state"]["media_type"]``, where
:func:`mock_server.representations.respond.respond` finds it. Every response that
went through negotiation varies on ``Accept``. A browser opening a page (HTML
first, XML at q=0.9) gets the default, HAL, not XML
(:func:`mock_server.http.negotiation.select_for_reader`).

When nothing offered is acceptable the answer is 406 with a problem body
whose ``available`` member lists the media types offered, and one ``Link``
per alternative (``rel="alternate"``, with its ``type``) pointing back at
the same URL: both the person and the program learn what to ask for.

A few resources have formats of their own (the CSV report, the OpenAPI
document, the status and problem pages, the event streams, the browser's
icon): for those this
layer only records its choice (HAL when nothing offered fits) and the
resource decides. So does your API (:mod:`mock_server.guest`), among the media
types it documents.
"""

from __future__ import annotations

import re
from functools import lru_cache
from http import HTTPStatus

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.guest import guest_path
from mock_server.http import negotiation
from mock_server.http.problems import Problem
from mock_server.http.versions import requested_path
from mock_server.layers.fields import request_field, response_field, set_field
from mock_server.representations.renderers import OFFERED
from mock_server.service import Service

#: Paths whose resources negotiate their own formats (or have only one).
SELF_NEGOTIATED = re.compile(
    r"^/(?:reports/[^/]+|openapi\.json|status/.*|problems/.*|redirect/.*|echo|faults/.*"
    r"|favicon\.ico"
    # httpbin's endpoints answer JSON (or bytes) whatever Accept says, as httpbin does.
    r"|anything(?:/.*)?|headers|ip|user-agent|cookies(?:/.*)?|basic-auth/.*|bearer"
    r"|cache(?:/.*)?|etag/.*|response-headers|delay/.*|drip|bytes/.*|stream/.*"
    # The OAuth endpoints answer what their RFCs say: JSON, HTML pages, redirects.
    r"|\.well-known/oauth-[a-z-]+|oauth/.+"
    # The event streams are text/event-stream alone (/events, /customers/events...).
    r"|(?:[^/]+/)?events)$"
)
#: Methods whose answers carry no representation of the resource.
_NO_REPRESENTATION = frozenset({"OPTIONS", "TRACE", "CONNECT"})


def not_acceptable(path: str, accept: str) -> Problem:
    """The 406 problem for ``path``: what was asked, and what is offered."""
    links = ", ".join(f'<{path}>; rel="alternate"; type="{media}"' for media in OFFERED)
    return Problem(
        HTTPStatus.NOT_ACCEPTABLE,
        f"None of the media types in Accept ({accept}) is offered here; "
        f"ask for one of: {', '.join(OFFERED)}.",
        headers={"Link": links, "Vary": "Accept"},
        extra={"available": list(OFFERED)},
    )


@lru_cache(maxsize=256)
def _chosen(accept: str | None) -> str | None:
    # Clients send the same few Accept values over and over: each is parsed once.
    return negotiation.select_for_reader(accept, OFFERED)


@lru_cache(maxsize=64)
def _with_accept(vary: bytes) -> bytes | None:
    """``vary`` with ``Accept`` added, or None when it names it (or ``*``) already."""
    existing = [v.strip() for v in vary.decode("latin-1").split(",") if v.strip()]
    if any(v.lower() in ("accept", "*") for v in existing):
        return None
    return ", ".join([*existing, "Accept"]).encode("latin-1")


def _add_vary(message: Message) -> None:
    merged = _with_accept(response_field(message, b"vary") or b"")
    if merged is not None:
        set_field(message, b"vary", merged)


class NegotiationLayer:
    """Chooses the response media type among :data:`OFFERED` by the request's ``Accept``."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.guest = service.guest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in _NO_REPRESENTATION
            or guest_path(self.guest, scope["path"])
        ):
            await self.app(scope, receive, send)
            return
        raw_accept = request_field(scope, b"accept")
        accept = raw_accept.decode("latin-1") if raw_accept is not None else None
        chosen = _chosen(accept)
        if chosen is None and not SELF_NEGOTIATED.match(scope["path"]):
            problem = not_acceptable(requested_path(scope), accept or "")
            await problem.response(scope)(scope, receive, send)
            return
        scope = dict(scope)
        scope["state"] = {**scope.get("state", {}), "media_type": chosen or OFFERED[0]}

        async def send_varying(message: Message) -> None:
            if message["type"] == "http.response.start":
                _add_vary(message)
            await send(message)

        await self.app(scope, receive, send_varying)
