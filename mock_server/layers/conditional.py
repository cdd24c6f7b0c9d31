"""Conditional requests layer: validators and freshness on reads; 304, 412 and 428.

**Reads.** Every 200 answer to GET (HEAD arrives here as GET) gets, unless the
resource set them or said ``no-store``: a strong ``ETag`` (a hash of the body
bytes, :func:`mock_server.http.etag.strong_etag`), ``Cache-Control:
max-age=60`` (``private`` where reading needs a credential, so shared caches
keep none), ``Date``, and ``Expires`` = Date + max-age. ``Last-Modified`` is
the resource's to set. Then ``If-None-Match`` (weak comparison, ``*``, lists)
or else ``If-Modified-Since`` may turn the answer into a **304** carrying the
validators and freshness fields but no body.

**Writes.** PUT, PATCH and DELETE of a member, and POST of an action on one
(``/orders/7/place``), are checked against the *current* representation: the
layer first asks the resources for it with an internal GET carrying the
request's own Accept, Accept-Encoding, version and credential headers, so
the ETag it compares is exactly the one this client was given by a GET.
``If-Match`` (strong comparison) or ``If-Unmodified-Since`` failing, or
``If-None-Match`` matching, answers **412**, except where the write would not
have succeeded anyway: conditions on a DELETE, PATCH or action of a member
that does not exist are ignored and the answer is its 404 or 410 (RFC 9110
section 13.2.1). With ``--require-preconditions``
a member write with neither If-Match nor If-None-Match answers **428**
(RFC 6585): the client must show which version it means to change.

The check and the write are one step (:mod:`mock_server.store.write_guard`): when
the preconditions hold, the member the internal GET read is handed to the
write, and the store writes only if it is still that member, so two writes
with the same ``If-Match`` never both succeed, even when their bodies arrive
long after their headers, or in two ``--workers`` processes.

Your API (:mod:`mock_server.guest`) says itself which writes have a member to
compare with, and which reads need credentials (``private``).

Everything under ``/auth`` is ``Cache-Control: no-store``: credentials are
never cached. This layer is outside compression: a gzipped body arrives with
the ETag of its gzip coding already set (see
:mod:`mock_server.layers.compression`), and the preconditions accept the tag
of either coding for the same state.
"""

from __future__ import annotations

import re
from functools import lru_cache
from http import HTTPStatus
from urllib.parse import parse_qsl, urlencode

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.auth.policy import required_role
from mock_server.guest import guest_path
from mock_server.http.etag import strong_etag
from mock_server.http.preconditions import (
    MAX_AGE,
    Current,
    http_date,
    if_match_failure,
    parse_etag,
    parse_http_date,
    wants_validator,
)
from mock_server.http.preconditions import evaluate as evaluate_preconditions
from mock_server.http.problems import Problem
from mock_server.http.versions import requested_path
from mock_server.layers.whole_answer import read_whole
from mock_server.service import Service
from mock_server.store import Record
from mock_server.store.write_guard import Expected, expect, observed, observing_state
from mock_server.userdata import data_names

# HTTPStatus members are read through the enum's descriptor (half a microsecond each on
# Python 3.11): aliased once, for the paths every request takes.
OK = HTTPStatus.OK
NO_STORE = "no-store"

#: PUT, PATCH or DELETE here is a write to a member with a representation (a
#: collection's ``events`` is its event stream, no member: it is never read to compare).
MEMBER = re.compile(r"^/(?:customers|products|orders)/(?!events$)[^/]+$")
#: POST here is an action on the member named by the first group.
ACTION = re.compile(r"^(/(?:customers|products|orders)/(?!events/)[^/]+)/[^/]+$")
MEMBER_WRITES = frozenset({"PUT", "PATCH", "DELETE"})
SAFE = frozenset({"GET", "HEAD"})
#: Writes that can succeed on a member that does not exist (PUT creates it), so
#: their preconditions hold there too (If-Match fails, If-None-Match: * passes).
CREATING_METHODS = frozenset({"PUT"})

RawHeaders = list[tuple[bytes, bytes]]

#: Fields a 304 repeats from the 200 it stands for (RFC 9110 section 15.4.5).
NOT_MODIFIED_FIELDS = frozenset(
    {
        b"cache-control",
        b"content-location",
        b"date",
        b"etag",
        b"expires",
        b"last-modified",
        b"vary",
    }
)
#: Request fields the internal GET leaves out: body framing and the conditions themselves.
INTERNAL_GET_DROPS = frozenset(
    {
        b"content-length",
        b"content-type",
        b"transfer-encoding",
        b"expect",
        b"if-match",
        b"if-none-match",
        b"if-modified-since",
        b"if-unmodified-since",
        b"if-range",
        b"range",
    }
)


def write_target(method: str, path: str) -> str | None:
    """The member whose current representation a write's preconditions refer to."""
    if method in MEMBER_WRITES and MEMBER.match(path):
        return path
    if method == "POST":
        match = ACTION.match(path)
        if match:
            return match.group(1)
    return None


