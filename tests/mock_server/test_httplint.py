"""httplint finds nothing BAD in the mock's answers, over a real socket, resource by resource.

Each exchange is linted as sent on the wire (raw header fields, raw body bytes,
gzip included), with its request, so that notes depending on the method or
the conditions asked (HEAD, 304, ranges) are judged right. One server serves
the whole list in order: the writes near the end see the state the reads left.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from httplint import HttpRequestLinter, HttpResponseLinter, levels

from mock_server import BackgroundServer
from mock_server.store.seed import LEGAL_HOLD_CUSTOMER_ID
from tests.mock_server.conftest import ADMIN, make_settings

GZIP = {"Accept-Encoding": "gzip"}
JSON = {"Content-Type": "application/json"}
MERGE = {"Content-Type": "application/merge-patch+json"}

#: (method, path, request headers, body): one of each kind of resource and answer.
CASES: list[tuple[str, str, dict[str, str], bytes]] = [
    ("GET", "/", {}, b""),
    ("GET", "/", GZIP, b""),
    ("HEAD", "/customers", {}, b""),
    ("GET", "/customers", GZIP, b""),
    ("GET", "/customers?limit=5&offset=5&sort=-name", {}, b""),
    ("GET", "/customers/1", {}, b""),
    ("GET", "/v2/customers/1", GZIP, b""),
    ("GET", "/customers/1", {"Accept": "application/vnd.siren+json"}, b""),
    ("GET", "/customers/1", {"Accept": "application/vnd.api+json"}, b""),
    ("GET", "/customers/1", {"Accept": "application/xml"}, b""),
    ("GET", "/products?minCost=1", {}, b""),
    ("GET", "/products/1", {"If-None-Match": "*"}, b""),
    ("GET", "/orders", ADMIN, b""),
    ("GET", "/orders/1", {**ADMIN, **GZIP}, b""),
    ("GET", "/orders", {}, b""),
    ("GET", f"/customers/{LEGAL_HOLD_CUSTOMER_ID}", {}, b""),
    ("GET", "/customers/999", {}, b""),
    ("GET", "/customers?limit=nope", {}, b""),
    ("GET", "/customers/1", {"Accept": "image/png"}, b""),
    ("GET", "/nowhere", {}, b""),
    ("OPTIONS", "/customers", {}, b""),
    ("TRACE", "/customers", {}, b""),
    ("GET", "/auth", {}, b""),
    ("POST", "/auth/token", JSON, b'{"username": "alice", "password": "wonderland"}'),
    ("POST", "/auth/token", JSON, b'{"username": "alice", "password": "nope"}'),
    ("POST", "/auth/session", JSON, b'{"username": "alice", "password": "wonderland"}'),
    ("DELETE", "/auth/session", {}, b""),
    ("GET", "/auth/whoami", ADMIN, b""),
    ("GET", "/status", {}, b""),
    *(("GET", f"/status/{code}", {}, b"") for code in (200, 201, 202, 204, 206, 301, 303)),
    ("GET", "/status/206", {"Range": "bytes=0-15"}, b""),
    *(("GET", f"/status/{code}", {}, b"") for code in (401, 405, 407, 416, 429, 451, 500, 503)),
    ("GET", "/redirect/2", {}, b""),
    ("GET", "/clients/1", {}, b""),
    ("GET", "/docs/rels", {}, b""),
    ("GET", "/problems/404", {}, b""),
    ("GET", "/openapi.json", GZIP, b""),
    ("GET", "/reports", ADMIN, b""),
    ("POST", "/reports", {**ADMIN, **JSON}, b"{}"),
    ("GET", "/jobs/1", ADMIN, b""),
    ("POST", "/customers", {**ADMIN, **JSON}, b'{"name": "Lint", "address": "1 A St, B, C 1"}'),
    ("POST", "/customers", {**ADMIN, **JSON}, b'{"name": ""}'),
    ("PATCH", "/products/2", {**ADMIN, **MERGE}, b'{"cost": 2.5}'),
    ("PATCH", "/products/2", {**ADMIN, **MERGE, "If-Match": '"stale"'}, b'{"cost": 3}'),
    ("PUT", "/products/3", {**ADMIN, **JSON}, b'{"name": "Lint product", "cost": 1}'),
    ("DELETE", "/products/4", ADMIN, b""),
    ("GET", "/products/4", {}, b""),
    ("POST", "/orders/1/place", ADMIN, b""),
    ("BREW", "/customers", {}, b""),
]


@pytest.fixture(scope="module")
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(make_settings()) as running:
        yield running


def _lint(
    method: str, url: str, headers: dict[str, str], body: bytes, response: httpx.Response
) -> list[Any]:
    request = HttpRequestLinter()
    request.process_request_topline(method.encode(), url.encode(), b"HTTP/1.1")
    request.process_headers([(k.encode(), v.encode()) for k, v in headers.items()])
    request.feed_content(body)
    request.finish_content(True)
    linter = HttpResponseLinter()
    linter.request = request
    linter.is_head_response = method == "HEAD"
    linter.process_response_topline(
        b"HTTP/1.1", str(response.status_code).encode(), response.reason_phrase.encode()
    )
    linter.process_headers(list(response.headers.raw))
    linter.feed_content(response.content)
    linter.finish_content(True)
    return list(linter.notes)


def test_httplint_finds_nothing_bad(server: BackgroundServer) -> None:
    found: list[str] = []
    with httpx.Client(base_url=server.url, headers={"Accept-Encoding": "identity"}) as client:
        # The report job of POST /reports must exist before /jobs/1 and /reports/1 are read.
        for method, path, headers, body in CASES:
            request = client.build_request(method, path, headers=headers, content=body or None)
            response = client.send(request, stream=True)
            response._content = b"".join(response.iter_raw())  # as sent: gzip stays gzip
            response.close()
            for note in _lint(method, str(request.url), dict(request.headers), body, response):
                if note.level == levels.BAD:
                    found.append(f"{method} {path} -> {response.status_code}: {note.summary}")
    assert found == [], "\n".join(found)
