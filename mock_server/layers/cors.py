"""CORS layer (``--cors``): lets a browser front-end on another origin use the mock.

Off unless ``settings.cors_origins`` names origins (``*`` for any). Then:

- a **preflight** (``OPTIONS`` with ``Origin`` and
  ``Access-Control-Request-Method``) from an allowed origin answers 204 with
  the methods the server allows, the headers asked for, and a max age; from
  any other origin it answers 403 with a problem body naming the allowed ones;
- every other answer to an allowed origin says ``Access-Control-Allow-Origin``
  and exposes the headers a client reads (ETag, Location, Link...).

**Credentials only for an origin listed exactly.** An origin named in the list
gets itself back with ``Access-Control-Allow-Credentials: true``: its pages may
send the browser's cookies and Basic credentials and read the answers. ``*``
(``--cors`` with no origin) gets ``Access-Control-Allow-Origin: *`` and no
credentials: any page may read what anyone may read, but a browser then sends
no cookie and shows no answer to a credentialed request, so no site can act as
the person at the browser (reflecting every ``Origin`` with credentials, as
this layer once did, let any site, and any sandboxed page as ``null``, read
``/_journal`` through a logged-in browser). A script that sets its own
``Authorization`` header still works with ``*``: it knows the credential it sends.

Every answer varies on ``Origin``, so a cache does not hand one origin's
answer to another. Outside the rate limit and the authentication layers: a
preflight carries no credentials and must not be refused for lacking them,
and a 429 or 401 must still be readable by the page.
"""

from __future__ import annotations

from http import HTTPStatus

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.http.problems import Problem
from mock_server.service import Service
from mock_server.settings import STANDARD_METHODS

ANY_ORIGIN = "*"
MAX_AGE_SECONDS = 600
#: Response headers a script may read besides the CORS-safelisted ones.
EXPOSED = (
    "API-Version, Content-Range, ETag, Last-Modified, Link, Location, Retry-After, "
    "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, WWW-Authenticate"
)
#: Methods a preflight may be allowed (CONNECT and TRACE are never for scripts).
_CORS_METHODS = tuple(m for m in STANDARD_METHODS if m not in ("CONNECT", "TRACE"))


def origin_allowed(origin: str, allowed: tuple[str, ...]) -> bool:
    """True when ``origin`` is one of ``allowed``, or ``allowed`` has ``*``."""
    return ANY_ORIGIN in allowed or origin in allowed


def allow_fields(origin: str, allowed: tuple[str, ...]) -> list[tuple[bytes, bytes]]:
    """``Access-Control-Allow-Origin`` (and ``-Credentials``) for an allowed ``origin``.

    The origin itself with credentials when it is listed; ``*`` without them otherwise.
    """
    if origin in allowed and origin != ANY_ORIGIN:
        return [
            (b"access-control-allow-origin", origin.encode("latin-1")),
            (b"access-control-allow-credentials", b"true"),
        ]
    return [(b"access-control-allow-origin", ANY_ORIGIN.encode("ascii"))]


def _vary_origin(headers: MutableHeaders) -> None:
    existing = [v.strip() for v in headers.get("vary", "").split(",") if v.strip()]
    if not any(v.lower() in ("origin", "*") for v in existing):
        headers["Vary"] = ", ".join([*existing, "Origin"])


class CorsLayer:
    """Answers CORS preflights and marks answers to allowed origins."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service
        origins = service.settings.cors_origins
        self.origins = tuple(origins) if origins is not None else None
        disabled = service.settings.disabled_methods
        self.methods = ", ".join(m for m in _CORS_METHODS if m not in disabled)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.origins is None:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")

        async def send_varying(message: Message) -> None:
            if message["type"] == "http.response.start":
                _vary_origin(MutableHeaders(scope=message))
            await send(message)

        # An answer without Access-Control-Allow-Origin (no Origin sent, or one not
        # allowed) varies on Origin too: a cache keeping it would otherwise hand it to
        # an allowed origin's page, which the browser then refuses to read.
        if origin is None:
            await self.app(scope, receive, send_varying)
            return
        allowed = origin_allowed(origin, self.origins)
        if scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
            await self._preflight(scope, receive, send, origin, allowed, headers)
            return
        if not allowed:
            await self.app(scope, receive, send_varying)
            return

        fields = allow_fields(origin, self.origins)

        async def send_marked(message: Message) -> None:
            if message["type"] == "http.response.start":
                marked = MutableHeaders(scope=message)
                for name, value in fields:
                    marked[name.decode("ascii")] = value.decode("latin-1")
                marked["Access-Control-Expose-Headers"] = EXPOSED
                _vary_origin(marked)
            await send(message)

        await self.app(scope, receive, send_marked)

    async def _preflight(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        origin: str,
        allowed: bool,
        headers: Headers,
    ) -> None:
        vary = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers"
        if not allowed:
            problem = Problem(
                HTTPStatus.FORBIDDEN,
                f"The origin {origin} may not use this server from a browser; "
                f"--cors allows: {', '.join(self.origins or ())}.",
                headers={"Vary": vary},
            )
            await problem.response(scope)(scope, receive, send)
            return
        answer = [
            *allow_fields(origin, self.origins or ()),
            (b"access-control-allow-methods", self.methods.encode("latin-1")),
            (b"access-control-max-age", str(MAX_AGE_SECONDS).encode("ascii")),
            (b"vary", vary.encode("ascii")),
        ]
        asked = headers.get("access-control-request-headers")
        if asked:
            answer.append((b"access-control-allow-headers", asked.encode("latin-1")))
        await send(
            {"type": "http.response.start", "status": HTTPStatus.NO_CONTENT, "headers": answer}
        )
        await send({"type": "http.response.body", "body": b""})