def directives(cache_control: str) -> dict[str, str]:
    """The directives of a ``Cache-Control`` value, names lower-cased."""
    found: dict[str, str] = {}
    for part in cache_control.split(","):
        name, _, value = part.strip().partition("=")
        if name:
            found[name.strip().lower()] = value.strip().strip('"')
    return found


@lru_cache(maxsize=64)
def _max_age(cache_control: str) -> int | None:
    """The ``max-age`` of a ``Cache-Control`` value, when it gives a whole number."""
    value = directives(cache_control).get("max-age", "")
    return int(value) if value.isascii() and value.isdigit() else None


def _is_conditional(scope: Scope) -> bool:
    """True when the request carries an If-* header (cheap: no header object built)."""
    return any(name[:3].lower() == b"if-" for name, _ in scope["headers"])


def is_auth_path(path: str) -> bool:
    """True for ``/auth`` and everything under it."""
    return path == "/auth" or path.startswith("/auth/")


def _data_member(path: str, collections: frozenset[str]) -> bool:
    """True for ``/{name}/{id}`` of a ``--data`` collection."""
    name, slash, rest = path.removeprefix("/").partition("/")
    return bool(slash) and name in collections and bool(rest) and "/" not in rest


def _streamed(start: Message) -> bool:
    """True for a 200 that says ``no-store`` and has no ETag: nothing to validate.

    Such an answer (``/drip``, ``/faults/trickle``) passes as it comes, chunk
    by chunk, instead of being held here until its last byte.
    """
    found = {name.lower(): value for name, value in start.get("headers", [])}
    cache_control = found.get(b"cache-control", b"").decode("latin-1")
    return b"etag" not in found and NO_STORE in directives(cache_control)


