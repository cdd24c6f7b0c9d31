"""Compression layer: gzip when the client accepts it (RFC 9110 section 12.5.3).

``Accept-Encoding`` is read with its q-values: gzip (or its alias x-gzip, or
``*``) must have q > 0 and rank at least as high as identity. Bodies under
:data:`MIN_SIZE` bytes stay as they are (gzip would not pay), unless the
client refused identity (``identity;q=0`` or ``*;q=0``), which forces gzip. If
the client accepts nothing the server has, it gets identity anyway: the RFC
lets a server disregard the header rather than answer 406.

Every response this layer could have compressed says ``Vary: Accept-Encoding``
(merged into any Vary already there), compressed or not, so caches keep the
variants apart. Never compressed: 1xx/204/304 and other body-less answers,
partial content (206: ranges are of the identity bytes), and a 200 that says
``Accept-Ranges: bytes`` to a request with ``Range`` (the range layer outside,
:mod:`mock_server.layers.ranges`, cuts the part from it: a client decodes a
``Content-Encoding`` whole, and a middle range of gzip bytes cannot be decoded;
nginx does not gzip ranges, and browsers ask for them with ``Accept-Encoding:
identity``) unless identity was refused, bodies
already encoded, ``Cache-Control: no-transform``, and media that are
compressed already (images, audio, video, archives). A 206 of media this
layer would compress still says ``Vary: Accept-Encoding``, as the 200 for the
same request does: RFC 9110 section 15.3.7 has a 206 send the Vary its 200
would, and a cache keys the parts it stores by it. (A 304 gets the 200's Vary
from the conditional layer outside this one, section 15.4.5.)

**Each coding has its own ETag** (RFC 9110 section 8.8.3: a strong tag names
exact bytes). A gzipped answer carrying a strong ETag gets the gzip twin of it
(:func:`mock_server.http.preconditions.gzip_etag`: ``"3f2a…"`` becomes
``"3f2a…-gzip"``); a 200 read that has no ETag yet first gets the one the
conditional layer would have set on the identity body. Preconditions accept the
tag of either coding for the same state (:func:`mock_server.http.preconditions.any_coding`),
so a tag read with curl still works in an If-Match sent by httpx; the ETag of a
201 is the ETag of the next GET with the same ``Accept-Encoding``. gzip output
here is deterministic (mtime 0), so the gzip tag names the same bytes every
time. A streamed body is compressed chunk by chunk.

HEAD reaches this layer as a GET (the method policy layer drops the body
afterwards), so HEAD gets exactly the headers of GET.
"""

from __future__ import annotations

import gzip
import zlib
from dataclasses import dataclass
from functools import lru_cache
from http import HTTPStatus

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.http.etag import strong_etag
from mock_server.http.preconditions import gzip_etag, wants_validator
from mock_server.http.qvalues import parse_weighted
from mock_server.service import Service

#: Bodies shorter than this are sent as they are (unless identity was refused).
MIN_SIZE = 500
COMPRESS_LEVEL = 6
GZIP_NAMES = ("gzip", "x-gzip")

#: Media types whose bytes are compressed already: gzip would only cost time.
INCOMPRESSIBLE_PREFIXES = ("image/", "audio/", "video/")
INCOMPRESSIBLE_TYPES = frozenset(
    {"application/gzip", "application/zip", "application/zstd", "application/x-7z-compressed"}
)
# HTTPStatus members are read through the enum's descriptor (half a microsecond each on
# Python 3.11): aliased once, for the paths every request takes.
OK = HTTPStatus.OK
PARTIAL_CONTENT = HTTPStatus.PARTIAL_CONTENT
BODYLESS = frozenset({HTTPStatus.NO_CONTENT, HTTPStatus.NOT_MODIFIED})
VARY = "Accept-Encoding"


@dataclass(frozen=True)
class Choice:
    """What ``Accept-Encoding`` allows: gzip at all, and whether identity was refused."""

    gzip: bool
    forced: bool = False


def parse_accept_encoding(value: str) -> dict[str, float]:
    """Coding name (lower case) -> q-value; a malformed q counts as 1."""
    weights: dict[str, float] = {}
    for element in parse_weighted(value):
        weights[element.token] = element.q
    return weights


@lru_cache(maxsize=256)
def choose(accept_encoding: str | None) -> Choice:
    """Whether to gzip, for a request's ``Accept-Encoding`` (None: header absent).

    Cached: clients send the same few values over and over.
    """
    if accept_encoding is None:
        return Choice(gzip=False)
    weights = parse_accept_encoding(accept_encoding)
    star = weights.get("*")
    named = [weights[name] for name in GZIP_NAMES if name in weights]
    q_gzip = max(named) if named else (star if star is not None else 0.0)
    q_identity = weights.get("identity", star if star is not None else 1.0)
    if q_gzip <= 0 or q_gzip < q_identity:
        return Choice(gzip=False)
    return Choice(gzip=True, forced=q_identity <= 0)


@lru_cache(maxsize=256)
def merge_vary(existing: str | None, field: str) -> str:
    """``existing`` Vary with ``field`` added once (``*`` already covers everything)."""
    if not existing:
        return field
    names = [name.strip().lower() for name in existing.split(",")]
    if field.lower() in names or "*" in names:
        return existing
    return f"{existing}, {field}"


