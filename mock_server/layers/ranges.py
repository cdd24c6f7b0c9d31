"""Range layer: 206 and 416 cut from the 200 that the layers inside it finished.

A resource that serves byte ranges says ``Accept-Ranges: bytes`` on its 200 and
leaves the rest here (RFC 9110 section 14). This layer sits **outside** the
conditional and the compression layers:

- **Preconditions come before ranges** (section 13.2.2, step 5): a matching
  ``If-None-Match`` is a 304 even when ``Range`` is sent; only a 200 that
  survived them is cut.
- **A range is of the identity bytes.** For a request with ``Range`` the
  compression layer leaves such a 200 as it is (identity is acceptable unless
  refused, RFC 9110 section 12.5.3), so the 206 it becomes names one
  representation throughout: its identity bytes, their ``ETag``, a
  ``Content-Range`` of their length, no ``Content-Encoding``, and the
  ``Vary: Accept-Encoding`` of its 200. Not a range of the gzip bytes: a client
  decodes a ``Content-Encoding`` as a whole, and a middle range of gzip bytes
  cannot be decoded (httpx, and so restwalk, fails on one); nginx does not gzip
  ranges, and browsers ask for them with ``Accept-Encoding: identity``. The
  gzip 200 keeps its own ETag (the ``-gzip`` twin, section 8.8.3), so an
  ``If-Range`` with it does not match the identity bytes and the whole
  representation goes out, as the RFC asks; a cache never joins the two.
- A client that **refused identity** (``identity;q=0``) gets the gzip 200
  whole: a coded 200 is never cut (ignoring ``Range`` is always allowed,
  section 14.2), and a refused coding is never sent.

So a 206 carries every field its 200 would (Date, Cache-Control, ETag, Expires,
Content-Location, Vary: section 15.3.7), plus ``Content-Range``. ``If-Range`` is
compared with the 200's ETag by the strong comparison (section 13.1.5); a date
must equal ``Last-Modified``. Several ranges are one ``multipart/byteranges``
206, as :mod:`mock_server.http.ranges` builds it.

A **416** is an error about the request, not a representation: a problem body,
``Content-Range: bytes */<length>`` (section 15.5.17), and none of the 200's
validators (its ETag, Last-Modified and Expires name bytes the 416 does not
carry). It says ``Cache-Control: no-store``: caches key by URL, not by
``Range``, so a stored 416 could answer the next plain GET of the same URL; a
416 is not cacheable by default (RFC 9111 section 4.2.2) but the 200's
``max-age`` it used to copy made it so, and ``no-store`` says so to private
caches as well.
"""

from __future__ import annotations

from http import HTTPStatus

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.http.preconditions import parse_etag, strong_match
from mock_server.http.problems import Problem
from mock_server.http.versions import requested_path
from mock_server.layers.whole_answer import read_whole
from mock_server.service import Service

OK = HTTPStatus.OK
BOUNDARY = "restwalk-byteranges"
#: Fields of the 200 that describe its whole body, not a part of it.
WHOLE_BODY_FIELDS = frozenset({b"content-length", b"content-range"})
#: Fields of the 200 a 416 repeats: the rest (validators, freshness, Content-*) are of
#: bytes it does not carry. Vary stays: the 200 for the same request would vary so.
FOR_416 = (b"accept-ranges", b"vary")

RawHeaders = list[tuple[bytes, bytes]]


def if_range_holds(condition: str | None, etag: str | None, last_modified: str | None) -> bool:
    """True when the range may be served: no ``If-Range``, or it names this exact 200.

    An entity tag matches by the strong comparison only (a weak one never does);
    anything else is a date and must equal ``Last-Modified`` (RFC 9110 section 13.1.5).
    """
    if condition is None:
        return True
    condition = condition.strip()
    if condition.startswith(('"', "W/")):
        asked, current = parse_etag(condition), parse_etag(etag or "")
        return asked is not None and current is not None and strong_match(asked, current)
    return last_modified is not None and condition == last_modified.strip()