class ConditionalLayer:
    """Adds validators and freshness to reads; evaluates preconditions (304, 412, 428)."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service
        #: The collections of ``--data``: their members take preconditions too.
        self.data = data_names(service.store)
        self.guest = service.guest

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method: str = scope["method"]
        path: str = scope["path"]
        if is_auth_path(path):
            await self.app(scope, receive, _no_store(send))
        elif method in SAFE:
            await self._read(scope, receive, send)
        else:
            if self.guest is not None and guest_path(self.guest, path):
                target = self.guest.write_target(method, path)
            else:
                target = write_target(method, path)
            if target is None and method in MEMBER_WRITES and _data_member(path, self.data):
                target = path
            if target is None:
                await self.app(scope, receive, send)
            else:
                await self._write(scope, receive, send, target)

    # Reads -----------------------------------------------------------------------------

    def _decorate(self, method: str, path: str, raw: RawHeaders, body: bytes) -> dict[bytes, bytes]:
        """Add ETag, Cache-Control, Date and Expires to a 200 read unless it forbids storing.

        ``raw`` is extended in place; the result maps lower-case names to values.
        """
        found = {name.lower(): value for name, value in raw}

        def add(name: bytes, value: str) -> None:
            encoded = value.encode("latin-1")
            raw.append((name, encoded))
            found[name] = encoded

        cache_control = (
            found[b"cache-control"].decode("latin-1") if b"cache-control" in found else None
        )
        if not wants_validator(method, OK, cache_control):
            return found
        if b"etag" not in found:
            add(b"etag", strong_etag(body))
        if cache_control is None:
            if self.guest is not None and guest_path(self.guest, path):
                private = self.guest.needs_credentials(path)
            else:
                private = required_role("GET", path) is not None
            cache_control = f"private, max-age={MAX_AGE}" if private else f"max-age={MAX_AGE}"
            add(b"cache-control", cache_control)
        date = parse_http_date(found[b"date"].decode("latin-1")) if b"date" in found else None
        if date is None:
            date = float(int(self.service.clock()))
            add(b"date", http_date(date))
        max_age = _max_age(cache_control)
        if b"expires" not in found and max_age is not None:
            add(b"expires", http_date(date + max_age))
        return found

    async def _read(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def finish(start: Message, body: bytes) -> None:
            await self._finish_read(scope, start, body, receive, send)

        await read_whole(
            self.app,
            scope,
            receive,
            send,
            lambda start: start["status"] == OK and not _streamed(start),
            finish,
        )

    async def _finish_read(
        self, scope: Scope, start: Message, body: bytes, receive: Receive, send: Send
    ) -> None:
        raw: RawHeaders = list(start["headers"])
        found = self._decorate(scope["method"], scope["path"], raw, body)
        etag = found.get(b"etag", b"").decode("latin-1")
        verdict = None
        if _is_conditional(scope) and (etag or b"last-modified" in found):
            current = Current(
                exists=True,
                etag=parse_etag(etag),
                last_modified=parse_http_date(found.get(b"last-modified", b"").decode("latin-1")),
            )
            verdict = evaluate_preconditions(scope["method"], Headers(scope=scope), current)
        if verdict is not None and verdict.status == HTTPStatus.NOT_MODIFIED:
            kept = [(name, value) for name, value in raw if name.lower() in NOT_MODIFIED_FIELDS]
            await send(
                {"type": "http.response.start", "status": HTTPStatus.NOT_MODIFIED, "headers": kept}
            )
            await send({"type": "http.response.body", "body": b""})
            return
        if verdict is not None:
            shown = requested_path(scope)
            detail = (
                if_match_failure(Headers(scope=scope)["if-match"], current, shown)
                if verdict.header == "If-Match"
                else f"{verdict.header} does not hold for {shown}: its current ETag is {etag}."
            )
            problem = Problem(verdict.status, detail)
            await problem.response(scope)(scope, receive, send)
            return
        await send({**start, "headers": raw})
        await send({"type": "http.response.body", "body": body})

    # Writes ----------------------------------------------------------------------------

    async def _write(self, scope: Scope, receive: Receive, send: Send, target: str) -> None:
        request = Headers(scope=scope)
        method: str = scope["method"]
        guarded = "if-match" in request or "if-none-match" in request
        shown = requested_path({"state": scope.get("state"), "path": target})
        if self.service.settings.require_preconditions and not guarded:
            create = " (or If-None-Match: * to create it)" if method == "PUT" else ""
            problem = Problem(
                HTTPStatus.PRECONDITION_REQUIRED,
                f"{method} {requested_path(scope)} must be conditional on this server: "
                f"send If-Match with the ETag a GET of {shown} gave you{create}.",
            )
            await problem.response(scope)(scope, receive, send)
            return
        if not (guarded or "if-unmodified-since" in request):
            await self.app(scope, receive, send)
            return
        current, record = await self._current(scope, target)
        if current is not None and not current.exists and method not in CREATING_METHODS:
            # RFC 9110 section 13.2.1: preconditions are ignored when the answer without
            # them would not be 2xx: a DELETE or PATCH of nothing is a 404 or 410.
            current = None
        verdict = None if current is None else evaluate_preconditions(method, request, current)
        if verdict is None:
            if current is not None and (record is not None or not current.exists):
                expect(scope, Expected(record))
            await self.app(scope, receive, send)
            return
        assert current is not None
        if not current.exists:
            detail = f"{shown} has no current representation, so {verdict.header} fails."
        elif verdict.header == "If-None-Match":
            detail = f"{shown} exists and matches If-None-Match, so {method} is not done."
        elif verdict.header == "If-Unmodified-Since":
            detail = (
                f"{shown} was modified after the If-Unmodified-Since date; "
                "GET it again before changing it."
            )
        else:
            detail = if_match_failure(request["if-match"], current, shown)
        extra = {"currentETag": str(current.etag)} if current.etag is not None else None
        problem = Problem(HTTPStatus.PRECONDITION_FAILED, detail, extra=extra)
        await problem.response(scope)(scope, receive, send)

    async def _current(self, scope: Scope, target: str) -> tuple[Current | None, Record | None]:
        """The target's current representation, as a GET by this client would see it.

        With it, the record the GET served (None when it served none). The
        representation is None when the GET answers neither 200 nor 404/410 (the
        write then decides).
        """
        query = [
            (name, value)
            for name, value in parse_qsl(scope.get("query_string", b"").decode("latin-1"))
            if name == "version"
        ]
        inner_scope = {
            **scope,
            "method": "GET",
            "path": target,
            "raw_path": target.encode("latin-1"),
            "query_string": urlencode(query).encode("latin-1"),
            "headers": [(n, v) for n, v in scope["headers"] if n.lower() not in INTERNAL_GET_DROPS],
            "state": observing_state(scope),
        }
        sent_request = False

        async def receive_nothing() -> Message:
            nonlocal sent_request
            if sent_request:
                return {"type": "http.disconnect"}
            sent_request = True
            return {"type": "http.request", "body": b"", "more_body": False}

        status = 0
        response_headers = MutableHeaders()
        body: list[bytes] = []

        async def collect(message: Message) -> None:
            nonlocal status, response_headers
            if message["type"] == "http.response.start":
                status = message["status"]
                response_headers = MutableHeaders(raw=list(message["headers"]))
            elif message["type"] == "http.response.body":
                body.append(message.get("body", b""))

        await self._read(inner_scope, receive_nothing, collect)
        record = observed(inner_scope["state"])
        if status in (HTTPStatus.NOT_FOUND, HTTPStatus.GONE):
            return Current(exists=False), None
        if status != HTTPStatus.OK:
            return None, None
        current = Current(
            exists=True,
            etag=parse_etag(response_headers.get("etag", "")),
            last_modified=parse_http_date(response_headers.get("last-modified", "")),
        )
        return current, record


def _no_store(send: Send) -> Send:
    async def send_no_store(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            headers["Cache-Control"] = NO_STORE
        await send(message)

    return send_no_store
