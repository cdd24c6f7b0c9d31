"""One exchange as the history keeps it: a JSON record beside its two bodies.

The record holds what an entry's row does not: the headers, the request as
first sent when a redirect changed it, every redirect hop (bodies included),
the timings, what the session's cache did (:class:`~explorer.core.http.exchange.CacheNote`),
whether secrets were masked in it, whether TLS certificates went unchecked, and the
size of a body too large to keep.
The final request's and the response's bodies are columns of their own: a
search never reads them.
"""

from __future__ import annotations

import base64
from typing import Any

import orjson

from explorer.core.http.exchange import (
    CacheNote,
    Exchange,
    Hop,
    ReceivedResponse,
    SentRequest,
    Timings,
)

__all__ = ["exchange_of", "record_of"]


def _request_json(request: SentRequest, with_body: bool) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "method": request.method,
        "url": request.url,
        "headers": request.headers,
        "http_version": request.http_version,
    }
    if with_body:
        doc["body"] = base64.b64encode(request.body).decode("ascii")
    return doc


def _response_json(response: ReceivedResponse, with_body: bool) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "status": response.status,
        "reason": response.reason,
        "http_version": response.http_version,
        "headers": response.headers,
        "url": response.url,
        "wire_size": response.wire_size,
    }
    if response.undecoded_codings:
        doc["undecoded_codings"] = response.undecoded_codings
    if with_body:
        doc["body"] = base64.b64encode(response.body).decode("ascii")
    return doc


def _request_of(doc: dict[str, Any], body: bytes | None = None) -> SentRequest:
    return SentRequest(
        method=doc["method"],
        url=doc["url"],
        headers=tuple((str(k), str(v)) for k, v in doc["headers"]),
        body=body if body is not None else base64.b64decode(doc.get("body", "")),
        http_version=doc.get("http_version", "HTTP/1.1"),
    )


def _response_of(doc: dict[str, Any], body: bytes | None = None) -> ReceivedResponse:
    return ReceivedResponse(
        status=int(doc["status"]),
        reason=doc["reason"],
        http_version=doc["http_version"],
        headers=tuple((str(k), str(v)) for k, v in doc["headers"]),
        body=body if body is not None else base64.b64decode(doc.get("body", "")),
        url=doc["url"],
        wire_size=doc.get("wire_size"),
        undecoded_codings=int(doc.get("undecoded_codings", 0)),
    )


def _cache_json(note: CacheNote | None) -> dict[str, Any] | None:
    if note is None:
        return None
    return {"outcome": note.outcome, "summary": note.summary, "details": note.details}


def _cache_of(doc: object) -> CacheNote | None:
    if not isinstance(doc, dict):
        return None  # kept by a restwalk that did not say
    return CacheNote(
        str(doc.get("outcome", "")),
        str(doc.get("summary", "")),
        tuple(str(detail) for detail in doc.get("details") or ()),
    )


def record_of(exchange: Exchange, dropped: int | None) -> bytes:
    """The exchange but its final request's and response's bodies, as JSON; ``dropped``
    is the size of a response body too large to keep (then not in the exchange)."""
    doc = {
        "request": _request_json(exchange.request, with_body=exchange.request != exchange.final),
        "final": _request_json(exchange.final, with_body=False),
        "response": _response_json(exchange.response, with_body=False),
        "hops": [
            {
                "request": _request_json(h.request, True),
                "response": _response_json(h.response, True),
            }
            for h in exchange.hops
        ],
        "timings": [exchange.timings.headers, exchange.timings.total],
        "dropped_body": dropped,
        "cache": _cache_json(exchange.cache),
        "masked": exchange.masked,
        "tls_unchecked": exchange.tls_unchecked,
    }
    return orjson.dumps(doc)


def exchange_of(record: bytes, request_body: bytes, response_body: bytes) -> Exchange:
    """The exchange :func:`record_of` kept, with its two bodies."""
    doc = orjson.loads(record)
    final = _request_of(doc["final"], request_body)
    first = doc["request"]
    request = final if "body" not in first and first == doc["final"] else _request_of(first)
    headers, total = doc["timings"]
    return Exchange(
        request=request,
        final=final,
        response=_response_of(doc["response"], response_body),
        hops=tuple(
            Hop(_request_of(h["request"]), _response_of(h["response"])) for h in doc["hops"]
        ),
        timings=Timings(float(headers), float(total)),
        cache=_cache_of(doc.get("cache")),
        masked=bool(doc.get("masked", False)),
        tls_unchecked=bool(doc.get("tls_unchecked", False)),
    )
