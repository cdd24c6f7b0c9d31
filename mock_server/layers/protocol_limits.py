"""Protocol limits layer: what a request may look like before anything reads it.

In order: the HTTP version (505 for anything but 1.0 and 1.1), the length of
the request target (414), the size of the header section and of each field
(431, naming the field), ``Expect`` (417 for anything but ``100-continue``),
the framing of a body (400 when it is given both ways), the body size
(413) and its content coding (415 for any but identity: no resource decodes one). The body limit is
checked twice: from ``Content-Length`` before the body is read, and by
counting the bytes of a chunked body as the application receives them.

**411 is not decided here.** A request with neither ``Content-Length`` nor
``Transfer-Encoding`` has no content (RFC 9112 §6.3): that is how
``curl -X POST .../orders/1/place`` or ``curl -u alice:wonderland -X POST
.../auth/token`` look, and such POSTs are fine. Only a resource that needs a
body answers 411 (:func:`mock_server.http.request_body.read_json`), since only
it knows that content was meant to come.

A 413 carries ``Connection: close``: the client may still be sending the body
we refuse, so the connection is not reused. It carries no ``Retry-After``:
RFC 9110 §15.5.14 asks for one only when the condition is temporary, and a
body limit is not.

``Expect: 100-continue`` needs nothing here: uvicorn sends the interim
``100 Continue`` when the application first reads the body, so a request
refused before that (413 by ``Content-Length``, 401, ...) never gets one.

A request target in absolute form (``GET http://host/customers/1 HTTP/1.1``,
what clients send to proxies) is served as its path, with the target's
authority as ``Host``: RFC 9112 §3.2.2 says a server MUST accept it. Any other
target that is not a path (``GET foo``, ``GET 127.0.0.1:80``, an HTTP/2 ``:path``
without ``/``) is a 400 naming the forms there are (RFC 9112 §3.2): ``*`` is left
to the method policy (OPTIONS only), and ``host:port`` to CONNECT, which it refuses.

Requests h11 cannot parse at all never get here: :mod:`mock_server.transport.h11_protocol`
answers them. A client that disconnects while its body is read ends the
request quietly here (Starlette's ``ClientDisconnect``): nobody is left to
answer, and it is no server fault to log.
"""

from __future__ import annotations

import re
from http import HTTPStatus

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.http.problems import Problem
from mock_server.service import Service

#: ``scope["http_version"]`` values served. "2" and "3" are what ASGI servers
#: report for real HTTP/2 and HTTP/3 connections; over HTTP/1.x framing, a
#: request line saying ``HTTP/2.0`` or ``HTTP/2.5`` is an unsupported version.
SUPPORTED_HTTP_VERSIONS = frozenset({"1.0", "1.1", "2", "3"})
#: HTTP/1.2 and later minors: RFC 9112 §2.3 says to process them as the highest
#: minor version of that major one the server implements, so they are served as 1.1.
LATER_MINOR = re.compile(r"^1\.[2-9][0-9]*$")
CONTINUE = b"100-continue"
#: ``scheme://authority`` and the rest of an absolute-form target (RFC 9112 §3.2.2).
ABSOLUTE_FORM = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)(.*)$", re.DOTALL)
#: Bytes a header field adds to the head besides its name and value: ": " and CRLF.
FIELD_OVERHEAD = 4
#: The longest part of a bad request target a problem quotes.
QUOTED_TARGET = 100


def target_problem(scope: Scope) -> Problem | None:
    """A 400 when the request target has none of the forms of RFC 9112 §3.2, else None.

    Origin-form (``/path``) and absolute-form (``http://host/path``, whose host
    must not be empty: RFC 9110 §4.2.1) are served; the asterisk and authority
    forms are the method policy's to answer (OPTIONS ``*``, a refused CONNECT).
    """
    path: str = scope["path"]
    if path.startswith("/") or path == "*" or scope["method"] == "CONNECT":
        return None
    match = ABSOLUTE_FORM.match(path)
    if match is not None and match.group(1).rpartition("@")[2]:
        return None
    raw = scope.get("raw_path") or path.encode("utf-8")
    shown = raw.decode("latin-1")
    if len(shown) > QUOTED_TARGET:
        shown = shown[:QUOTED_TARGET] + "..."
    return Problem(
        HTTPStatus.BAD_REQUEST,
        f"The request target {shown!r} is not a path. A request names its target as a "
        "path (/customers/1) or as an absolute URL with a host (http://host/customers/1); "
        "* is only for OPTIONS, and host:port only for CONNECT (RFC 9112 section 3.2).",
    )


def origin_form(scope: Scope) -> Scope:
    """``scope`` with an absolute-form target made origin-form, the authority as ``Host``.

    RFC 9112 §3.2.2: the server uses the target's host and ignores any Host header.
    Other scopes come back as they are.
    """
    path: str = scope["path"]
    match = None if path.startswith("/") else ABSOLUTE_FORM.match(path)
    if match is None:
        return scope
    authority, rest = match.groups()
    host = authority.rpartition("@")[2].encode("latin-1")
    raw_path = scope.get("raw_path")
    raw_match = ABSOLUTE_FORM.match(raw_path.decode("latin-1")) if raw_path else None
    raw_rest = raw_match.group(2) if raw_match else rest
    headers = [(name, value) for name, value in scope["headers"] if name.lower() != b"host"]
    return {
        **scope,
        "path": rest or "/",
        "raw_path": (raw_rest or "/").encode("latin-1"),
        "headers": [(b"host", host), *headers],
    }


