"""The preload layer: ``rel=preload`` links become 103 Early Hints and pushes, where offered.

Over a real HTTP/2 connection in :mod:`tests.mock_server.test_http2`; here the
layer is driven in-process, with the ASGI extensions offered or not.
"""

from __future__ import annotations

from typing import Any

import httpx

from mock_server.app import MockApp
from mock_server.layers.preload import EARLY_HINT, PUSH, preload_links
from mock_server.serving import BackgroundServer
from tests.mock_server.conftest import ADMIN
from tests.mock_server.rawhttp import Reader, connect, request


def test_preload_links_are_found_among_others() -> None:
    field = (
        b'</customers/3>; rel="preload"; as=fetch, </a>; title="x, rel=preload"; rel=next, '
        b'<https://cdn.example/p>; rel="prefetch preload"'
    )
    assert preload_links([field, b"</p/1>;REL=Preload"]) == [
        (b'</customers/3>; rel="preload"; as=fetch', "/customers/3"),
        (b'<https://cdn.example/p>; rel="prefetch preload"', None),
        (b"</p/1>;REL=Preload", "/p/1"),
    ]
    assert preload_links([b'</orders>; rel="collection"']) == []


async def exchange(
    app: MockApp, path: str, extensions: dict[str, Any], *headers: tuple[str, str]
) -> list[dict[str, Any]]:
    """Every message ``app`` sends for a GET of ``path`` with ``headers``."""
    sent: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "2",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"mock.test"),
            *((name.encode(), value.encode()) for name, value in headers),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "extensions": extensions,
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent


BOTH: dict[str, Any] = {EARLY_HINT: {}, PUSH: {}}
AS_ADMIN = ("authorization", ADMIN["Authorization"])


async def test_hints_then_pushes_then_the_response(app: MockApp) -> None:
    sent = await exchange(app, "/orders/1", BOTH, AS_ADMIN, ("accept", "*/*"))
    kinds = [message["type"] for message in sent]
    pushes = [message for message in sent if message["type"] == PUSH]
    assert kinds[0] == EARLY_HINT
    assert kinds[1 : 1 + len(pushes)] == [PUSH] * len(pushes)
    assert kinds[1 + len(pushes)] == "http.response.start"
    assert pushes[0]["path"] == "/customers/1"
    assert len(sent[0]["links"]) == len(pushes)
    for push in pushes:
        assert push["headers"] == [(b"accept", b"*/*")]


async def test_nothing_is_pushed_or_hinted_where_not_offered(app: MockApp) -> None:
    sent = await exchange(app, "/orders/1", {}, AS_ADMIN)
    assert [message["type"] for message in sent] == ["http.response.start", "http.response.body"]
    only_push = await exchange(app, "/orders/1", {PUSH: {}}, AS_ADMIN)
    assert EARLY_HINT not in [message["type"] for message in only_push]
    assert PUSH in [message["type"] for message in only_push]


async def test_a_304_or_an_error_pushes_nothing(app: MockApp, client: httpx.AsyncClient) -> None:
    etag = (await client.get("/orders/1", headers=ADMIN)).headers["etag"]
    revalidated = await exchange(app, "/orders/1", BOTH, AS_ADMIN, ("if-none-match", etag))
    assert revalidated[0]["type"] == "http.response.start"
    assert revalidated[0]["status"] == 304
    unauthorized = await exchange(app, "/orders/1", BOTH)
    assert unauthorized[0]["status"] == 401


async def test_version_style_is_kept_in_the_pushed_paths(client: httpx.AsyncClient) -> None:
    response = await client.get("/v2/orders/1", headers=ADMIN)
    assert response.headers["link"].startswith("</v2/customers/1>; rel=preload; as=fetch, ")


def test_http1_gets_the_link_header_and_no_103(live_server: BackgroundServer) -> None:
    with connect(live_server.url) as sock:
        sock.sendall(request("GET", "/orders/1", f"Authorization: {ADMIN['Authorization']}"))
        response = Reader(sock).response()
    assert response.status == 200
    assert "rel=preload" in response.headers["link"]