RawHeaders = list[tuple[bytes, bytes]]


def compressible(headers: dict[bytes, bytes], status: int) -> bool:
    """True when this response's body may be gzipped at all (``headers``: lower-case names)."""
    if status < OK or status in BODYLESS or status == PARTIAL_CONTENT:
        return False
    return b"content-range" not in headers and _codable(headers)


def part_of_compressible(headers: dict[bytes, bytes], status: int) -> bool:
    """True for a 206 whose whole representation, sent as a 200, would be compressible."""
    return status == PARTIAL_CONTENT and _codable(headers)


def _ranges_served(headers: dict[bytes, bytes]) -> bool:
    """True when this 200 says ``Accept-Ranges: bytes``: the range layer outside may cut it,
    and cuts ranges of the identity bytes only (see the module's doc)."""
    return headers.get(b"accept-ranges", b"").strip().lower() == b"bytes"


def _codable(headers: dict[bytes, bytes]) -> bool:
    if b"content-encoding" in headers:
        return False
    if b"no-transform" in headers.get(b"cache-control", b"").lower():
        return False
    return _compressible_type(headers.get(b"content-type", b""))


@lru_cache(maxsize=256)
def _compressible_type(content_type: bytes) -> bool:
    media_type = content_type.split(b";", 1)[0].strip().lower().decode()
    return not (
        media_type.startswith(INCOMPRESSIBLE_PREFIXES) or media_type in INCOMPRESSIBLE_TYPES
    )


def gzip_bytes(body: bytes) -> bytes:
    """``body`` gzipped, the same bytes every time (no timestamp)."""
    return gzip.compress(body, compresslevel=COMPRESS_LEVEL, mtime=0)


def _replace(raw: RawHeaders, name: bytes, value: str) -> RawHeaders:
    """``raw`` without any ``name`` field, then ``name: value``."""
    kept = [(k, v) for k, v in raw if k.lower() != name]
    if value:
        kept.append((name, value.encode("latin-1")))
    return kept


class CompressionLayer:
    """Gzips response bodies for clients that accept it."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        accept_encoding = None
        ranged = False
        for name, value in scope["headers"]:
            lower = name.lower()
            if lower == b"accept-encoding":
                accept_encoding = value.decode("latin-1")
            elif lower == b"range":
                ranged = True
        choice = choose(accept_encoding)
        start: Message | None = None
        found: dict[bytes, bytes] = {}
        mode = "undecided"  # then "pass" or "stream"
        compressor: zlib._Compress | None = None

        async def send_compressed(message: Message) -> None:
            nonlocal start, mode, found, compressor
            if mode == "pass":
                await send(message)
                return
            if message["type"] == "http.response.start":
                found = {name.lower(): value for name, value in message["headers"]}
                status = message["status"]
                if not compressible(found, status) and not part_of_compressible(found, status):
                    mode = "pass"
                    await send(message)
                elif (
                    not choice.gzip
                    or status == PARTIAL_CONTENT
                    or (ranged and not choice.forced and _ranges_served(found))
                ):
                    # Identity whatever the body: only the Vary field to add, at once.
                    mode = "pass"
                    vary = found.get(b"vary", b"").decode("latin-1") or None
                    raw = _replace(list(message["headers"]), b"vary", merge_vary(vary, VARY))
                    await send({**message, "headers": raw})
                else:
                    start = message
                return
            if message["type"] != "http.response.body":
                await send(message)
                return
            assert start is not None
            body: bytes = message.get("body", b"")
            more = bool(message.get("more_body", False))
            if mode == "undecided":
                vary = found.get(b"vary", b"").decode("latin-1") or None
                raw = _replace(list(start["headers"]), b"vary", merge_vary(vary, VARY))
                if not more:
                    mode = "pass"
                    if choice.gzip and (len(body) >= MIN_SIZE or choice.forced):
                        cache_control = found.get(b"cache-control", b"").decode("latin-1") or None
                        etag = found.get(b"etag", b"").decode("latin-1")
                        if not etag and wants_validator(
                            scope["method"], start["status"], cache_control
                        ):
                            etag = strong_etag(body)
                        body = gzip_bytes(body)
                        raw = _replace(raw, b"etag", gzip_etag(etag) if etag else "")
                        raw = _replace(raw, b"content-length", str(len(body)))
                        raw.append((b"content-encoding", b"gzip"))
                    await send({**start, "headers": raw})
                    await send({**message, "body": body})
                    return
                mode = "stream"
                if b"etag" in found:
                    raw = _replace(raw, b"etag", gzip_etag(found[b"etag"].decode("latin-1")))
                raw = _replace(raw, b"content-length", "")
                raw.append((b"content-encoding", b"gzip"))
                compressor = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, 31)
                await send({**start, "headers": raw})
            assert compressor is not None
            chunk = compressor.compress(body)
            chunk += compressor.flush(zlib.Z_SYNC_FLUSH if more else zlib.Z_FINISH)
            await send({"type": "http.response.body", "body": chunk, "more_body": more})

        await self.app(scope, receive, send_compressed)
