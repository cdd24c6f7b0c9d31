"""Preload layer: what a response links with ``rel=preload``, hinted early and pushed.

A resource that knows what its reader will fetch next says so with
``Link: </customers/3>; rel=preload`` (an order names its customer and its
products). Where the ASGI server offers the means, this layer acts on it, for
a ``200`` to a ``GET``, before the response itself starts:

- **103 Early Hints** (RFC 8297) with those ``Link`` fields, when the scope
  offers the ``http.response.early_hint`` extension;
- **server push** (RFC 9113 §8.4): a ``PUSH_PROMISE`` for each same-origin
  target, then the pushed response, when it offers ``http.response.push``.
  A pushed request is a fresh GET through every layer, carrying the
  headers that choose a representation (``Accept``, ``Accept-Encoding``,
  ``Accept-Language``, ``User-Agent``, ``Custom-Header``), never the
  credentials: only what anyone may read gets pushed.

Which servers offer what, as of the versions tested: Hypercorn offers both
on HTTP/2 (and HTTP/3) and neither on HTTP/1.1; uvicorn offers neither. A
client that disabled push (``SETTINGS_ENABLE_PUSH=0``, as httpx does) gets
no promise: Hypercorn drops it. So on HTTP/1.1 the ``Link`` header is all
that is sent, and 103 is never sent on HTTP/1.1 by either engine.

The hint goes out when the final response is ready: a resource learns its
links by doing its work, and the mock's work takes well under a millisecond.
It shows the message, not the time it would save a real server.
"""

from __future__ import annotations

import re
from http import HTTPStatus

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.service import Service

# HTTPStatus members are read through the enum's descriptor (half a microsecond each on
# Python 3.11): aliased once, for the paths every request takes.
OK = HTTPStatus.OK
EARLY_HINT = "http.response.early_hint"
PUSH = "http.response.push"
#: The request headers a pushed request copies: those that pick a representation.
PUSHED_HEADERS = frozenset(
    {b"accept", b"accept-encoding", b"accept-language", b"user-agent", b"custom-header"}
)
_TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_QUOTED = r'"(?:[^"\\]|\\.)*"'
#: One link-value of a ``Link`` field: ``<target>`` and its parameters (RFC 8288 §3).
_LINK_VALUE = re.compile(rf"<([^>]*)>((?:\s*;\s*{_TOKEN}(?:\s*=\s*(?:{_QUOTED}|{_TOKEN}))?)*)")
_REL = re.compile(rf"(?:^|;)\s*rel\s*=\s*({_QUOTED}|{_TOKEN})", re.IGNORECASE)


def preload_links(field_values: list[bytes]) -> list[tuple[bytes, str | None]]:
    """The ``rel=preload`` link-values in ``Link`` fields, each with the path to push.

    The path is None for a target that is not an absolute path on this
    origin (``https://cdn.example/x``, ``//host/x``, ``x``): such links are
    hinted but not pushed.
    """
    found: list[tuple[bytes, str | None]] = []
    for field_value in field_values:
        for match in _LINK_VALUE.finditer(field_value.decode("latin-1")):
            target, parameters = match.groups()
            rel = _REL.search(parameters)
            relations = rel.group(1).strip('"').lower().split() if rel else []
            if "preload" in relations:
                local = target.startswith("/") and not target.startswith("//")
                found.append((match.group(0).encode("latin-1"), target if local else None))
    return found


class PreloadLayer:
    """Sends 103 Early Hints and pushes the ``rel=preload`` targets of a 200 to a GET."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        extensions = scope.get("extensions") or {}
        can_hint = EARLY_HINT in extensions
        can_push = PUSH in extensions
        if scope["type"] != "http" or scope["method"] != "GET" or not (can_hint or can_push):
            await self.app(scope, receive, send)
            return
        request_headers = [
            (name, value) for name, value in scope["headers"] if name.lower() in PUSHED_HEADERS
        ]

        async def send_preloading(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == OK:
                links = preload_links(
                    [value for name, value in message.get("headers", []) if name.lower() == b"link"]
                )
                if links and can_hint:
                    await send({"type": EARLY_HINT, "links": [value for value, _ in links]})
                if can_push:
                    for _, target in links:
                        if target is not None:
                            await send({"type": PUSH, "path": target, "headers": request_headers})
            await send(message)

        await self.app(scope, receive, send_preloading)
