"""Exchanges kept as HAR 1.2: the tape ``--record`` writes and ``--replay`` reads.

Written: one entry per exchange, request and response with their header
fields, query and bodies; a text body as ``text``, any other in base64
(``"encoding": "base64"``; for a request, ``postData._encoding``, the way
restwalk's history export says it). The upstream the tape was recorded from
is ``log._restwalkUpstream``, so a replay knows which part of the recorded
paths was the upstream's base path.

Read: a tape, or any HAR 1.2 log: restwalk's ``history --har`` export, a
browser's devtools, mitmproxy... HTTP/2 pseudo-header fields are left out, a
missing body is an empty one, a form given only as ``postData.params`` is
encoded back; an entry that got no answer (status 0) or only an interim one (a
browser's WebSocket 101) is skipped, and so is a header field that could not be
sent as it is (a value with a line break). The format
is read here on its own: ``mock_server`` and ``explorer`` share no code.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import orjson

HAR_VERSION = "1.2"
#: The largest tape read (it is read whole).
MAX_TAPE_BYTES = 256 * 1024 * 1024
UPSTREAM_KEY = "_restwalkUpstream"
_TEXT_TYPES = ("json", "xml", "javascript", "x-www-form-urlencoded", "html", "csv", "yaml")

Headers = tuple[tuple[str, str], ...]


class TapeError(ValueError):
    """The tape cannot be read or written; the message is one line: file and reason."""


@dataclass(frozen=True)
class Exchange:
    """One recorded request and its answer."""

    method: str
    url: str
    request_headers: Headers
    request_body: bytes
    status: int
    reason: str
    response_headers: Headers
    response_body: bytes
    started: float = 0.0
    time_ms: float = 0.0

    @property
    def path(self) -> str:
        """The request's path, as recorded (still percent-encoded)."""
        return urlsplit(self.url).path or "/"

    @property
    def query(self) -> list[tuple[str, str]]:
        """The request's query pairs, decoded, in order."""
        return parse_qsl(urlsplit(self.url).query, keep_blank_values=True)

    def header(self, name: str, *, response: bool = False) -> str | None:
        """The first value of header ``name`` of the request (or the response)."""
        lowered = name.lower()
        fields = self.response_headers if response else self.request_headers
        return next((v for k, v in fields if k.lower() == lowered), None)


def _is_text(media_type: str) -> bool:
    essence = media_type.partition(";")[0].strip().lower()
    return essence.startswith("text/") or any(word in essence for word in _TEXT_TYPES)


def _text_or_base64(body: bytes, media_type: str) -> tuple[str, bool]:
    if _is_text(media_type) or not media_type:
        try:
            return body.decode("utf-8"), False
        except UnicodeDecodeError:
            pass
    return base64.b64encode(body).decode("ascii"), True


def _pairs(headers: Headers) -> list[dict[str, str]]:
    return [{"name": name, "value": value} for name, value in headers]


def _entry(exchange: Exchange) -> dict[str, Any]:
    request_type = exchange.header("content-type") or ""
    request: dict[str, Any] = {
        "method": exchange.method,
        "url": exchange.url,
        "httpVersion": "HTTP/1.1",
        "cookies": [],
        "headers": _pairs(exchange.request_headers),
        "queryString": [{"name": n, "value": v} for n, v in exchange.query],
        "headersSize": -1,
        "bodySize": len(exchange.request_body),
    }
    if exchange.request_body:
        text, encoded = _text_or_base64(exchange.request_body, request_type)
        post: dict[str, Any] = {
            "mimeType": request_type or "application/octet-stream",
            "text": text,
        }
        if encoded:
            post["_encoding"] = "base64"
        request["postData"] = post
    response_type = exchange.header("content-type", response=True) or ""
    content: dict[str, Any] = {
        "size": len(exchange.response_body),
        "mimeType": response_type or "x-unknown",
    }
    if exchange.response_body:
        text, encoded = _text_or_base64(exchange.response_body, response_type)
        content["text"] = text
        if encoded:
            content["encoding"] = "base64"
    moment = datetime.fromtimestamp(exchange.started, tz=UTC)
    return {
        "startedDateTime": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "time": round(exchange.time_ms, 3),
        "request": request,
        "response": {
            "status": exchange.status,
            "statusText": exchange.reason,
            "httpVersion": "HTTP/1.1",
            "cookies": [],
            "headers": _pairs(exchange.response_headers),
            "content": content,
            "redirectURL": exchange.header("location", response=True) or "",
            "headersSize": -1,
            "bodySize": len(exchange.response_body),
        },
        "cache": {},
        "timings": {"send": 0, "wait": round(exchange.time_ms, 3), "receive": 0},
    }


