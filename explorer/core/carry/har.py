"""HAR 1.2, the HTTP Archive format browsers' devtools and HAR viewers read and write.

:func:`har_document` writes exchanges as a HAR log: each redirect hop of an
exchange is an entry of its own, before the final one, as a browser records
them. A text body is ``content.text``; any other is base64 with
``"encoding": "base64"`` (a request body too, with ``postData._encoding``, the
HAR way of a field the spec lacks). Timings restwalk does not measure (DNS,
connect, TLS) are ``-1``, as the spec says for "does not apply". An answer of
the session's cache says so in the entry's ``comment``; a fresh one (nothing
was sent) is marked ``"_fromCache": "memory"`` as Chrome's devtools mark theirs,
with no timings and a ``bodySize`` of 0, and a revalidated one (a 304 without a
body) has a ``bodySize`` of 0 too.

:func:`read_har` reads a HAR file as exchanges to keep in the history: one
written by restwalk, or by Chrome, Firefox, Safari, Insomnia, mitmproxy... Their
quirks are taken as they come: HTTP/2 pseudo-headers (``:authority``) are left
out, ``http/2.0`` and ``h2`` are HTTP/2, a missing body is an empty one, and an
entry marked ``_fromCache`` is kept as a cache hit. An
entry that has no answer (status 0: blocked, cancelled) is skipped, and so is
one that is not an HTTP exchange; :class:`HarImport` says which and why. A file
that is not HAR at all raises :class:`HarError` naming what is wrong.

The spec: http://www.softwareishard.com/blog/har-12-spec/ (W3C Web Performance
draft, archived).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import orjson

from explorer import __version__
from explorer.core.bodies.media import is_text
from explorer.core.http.exchange import CacheNote, Exchange, ReceivedResponse, SentRequest, Timings

__all__ = [
    "HAR_VERSION",
    "MAX_HAR_BYTES",
    "HarError",
    "HarImport",
    "har_bytes",
    "har_document",
    "har_entries",
    "read_har",
]

HAR_VERSION = "1.2"
#: The largest HAR file read (it is read whole, as JSON).
MAX_HAR_BYTES = 512 * 1000 * 1000

#: The media type said of a body without a Content-Type (what Chrome writes).
_UNKNOWN_TYPE = "x-unknown"


class HarError(ValueError):
    """A file that is not a HAR log restwalk can read; the message says what is wrong."""


# --- writing -------------------------------------------------------------------------------


def _iso(at: float) -> str:
    """Epoch seconds as HAR's ``startedDateTime``: ISO 8601, milliseconds, UTC (``Z``)."""
    moment = datetime.fromtimestamp(at, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _pairs(headers: tuple[tuple[str, str], ...]) -> list[dict[str, str]]:
    return [{"name": name, "value": value} for name, value in headers]


def _header(headers: tuple[tuple[str, str], ...], name: str) -> str | None:
    lname = name.lower()
    return next((v for k, v in headers if k.lower() == lname), None)


def _text_or_base64(body: bytes, media_type: str) -> tuple[str, bool]:
    """The body as HAR text, and whether it had to be base64 (an image, not UTF-8 text)."""
    if is_text(media_type or None, body):
        try:
            return body.decode("utf-8"), False
        except UnicodeDecodeError:
            pass
    return base64.b64encode(body).decode("ascii"), True


def _request_cookies(headers: tuple[tuple[str, str], ...]) -> list[dict[str, str]]:
    cookies = []
    for value in (v for k, v in headers if k.lower() == "cookie"):
        for part in value.split(";"):
            name, eq, cookie = part.strip().partition("=")
            if eq and name:
                cookies.append({"name": name, "value": cookie})
    return cookies


def _response_cookies(headers: tuple[tuple[str, str], ...]) -> list[dict[str, Any]]:
    cookies: list[dict[str, Any]] = []
    for value in (v for k, v in headers if k.lower() == "set-cookie"):
        jar: SimpleCookie = SimpleCookie()
        try:
            jar.load(value)
        except CookieError:
            continue
        for name, morsel in jar.items():
            cookie: dict[str, Any] = {"name": name, "value": morsel.value}
            for key, har_key in (("path", "path"), ("domain", "domain")):
                if morsel[key]:
                    cookie[har_key] = morsel[key]
            if morsel["httponly"]:
                cookie["httpOnly"] = True
            if morsel["secure"]:
                cookie["secure"] = True
            cookies.append(cookie)
    return cookies


def _har_request(request: SentRequest) -> dict[str, Any]:
    query = urlsplit(request.url).query
    entry: dict[str, Any] = {
        "method": request.method,
        "url": request.url,
        "httpVersion": request.http_version,
        "cookies": _request_cookies(request.headers),
        "headers": _pairs(request.headers),
        "queryString": [
            {"name": n, "value": v} for n, v in parse_qsl(query, keep_blank_values=True)
        ],
        "headersSize": -1,
        "bodySize": len(request.body),
    }
    if request.body:
        media_type = _header(request.headers, "content-type") or ""
        text, encoded = _text_or_base64(request.body, media_type)
        post: dict[str, Any] = {"mimeType": media_type or _UNKNOWN_TYPE, "text": text}
        if encoded:
            post["_encoding"] = "base64"
        entry["postData"] = post
    return entry


def _har_response(response: ReceivedResponse, cached: bool = False) -> dict[str, Any]:
    media_type = _header(response.headers, "content-type") or ""
    content: dict[str, Any] = {"size": len(response.body), "mimeType": media_type or _UNKNOWN_TYPE}
    if response.body:
        text, encoded = _text_or_base64(response.body, media_type)
        content["text"] = text
        if encoded:
            content["encoding"] = "base64"
    body_size = response.wire_size if response.wire_size is not None else len(response.body)
    if cached:  # the body came from the cache: none came over the wire
        body_size = 0
    elif 0 <= body_size < len(response.body):
        content["compression"] = len(response.body) - body_size
    return {
        "status": response.status,
        "statusText": response.reason,
        "httpVersion": response.http_version,
        "cookies": _response_cookies(response.headers),
        "headers": _pairs(response.headers),
        "content": content,
        "redirectURL": _header(response.headers, "location") or "",
        "headersSize": -1,
        "bodySize": body_size,
    }


def _entry(
    request: SentRequest,
    response: ReceivedResponse,
    at: float,
    timings: Timings | None,
    cache: CacheNote | None = None,
) -> dict[str, Any]:
    """One HAR entry; ``timings`` None for a redirect hop (restwalk times whole exchanges);
    ``cache`` what the session's cache did for it."""
    fresh = cache is not None and cache.outcome == "fresh"
    wait = max(timings.headers, 0.0) * 1000 if timings and not fresh else 0.0
    total = max(timings.total, 0.0) * 1000 if timings and not fresh else 0.0
    entry: dict[str, Any] = {
        "startedDateTime": _iso(at),
        "time": round(total, 3),
        "request": _har_request(request),
        "response": _har_response(response, cached=cache is not None and cache.from_cache),
        "cache": {},
        "timings": {
            "blocked": -1,
            "dns": -1,
            "connect": -1,
            "ssl": -1,
            "send": 0,
            "wait": round(wait, 3),
            "receive": round(max(total - wait, 0.0), 3),
        },
    }
    if cache is not None and cache.from_cache:
        if fresh:
            entry["_fromCache"] = "memory"
            entry["comment"] = f"from restwalk's cache: nothing was sent ({cache.summary})"
        else:
            entry["comment"] = f"from restwalk's cache, revalidated ({cache.summary})"
    return entry


def har_entries(exchange: Exchange, at: float) -> list[dict[str, Any]]:
    """The HAR entries of one exchange sent at ``at``: its redirect hops, then the answer."""
    entries = [_entry(hop.request, hop.response, at, None) for hop in exchange.hops]
    entries.append(_entry(exchange.final, exchange.response, at, exchange.timings, exchange.cache))
    return entries


def har_document(exchanges: Iterable[tuple[Exchange, float]], comment: str = "") -> dict[str, Any]:
    """A HAR 1.2 log of ``exchanges``, each ``(exchange, sent at)`` in epoch seconds."""
    entries: list[dict[str, Any]] = []
    for exchange, at in exchanges:
        entries += har_entries(exchange, at)
    log: dict[str, Any] = {
        "version": HAR_VERSION,
        "creator": {"name": "restwalk", "version": __version__},
        "entries": entries,
    }
    if comment:
        log["comment"] = comment
    return {"log": log}


def har_bytes(document: dict[str, Any]) -> bytes:
    """``document`` as a HAR file's bytes (indented, as devtools write them)."""
    return orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"


# --- reading -------------------------------------------------------------------------------


@dataclass
class HarImport:
    """What a HAR file held: the exchanges restwalk can keep, and the entries it skipped."""

    exchanges: list[tuple[Exchange, float]] = field(default_factory=list)
    #: One line per skipped entry: its number (from 1) and why.
    skipped: list[str] = field(default_factory=list)
    creator: str = ""


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _EntryProblem(f"{where} is not an object")
    return value


class _EntryProblem(Exception):
    """Why one entry cannot be read (it is skipped, with this reason)."""


def _version(text: object) -> str:
    """A HAR httpVersion as restwalk writes it: ``http/2.0`` and ``h2`` are ``HTTP/2``."""
    value = str(text or "").strip()
    lowered = value.lower()
    if lowered in ("h2", "http/2", "http/2.0") or lowered.startswith("http/2.0+"):
        return "HTTP/2"
    if lowered in ("h3", "http/3", "http/3.0") or lowered.startswith("h3-"):
        return "HTTP/3"
    if lowered in ("http/1.1", "http/1.0"):
        return value.upper()
    return value.upper() or "HTTP/1.1"


def _headers(value: object, where: str) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _EntryProblem(f"{where}.headers is not a list")
    pairs = []
    for item in value:
        header = _object(item, f"{where}.headers[]")
        name, text = header.get("name"), header.get("value")
        if not isinstance(name, str) or not isinstance(text, str | int | float):
            raise _EntryProblem(f"{where}.headers has an entry without name and value")
        if name.startswith(":"):
            continue  # an HTTP/2 pseudo-header: the method, URL and status say it
        pairs.append((name, str(text)))
    return tuple(pairs)


def _decoded(text: object, encoding: object, where: str) -> bytes:
    if text is None:
        return b""
    if not isinstance(text, str):
        raise _EntryProblem(f"{where}.text is not a string")
    if isinstance(encoding, str) and encoding.lower() == "base64":
        try:
            return base64.b64decode(text, validate=False)
        except (binascii.Error, ValueError):
            raise _EntryProblem(f"{where}.text is not valid base64") from None
    return text.encode("utf-8", errors="surrogatepass")


def _request_body(request: dict[str, Any]) -> bytes:
    post = request.get("postData")
    if post is None:
        return b""
    post = _object(post, "request.postData")
    if post.get("text") is not None:
        return _decoded(post.get("text"), post.get("_encoding") or post.get("encoding"), "postData")
    params = post.get("params")
    if isinstance(params, list):
        pairs = [
            (str(p.get("name", "")), str(p.get("value", ""))) for p in params if isinstance(p, dict)
        ]
        return urlencode(pairs).encode("ascii")
    return b""


def _started(value: object) -> float:
    if not isinstance(value, str):
        raise _EntryProblem("startedDateTime is missing")
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise _EntryProblem(f"startedDateTime {value!r} is not an ISO 8601 time") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def _milliseconds(value: object) -> float:
    return float(value) if isinstance(value, int | float) and value > 0 else 0.0


def _timings(entry: dict[str, Any]) -> Timings:
    total = _milliseconds(entry.get("time")) / 1000
    timings = entry.get("timings")
    if not isinstance(timings, dict):
        return Timings(total, total)
    before = sum(_milliseconds(timings.get(k)) for k in ("blocked", "dns", "connect", "send"))
    headers = (before + _milliseconds(timings.get("wait"))) / 1000
    return Timings(min(headers, total) if total else headers, total or headers)


def _exchange(entry: dict[str, Any]) -> tuple[Exchange, float]:
    request = _object(entry.get("request"), "request")
    response = _object(entry.get("response"), "response")
    method, url = request.get("method"), request.get("url")
    if not isinstance(method, str) or not method or not isinstance(url, str) or not url:
        raise _EntryProblem("request has no method or URL")
    scheme = urlsplit(url).scheme.lower()
    if scheme not in ("http", "https"):
        raise _EntryProblem(f"a {scheme or 'relative'} URL, not HTTP ({url[:60]})")
    status = response.get("status")
    if not isinstance(status, int) or isinstance(status, bool):
        raise _EntryProblem("response.status is not a number")
    if status == 0:
        raise _EntryProblem("no answer (status 0: blocked, cancelled or failed in the browser)")
    content = _object(response.get("content") or {}, "response.content")
    sent = SentRequest(
        method=method,
        url=url,
        headers=_headers(request.get("headers"), "request"),
        body=_request_body(request),
        http_version=_version(request.get("httpVersion")),
    )
    received = ReceivedResponse(
        status=status,
        reason=str(response.get("statusText") or ""),
        http_version=_version(response.get("httpVersion")),
        headers=_headers(response.get("headers"), "response"),
        body=_decoded(content.get("text"), content.get("encoding"), "response.content"),
        url=url,
        wire_size=body_size if isinstance(body_size := response.get("bodySize"), int) else None,
    )
    if received.wire_size is not None and received.wire_size < 0:
        received = ReceivedResponse(
            received.status,
            received.reason,
            received.http_version,
            received.headers,
            received.body,
            received.url,
        )
    exchange = Exchange(
        request=sent,
        final=sent,
        response=received,
        timings=_timings(entry),
        cache=_cache_hit(entry.get("_fromCache")),
    )
    return exchange, _started(entry.get("startedDateTime"))


def _cache_hit(marked: object) -> CacheNote | None:
    """What Chrome's ``_fromCache`` ("memory", "disk") says: the answer of a cache, unsent."""
    if not isinstance(marked, str) or not marked:
        return None
    where = f"the {marked} cache" if marked in ("memory", "disk") else "a cache"
    return CacheNote("fresh", f"from {where}, as the HAR file says: nothing was sent")


def read_har(data: bytes) -> HarImport:
    """The exchanges of the HAR file ``data``; :class:`HarError` when it is not HAR."""
    if len(data) > MAX_HAR_BYTES:
        raise HarError(f"it is larger than {MAX_HAR_BYTES // 10**6} MB, the most restwalk reads")
    try:
        document = orjson.loads(data.removeprefix(b"\xef\xbb\xbf"))
    except orjson.JSONDecodeError as error:
        raise HarError(f"it is not JSON ({error})") from None
    log = document.get("log") if isinstance(document, dict) else None
    if not isinstance(log, dict):
        raise HarError('it is not a HAR file: it has no "log" object')
    entries = log.get("entries")
    if not isinstance(entries, list):
        raise HarError('it is not a HAR file: "log" has no "entries" list')
    creator = log.get("creator")
    name = creator.get("name", "") if isinstance(creator, dict) else ""
    result = HarImport(creator=str(name))
    for number, entry in enumerate(entries, start=1):
        try:
            result.exchanges.append(_exchange(_object(entry, "the entry")))
        except _EntryProblem as problem:
            result.skipped.append(f"entry {number}: {problem}")
    return result