def coded_content_problem(codings: list[bytes]) -> Problem | None:
    """A 415 for request content under a content coding (``Content-Encoding: gzip``):
    every resource here reads a body as it is, so a coded one would be read as garbage
    ("not UTF-8", "not JSON") or, worse, as if it were not coded. RFC 7694 §3: a 415
    with ``Accept-Encoding`` saying the codings taken: none but identity."""
    coded = [coding.decode("latin-1") for coding in codings if coding not in (b"", b"identity")]
    if not coded:
        return None
    return Problem(
        HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
        f"The request body is coded ({', '.join(coded)}, its Content-Encoding); this "
        "server reads request bodies only as they are: send it without a content coding.",
        headers={"Accept-Encoding": "identity"},
        extra={"contentEncoding": coded},
    )


class BodyTooLarge(Problem):
    """A body that grew past the limit while being read (chunked transfer)."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
            f"The request body is larger than {limit} bytes.",
            headers={"Connection": "close"},
            extra={"maxBodySize": limit},
        )


class ProtocolLimitsLayer:
    """Refuses requests beyond the server's limits: 505, 414, 431, 417, 400, 413."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.settings = service.settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        wrong_target = target_problem(scope)
        if wrong_target is not None:
            # No instance: the target is no URI reference to name this occurrence by.
            unnamed = {**scope, "path": "", "raw_path": b""}
            await wrong_target.response(unnamed)(unnamed, receive, send)
            return
        scope = origin_form(scope)
        problem = self.check_head(scope)
        if problem is not None:
            await problem.response(scope)(scope, receive, send)
            return
        limit = self.settings.max_body_size
        received = 0
        started = False

        async def receive_limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def send_tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive_limited, send_tracking)
        except BodyTooLarge as too_large:
            if started:
                raise
            await too_large.response(scope)(scope, receive, send)
        except ClientDisconnect:
            # The client left while its body was read (or was cut off by the
            # protocol for a truncated body): there is nobody to answer.
            return

    def check_head(self, scope: Scope) -> Problem | None:
        """The problem with the request line and headers in ``scope``, if any."""
        version = scope.get("http_version", "1.1")
        if version not in SUPPORTED_HTTP_VERSIONS and not LATER_MINOR.match(version):
            return Problem(
                HTTPStatus.HTTP_VERSION_NOT_SUPPORTED,
                f"HTTP/{version} is not supported; this server speaks HTTP/1.1 (and 1.0).",
                headers={"Connection": "close"},
                extra={"supportedVersions": ["HTTP/1.0", "HTTP/1.1"]},
            )
        target = len(scope.get("raw_path") or scope["path"].encode())
        query: bytes = scope.get("query_string", b"")
        if query:
            target += 1 + len(query)
        if target > self.settings.max_uri_length:
            return Problem(
                HTTPStatus.REQUEST_URI_TOO_LONG,
                f"The request target is {target} bytes long; "
                f"the limit is {self.settings.max_uri_length}.",
                extra={"maxUriLength": self.settings.max_uri_length},
            )
        headers: list[tuple[bytes, bytes]] = scope["headers"]
        return self._check_headers(headers)

    def _check_headers(self, headers: list[tuple[bytes, bytes]]) -> Problem | None:
        total = 0
        content_length: bytes | None = None
        chunked = False
        expect: list[bytes] = []
        codings: list[bytes] = []
        for name, value in headers:
            size = len(name) + len(value) + FIELD_OVERHEAD
            total += size
            if size > self.settings.max_field_size:
                shown = name.decode("latin-1")
                return Problem(
                    HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                    f"The header field {shown} is {size} bytes; "
                    f"the limit for one field is {self.settings.max_field_size}.",
                    extra={"header": shown, "maxFieldSize": self.settings.max_field_size},
                )
            lowered = name.lower()
            if lowered == b"content-length":
                content_length = value
            elif lowered == b"transfer-encoding":
                chunked = True
            elif lowered == b"expect":
                expect.extend(part.strip().lower() for part in value.split(b","))
            elif lowered == b"content-encoding":
                codings.extend(part.strip().lower() for part in value.split(b","))
        if total > self.settings.max_header_size:
            return Problem(
                HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                f"The header section is {total} bytes; "
                f"the limit is {self.settings.max_header_size}.",
                extra={"maxHeaderSize": self.settings.max_header_size},
            )
        unmet = [part.decode("latin-1") for part in expect if part != CONTINUE]
        if unmet:
            return Problem(
                HTTPStatus.EXPECTATION_FAILED,
                f"This server cannot meet the expectation {', '.join(unmet)}; "
                "it only understands Expect: 100-continue.",
            )
        if content_length is not None and chunked:
            # RFC 9112 §6.1: reject, or follow Transfer-Encoding and close; the
            # ambiguity is how requests get smuggled past intermediaries.
            return Problem(
                HTTPStatus.BAD_REQUEST,
                "The request has both Content-Length and Transfer-Encoding; send one.",
                headers={"Connection": "close"},
            )
        if content_length is not None:
            too_long = self._check_length(content_length)
            if too_long is not None:
                return too_long
        has_content = chunked or (content_length is not None and content_length.strip() != b"0")
        return coded_content_problem(codings) if has_content else None

    def _check_length(self, raw: bytes) -> Problem | None:
        # h11 has already refused a malformed or conflicting Content-Length on a
        # socket; in-process requests are checked here.
        values = {part.strip() for part in raw.split(b",")}
        value = values.pop() if len(values) == 1 else b""
        if not value.isdigit():
            return Problem(
                HTTPStatus.BAD_REQUEST,
                "Content-Length must be a single non-negative whole number.",
            )
        if int(value) > self.settings.max_body_size:
            return Problem(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                f"The request body is {int(value)} bytes; "
                f"the limit is {self.settings.max_body_size}.",
                headers={"Connection": "close"},
                extra={"maxBodySize": self.settings.max_body_size},
            )
        return None