def har_bytes(exchanges: list[Exchange], upstream: str, version: str) -> bytes:
    """The HAR 1.2 document of ``exchanges`` recorded from ``upstream``."""
    log = {
        "version": HAR_VERSION,
        "creator": {"name": "restwalk-mock", "version": version},
        "entries": [_entry(exchange) for exchange in exchanges],
        UPSTREAM_KEY: upstream,
    }
    return orjson.dumps({"log": log}, option=orjson.OPT_INDENT_2)


# --- reading -------------------------------------------------------------------------------


#: A field name as RFC 9110 section 5.1 has it (a token).
_FIELD_NAME = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")


def _headers(raw: Any) -> Headers:
    """The header fields of a HAR message; one that could not be sent as it is (a name
    that is no token, a value with a line break or NUL, which would split the answer
    replayed) is left out."""
    if not isinstance(raw, list):
        return ()
    fields = (
        (h["name"], str(h.get("value", "")))
        for h in raw
        if isinstance(h, dict) and isinstance(h.get("name"), str)
    )
    return tuple(
        (name, value)
        for name, value in fields
        if _FIELD_NAME.match(name) and not any(c in value for c in "\r\n\0")
    )


def _decoded(text: Any, base64_encoded: bool) -> bytes:
    if not isinstance(text, str):
        return b""
    if base64_encoded:
        try:
            return base64.b64decode(text, validate=False)
        except (binascii.Error, ValueError):
            return text.encode("utf-8")
    return text.encode("utf-8")


def _request_body(request: dict[str, Any]) -> bytes:
    post = request.get("postData")
    if not isinstance(post, dict):
        return b""
    if isinstance(post.get("text"), str):
        encoded = post.get("_encoding") == "base64" or post.get("encoding") == "base64"
        return _decoded(post["text"], encoded)
    params = post.get("params")
    if isinstance(params, list):
        pairs = [
            (str(p.get("name", "")), str(p.get("value", ""))) for p in params if isinstance(p, dict)
        ]
        return urlencode(pairs).encode("utf-8")
    return b""


def _started(raw: Any) -> float:
    if not isinstance(raw, str):
        return 0.0
    try:
        return datetime.fromisoformat(raw.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


def _exchange(entry: Any) -> Exchange | None:
    if not isinstance(entry, dict):
        return None
    request, response = entry.get("request"), entry.get("response")
    if not isinstance(request, dict) or not isinstance(response, dict):
        return None
    status = response.get("status")
    url = request.get("url")
    if not isinstance(status, int) or not 200 <= status <= 599 or not isinstance(url, str):
        return None
    if urlsplit(url).scheme not in ("http", "https"):
        return None
    content = response.get("content") if isinstance(response.get("content"), dict) else {}
    assert isinstance(content, dict)
    return Exchange(
        method=str(request.get("method", "GET")).upper(),
        url=url,
        request_headers=_headers(request.get("headers")),
        request_body=_request_body(request),
        status=status,
        reason=str(response.get("statusText", "")),
        response_headers=_headers(response.get("headers")),
        response_body=_decoded(content.get("text"), content.get("encoding") == "base64"),
        started=_started(entry.get("startedDateTime")),
        time_ms=float(entry["time"]) if isinstance(entry.get("time"), (int, float)) else 0.0,
    )


def read_tape(path: Path) -> tuple[list[Exchange], str | None]:
    """The exchanges of the HAR file at ``path`` and the upstream it was recorded from."""
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_TAPE_BYTES + 1)
    except FileNotFoundError:
        raise TapeError(f"{path}: no such file") from None
    except OSError as error:
        raise TapeError(f"{path}: cannot read it: {error.strerror or error}") from None
    if len(data) > MAX_TAPE_BYTES:
        raise TapeError(f"{path}: larger than {MAX_TAPE_BYTES // (1024 * 1024)} MiB")
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise TapeError(f"{path}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
    log = document.get("log") if isinstance(document, dict) else None
    if not isinstance(log, dict) or not isinstance(log.get("entries"), list):
        raise TapeError(f"{path}: not a HAR file (no log.entries)")
    exchanges = [found for entry in log["entries"] if (found := _exchange(entry)) is not None]
    upstream = log.get(UPSTREAM_KEY)
    return exchanges, upstream if isinstance(upstream, str) else None