def _header(raw: RawHeaders, name: bytes) -> str | None:
    for key, value in raw:
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _without(raw: RawHeaders, names: frozenset[bytes]) -> RawHeaders:
    return [(key, value) for key, value in raw if key.lower() not in names]


class RangeLayer:
    """Answers ``Range`` requests for 200s that say ``Accept-Ranges: bytes``."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # HEAD arrives as GET (the method policy layer), so it gets the GET's 206 headers.
        if scope["type"] != "http" or scope["method"] != "GET":
            await self.app(scope, receive, send)
            return
        ranges_sent: list[str] = []
        if_ranges: list[str] = []
        for name, value in scope["headers"]:  # every GET: a loop, no dict built
            if len(name) == 5 and name.lower() == b"range":
                ranges_sent.append(value.decode("latin-1"))
            elif len(name) == 8 and name.lower() == b"if-range":
                if_ranges.append(value.decode("latin-1"))
        if len(ranges_sent) != 1 or len(if_ranges) > 1:
            # None, or sent twice: neither field is a list (RFC 9110 section 5.3), so two
            # are no valid request for a part; the whole representation, as section 14.2
            # lets a server answer any Range (the course's range lessons say so).
            await self.app(scope, receive, send)
            return
        range_value = ranges_sent[0]
        if_range = if_ranges[0] if if_ranges else None

        def wanted(start: Message) -> bool:
            accepts = (_header(start["headers"], b"accept-ranges") or "").strip().lower()
            return start["status"] == OK and accepts == "bytes"

        async def finish(start: Message, body: bytes) -> None:
            await self._answer(scope, receive, send, start, body, range_value, if_range)

        await read_whole(self.app, scope, receive, send, wanted, finish)

    async def _answer(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        start: Message,
        body: bytes,
        range_value: str,
        if_range: str | None,
    ) -> None:
        # Imported with the first range served: only reports serve ranges (the rules and
        # their dataclasses are 1 ms of every start otherwise).
        from mock_server.http import ranges

        raw: RawHeaders = list(start["headers"])
        decision = ranges.answer(range_value, len(body))
        whole = (
            decision.status == OK
            or _header(raw, b"content-encoding") is not None  # identity refused: see above
            or not if_range_holds(if_range, _header(raw, b"etag"), _header(raw, b"last-modified"))
        )
        if whole:
            await send(start)
            await send({"type": "http.response.body", "body": body})
            return
        if decision.status == HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE:
            fields = {
                "Content-Range": ranges.unsatisfied_range(len(body)),
                "Cache-Control": "no-store",  # see the module's doc
            }
            for name in FOR_416:
                value = _header(raw, name)
                if value is not None:
                    fields[name.decode("latin-1").title()] = value
            problem = Problem(
                HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
                f"The range {range_value!r} lies outside the {len(body)} bytes of "
                f"{requested_path(scope)}.",
                headers=fields,
            )
            await problem.response(scope)(scope, receive, send)
            return
        partial = _without(raw, WHOLE_BODY_FIELDS)
        if len(decision.ranges) == 1:
            (only,) = decision.ranges
            part = body[only.first : only.last + 1]
            partial.append((b"content-range", only.content_range(len(body)).encode("latin-1")))
        else:
            media_type = _header(raw, b"content-type") or "application/octet-stream"
            part = ranges.multipart(body, decision.ranges, media_type, BOUNDARY)
            partial = _without(partial, frozenset({b"content-type"}))
            content_type = f"multipart/byteranges; boundary={BOUNDARY}"
            partial.append((b"content-type", content_type.encode("latin-1")))
        partial.append((b"content-length", str(len(part)).encode("latin-1")))
        await send({**start, "status": HTTPStatus.PARTIAL_CONTENT, "headers": partial})
        await send({"type": "http.response.body", "body": part})
