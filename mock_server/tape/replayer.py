"""``--replay F.har``: the recorded answers, served offline.

A request is answered by the recorded exchange with the same method, path,
query (the same pairs, in any order) and body (JSON and forms compared as
values, other bodies byte for byte); a value the tape masked (``****``)
matches any value. The same request made again gets the next recording of it
(a GET before and after a POST may differ), then the last one again. The
recorded paths are served below the upstream's base path, as the client saw
them through ``--record``; a HAR from elsewhere (restwalk's history, a
browser) is served by its URLs' paths.

A request with no recording is, with ``--openapi``, answered by the document;
without one, a 404 problem naming the nearest recorded requests.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route, Router
from starlette.types import Receive, Scope, Send

from mock_server.http.masking import MASK
from mock_server.http.problems import Problem
from mock_server.tape.har import Exchange

#: How many recorded requests a 404 names.
NEAREST = 5
#: Recorded response fields the mock sets itself.
_DROPS = frozenset(
    {
        "content-length",
        "content-encoding",
        "transfer-encoding",
        "connection",
        "keep-alive",
        "date",
        "server",
    }
)


def _same(recorded: Any, sent: Any) -> bool:
    """Values equal, where the tape's mask stands for any value."""
    if recorded == MASK:
        return True
    if isinstance(recorded, dict) and isinstance(sent, dict):
        return recorded.keys() == sent.keys() and all(_same(recorded[k], sent[k]) for k in recorded)
    if isinstance(recorded, list) and isinstance(sent, list):
        return len(recorded) == len(sent) and all(map(_same, recorded, sent))
    return bool(recorded == sent)


def _same_pairs(recorded: list[tuple[str, str]], sent: list[tuple[str, str]]) -> bool:
    if len(recorded) != len(sent):
        return False
    left = sorted(recorded)
    right = sorted(sent)
    return all(a == c and (b in (MASK, d)) for (a, b), (c, d) in zip(left, right, strict=True))


def _same_body(recorded: bytes, sent: bytes, media_type: str) -> bool:
    if recorded == sent:
        return True
    essence = media_type.partition(";")[0].strip().lower()
    if essence == "application/x-www-form-urlencoded":
        return _same_pairs(
            parse_qsl(recorded.decode("utf-8", "replace"), keep_blank_values=True),
            parse_qsl(sent.decode("utf-8", "replace"), keep_blank_values=True),
        )
    try:
        return _same(orjson.loads(recorded), orjson.loads(sent))
    except orjson.JSONDecodeError:
        return False


class _Endpoint:
    """An ASGI app calling ``handler`` (Starlette wraps a plain method as request-response)."""

    def __init__(self, handler: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.handler = handler

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.handler(scope, receive, send)


def _exact_route(path: str, endpoint: _Endpoint, methods: list[str]) -> Route:
    """A route for exactly ``path`` (braces and all: a recorded path is no template)."""
    route = Route("/", endpoint, methods=methods)
    route.path = path
    route.path_regex = re.compile("^" + re.escape(path) + "$")
    route.path_format = path
    route.param_convertors = {}
    return route


class Replayer:
    """Answers from recorded exchanges; ``fallback`` (a document) for the rest."""

    def __init__(
        self, exchanges: list[Exchange], upstream: str | None, fallback: Any = None
    ) -> None:
        base = urlsplit(upstream).path.rstrip("/") if upstream else ""
        self.exchanges = exchanges
        self.fallback = fallback
        self._fallback_app = Router(routes=fallback.routes()) if fallback is not None else None
        self.by_request: dict[tuple[str, str], list[Exchange]] = {}
        for exchange in exchanges:
            path = unquote(exchange.path)
            if base and (path == base or path.startswith(base + "/")):
                path = path[len(base) :] or "/"
            self.by_request.setdefault((exchange.method, path), []).append(exchange)
        self._cursor: dict[tuple[Any, ...], int] = {}

    def routes(self) -> list[BaseRoute]:
        """A route per recorded path, with the methods recorded on it."""
        methods: dict[str, list[str]] = {}
        for method, path in self.by_request:
            methods.setdefault(path, []).append(method)
        endpoint = _Endpoint(self.replay)
        return [_exact_route(path, endpoint, found) for path, found in methods.items()]

    def write_target(self, method: str, path: str) -> str | None:
        return None

    def needs_credentials(self, path: str) -> bool:
        return False

    def reset(self) -> None:
        """Each request's recordings play from the first again."""
        self._cursor.clear()

    async def replay(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI endpoint of the recorded paths."""
        request = Request(scope, receive)
        body = await request.body()
        found = self._recorded(request, body)
        if found is not None:
            await found(scope, receive, send)
            return
        if self._fallback_app is not None and self.fallback.serves(request.url.path):
            consumed = False

            async def again() -> Any:
                nonlocal consumed
                if consumed:
                    return {"type": "http.disconnect"}
                consumed = True
                return {"type": "http.request", "body": body, "more_body": False}

            await self._fallback_app(scope, again, send)
            return
        raise self.nearest(request)

    def _recorded(self, request: Request, body: bytes) -> Response | None:
        candidates = self.by_request.get((request.method, request.url.path), [])
        query = parse_qsl(request.url.query, keep_blank_values=True)
        media_type = request.headers.get("content-type", "")
        matching = [
            exchange
            for exchange in candidates
            if _same_pairs(exchange.query, query)
            and _same_body(exchange.request_body, body, media_type)
        ]
        if not matching:
            return None
        key = (request.method, request.url.path, tuple(sorted(query)), body)
        index = self._cursor.get(key, 0)
        self._cursor[key] = min(index + 1, len(matching) - 1)
        exchange = matching[min(index, len(matching) - 1)]
        # 204 and 304 never have a body (RFC 9110 sections 15.3.5, 15.4.5), whatever a HAR says.
        bodiless = exchange.status in (HTTPStatus.NO_CONTENT, HTTPStatus.NOT_MODIFIED)
        body = b"" if bodiless else exchange.response_body
        response = Response(body, status_code=exchange.status)
        response.raw_headers = [
            *(h for h in response.raw_headers if h[0] == b"content-length"),
            *(
                (k.lower().encode("latin-1"), v.encode("latin-1", "replace"))
                for k, v in exchange.response_headers
                if k.lower() not in _DROPS
            ),
        ]
        return response

    def not_found(self, request: Request) -> Problem | None:
        """The 404 of a request the tape has no recording of."""
        return self.nearest(request)

    def nearest(self, request: Request) -> Problem:
        """A 404 naming the recorded requests most like ``request``."""
        wanted = f"{request.method} {request.url.path}" + (
            f"?{request.url.query}" if request.url.query else ""
        )
        recorded = []
        for (method, path), exchanges in self.by_request.items():
            for exchange in exchanges:
                query = urlencode(exchange.query, safe=MASK)
                recorded.append(f"{method} {path}" + (f"?{query}" if query else ""))
        unique = list(dict.fromkeys(recorded))
        ranked = sorted(
            unique,
            key=lambda shown: difflib.SequenceMatcher(None, wanted, shown).ratio(),
            reverse=True,
        )[:NEAREST]
        listed = "; ".join(ranked) if ranked else "the tape is empty"
        return Problem(
            HTTPStatus.NOT_FOUND,
            f"The tape has no recording of {wanted}. Nearest recorded: {listed}.",
            extra={"nearest": ranked},
        )
