"""Method policy layer: which methods the server knows, and which each path allows.

- A method that is not a token (RFC 9110 §9.1): 400. On a socket h11 refuses
  these first; the check keeps the rule true in-process too.
- A token the server does not implement (``BREW``): 501.
- ``CONNECT``: 405 (this is no proxy), like a method disabled with
  ``--disable-method``: 405 on every path.
- ``OPTIONS``: 204 with ``Allow`` on any path that exists, and for ``*``;
  with ``Accept-Patch`` where PATCH is allowed (RFC 5789 §3.1).
- ``TRACE``: 200 echoing the request as ``message/http`` (request line and
  header fields; the values of ``Authorization``, ``Proxy-Authorization``,
  ``Cookie`` and other secret headers such as ``X-Api-Key`` masked, as the
  journal masks them: :mod:`mock_server.http.masking`).
- A known method the path does not accept: 405 with ``Allow``.
- ``HEAD``: passed on as ``GET`` and its body dropped here, so the headers are
  exactly those of GET (``Content-Length`` included), in-process as on a socket.
  The GET is marked as standing for a HEAD (:mod:`mock_server.http.head`), for
  a resource whose body never ends (an event stream).
  Answers of this layer and of those inside it lose their body too; the few
  layers outside (limits, rate limit, errors) rely on the server, which never
  sends a body for HEAD.

**Which methods a path allows** comes from the Starlette routes the app serves,
which the app factory gives the service (``service.routes``), asked with
``route.matches()`` (:class:`RouteMethods`). A path whose routes
match only partially (right path, other method) exists; a path no route
matches does not, and is left to the router's 404. The ``/vN`` segment is
removed by the version layer further in, so it is removed here before
matching, with the same rule (:func:`mock_server.http.versions.split_segment`).
``Allow`` lists the route's methods, plus HEAD with GET, plus OPTIONS and
TRACE, minus the disabled ones, in the order of
:data:`~mock_server.settings.STANDARD_METHODS`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from http import HTTPStatus

from starlette.datastructures import Headers
from starlette.endpoints import HTTPEndpoint
from starlette.responses import Response
from starlette.routing import BaseRoute, Match, Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.guest import GuestApi, guest_path
from mock_server.http import versions
from mock_server.http.head import as_get
from mock_server.http.masking import mask_header
from mock_server.http.problems import Problem
from mock_server.http.request_body import PATCH_TYPES
from mock_server.service import Service
from mock_server.settings import STANDARD_METHODS

TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
#: Methods every existing path answers, whatever its routes say (HEAD only where GET is).
ALWAYS_ALLOWED = frozenset({"OPTIONS", "TRACE"})
MESSAGE_HTTP = "message/http"
ASTERISK = "*"


def mask_field(name: bytes, value: bytes) -> str:
    """A header value as TRACE shows it: credentials, cookie values and secrets replaced."""
    return mask_header(name.decode("latin-1"), value.decode("latin-1"))


def trace_message(scope: Scope) -> bytes:
    """The request in ``scope`` as a ``message/http`` document, credentials masked."""
    target = scope.get("raw_path") or scope["path"].encode()
    query: bytes = scope.get("query_string", b"")
    if query:
        target += b"?" + query
    lines = [f"{scope['method']} {target.decode('latin-1')} HTTP/{scope['http_version']}"]
    for name, value in scope["headers"]:
        shown = mask_field(name, value)
        lines.append(f"{name.decode('latin-1')}: {shown}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _is_endpoint_class(endpoint: object) -> bool:
    return isinstance(endpoint, type) and issubclass(endpoint, HTTPEndpoint)


def _route_methods(routes: Iterable[BaseRoute], scope: Scope) -> set[str] | None:
    """The methods of the routes matching ``scope["path"]``; None when none matches."""
    found: set[str] | None = None
    for route in routes:
        match, child = route.matches(scope)
        if match is Match.NONE:
            continue
        if isinstance(route, Mount):
            inner = _route_methods(route.routes, {**scope, **child})
            if inner is None:
                continue
            methods = inner
        elif isinstance(route, Route) and route.methods is not None:
            methods = set(route.methods)
        elif isinstance(route, Route) and _is_endpoint_class(route.endpoint):
            methods = {m for m in STANDARD_METHODS if hasattr(route.endpoint, m.lower())}
        else:
            methods = set(STANDARD_METHODS)
        found = (found or set()) | methods
    return found


class RouteMethods:
    """Which methods each path of the service's resources accepts."""

    def __init__(
        self, routes: list[BaseRoute], disabled: frozenset[str], guest: GuestApi | None = None
    ) -> None:
        self.routes = routes
        self.disabled = disabled
        self.guest = guest
        self.allowed = lru_cache(maxsize=4096)(self._allowed)

    def server_wide(self) -> tuple[str, ...]:
        """What ``OPTIONS *`` announces: every enabled method but CONNECT."""
        return self._ordered(set(STANDARD_METHODS) - {"CONNECT"})

    def _allowed(self, path: str) -> tuple[str, ...] | None:
        """The methods ``path`` accepts (the ``Allow`` list); None if nothing is there."""
        uri_version, rest = versions.split_segment(path)
        if uri_version is not None:
            if uri_version not in versions.SUPPORTED_VERSIONS:
                return None
            if versions.is_versioned_path(rest) or rest == "/":
                path = rest
        scope: Scope = {"type": "http", "path": path, "root_path": "", "method": "GET"}
        methods = _route_methods(self.routes, scope)
        if methods is None:
            return None
        if "GET" in methods:
            methods.add("HEAD")
        if guest_path(self.guest, path):
            # Your API's paths allow what its routes say; OPTIONS is this layer's answer.
            return self._ordered(methods | {"OPTIONS"})
        return self._ordered(methods | ALWAYS_ALLOWED)

    def _ordered(self, methods: set[str]) -> tuple[str, ...]:
        return tuple(m for m in STANDARD_METHODS if m in methods and m not in self.disabled)


def _without_body(send: Send) -> Send:
    """``send`` for a HEAD request: the headers go out as they are, the body never."""

    async def send_headers_only(message: Message) -> None:
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return send_headers_only


def _allow(methods: Iterable[str]) -> dict[str, str]:
    return {"Allow": ", ".join(methods)}


class MethodPolicyLayer:
    """Answers 400/501/405, OPTIONS and TRACE; turns HEAD into GET without a body."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.methods = RouteMethods(
            service.routes, service.settings.disabled_methods, service.guest
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        if head:
            send = _without_body(send)
        response = self.answer(scope)
        if response is not None:
            await response(scope, receive, send)
        elif head:
            await self.app(as_get(scope), receive, send)
        else:
            await self.app(scope, receive, send)

    def answer(self, scope: Scope) -> Response | None:
        """The response this layer gives itself, or None to pass the request on."""
        method: str = scope["method"]
        path: str = scope["path"]
        if not TOKEN.match(method):
            return Problem(HTTPStatus.BAD_REQUEST, "The method is not a valid token.").response(
                scope
            )
        if method not in STANDARD_METHODS:
            return Problem(
                HTTPStatus.NOT_IMPLEMENTED,
                f"This server does not implement the method {method}; "
                f"it knows {', '.join(STANDARD_METHODS)}.",
            ).response(scope)
        allowed = self.methods.server_wide() if path == ASTERISK else self.methods.allowed(path)
        shown = allowed if allowed is not None else self.methods.server_wide()
        if method == "CONNECT":
            return Problem(
                HTTPStatus.METHOD_NOT_ALLOWED,
                "CONNECT is not allowed: this server is not a proxy.",
                headers=_allow(shown),
            ).response(scope)
        if method in self.methods.disabled:
            return Problem(
                HTTPStatus.METHOD_NOT_ALLOWED,
                f"{method} is disabled on this server.",
                headers=_allow(shown),
            ).response(scope)
        if path == ASTERISK and method != "OPTIONS":
            return Problem(
                HTTPStatus.BAD_REQUEST, "The request target * is only for OPTIONS."
            ).response(scope)
        if method == "TRACE" and (allowed is None or "TRACE" in allowed):
            return self._trace(scope)
        if allowed is None:
            return None
        if method == "OPTIONS":
            headers = _allow(allowed)
            if "PATCH" in allowed:
                headers["Accept-Patch"] = ", ".join(PATCH_TYPES)  # RFC 5789 §3.1
            return Response(status_code=HTTPStatus.NO_CONTENT, headers=headers)
        if method not in allowed:
            return Problem(
                HTTPStatus.METHOD_NOT_ALLOWED,
                f"{method} is not allowed on {path}; allowed: {', '.join(allowed)}.",
                headers=_allow(allowed),
            ).response(scope)
        return None

    def _trace(self, scope: Scope) -> Response:
        headers = Headers(scope=scope)
        if headers.get("transfer-encoding") or headers.get("content-length", "0") != "0":
            return Problem(
                HTTPStatus.BAD_REQUEST, "A TRACE request must not carry content."
            ).response(scope)
        return Response(
            trace_message(scope),
            media_type=MESSAGE_HTTP,
            headers={"Cache-Control": "no-store"},
        )
