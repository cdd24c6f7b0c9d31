"""Writes: POST, PUT, DELETE and every status they answer (PATCH is in test_patch.py)."""

from __future__ import annotations

from typing import Any

import httpx
import orjson
import pytest

from mock_server.app import MockApp
from mock_server.http.etag import strong_etag
from tests.mock_server.conftest import ADMIN
from tests.mock_server.scopes import http_scope

IDENTITY = {"Accept-Encoding": "identity"}

NEW_CUSTOMER = {"name": "Radia Perlman", "address": "1 Spanning Tree, Boston, MA 02101"}


async def raw_request(
    app: MockApp, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    """One request straight into the ASGI app, with exactly these headers (no framing added)."""
    scope = http_scope(method, path, [(b"host", b"mock.test"), *headers])
    incoming = [{"type": "http.request", "body": body, "more_body": False}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    response_headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    content = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], response_headers, content


async def test_post_is_201_with_location_etag_and_body(client: httpx.AsyncClient) -> None:
    response = await client.post("/customers", json=NEW_CUSTOMER, headers={**ADMIN, **IDENTITY})
    assert response.status_code == 201
    body = response.json()
    assert body["id"] == 13
    assert response.headers["location"] == "/customers/13"
    assert response.headers["etag"] == strong_etag(response.content)
    assert (await client.get("/customers/13")).json()["name"] == NEW_CUSTOMER["name"]


async def test_post_location_keeps_the_version(client: httpx.AsyncClient) -> None:
    response = await client.post("/v1/customers", json=NEW_CUSTOMER, headers=ADMIN)
    assert response.headers["location"] == "/v1/customers/13"


async def test_put_replaces(client: httpx.AsyncClient) -> None:
    response = await client.put(
        "/customers/2",
        json={"name": "Grace B. Hopper", "address": "x"},
        headers={**ADMIN, **IDENTITY},
    )
    assert response.status_code == 200
    assert "location" not in response.headers
    assert response.headers["etag"] == strong_etag(response.content)
    assert (await client.get("/customers/2")).json()["address"] == "x"


async def test_put_back_what_was_read_is_accepted(client: httpx.AsyncClient) -> None:
    read = (await client.get("/v2/customers/3")).json()
    response = await client.put("/v2/customers/3", json=read, headers=ADMIN)
    assert response.status_code == 200


async def test_put_to_an_unused_id_creates(client: httpx.AsyncClient) -> None:
    response = await client.put("/customers/50", json=NEW_CUSTOMER, headers=ADMIN)
    assert response.status_code == 201
    assert response.headers["location"] == "/customers/50"
    after = await client.post("/customers", json={**NEW_CUSTOMER, "name": "Next"}, headers=ADMIN)
    assert after.json()["id"] == 51


async def test_put_needs_the_full_entity(client: httpx.AsyncClient) -> None:
    response = await client.put("/customers/2", json={}, headers=ADMIN)
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert response.json()["errors"] == [
        {"field": "name", "message": "is required"},
        {"field": "address", "message": "is required"},
    ]


async def test_id_in_body_must_match(client: httpx.AsyncClient) -> None:
    put = await client.put("/customers/2", json={**NEW_CUSTOMER, "id": 3}, headers=ADMIN)
    assert put.status_code == 422
    assert put.json()["errors"][0]["field"] == "id"
    post = await client.post("/customers", json={**NEW_CUSTOMER, "id": 3}, headers=ADMIN)
    assert post.status_code == 422


async def test_unknown_fields_are_422(client: httpx.AsyncClient) -> None:
    response = await client.post("/customers", json={**NEW_CUSTOMER, "email": "x"}, headers=ADMIN)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "email"


async def test_body_must_be_an_object(client: httpx.AsyncClient) -> None:
    response = await client.post("/customers", json=[NEW_CUSTOMER], headers=ADMIN)
    assert response.status_code == 422


async def test_delete_then_410_and_never_reused(client: httpx.AsyncClient) -> None:
    response = await client.delete("/customers/7", headers=ADMIN)
    assert response.status_code == 204
    assert response.content == b""
    gone = await client.get("/customers/7")
    assert gone.status_code == 410
    assert gone.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert (await client.delete("/customers/7", headers=ADMIN)).status_code == 410
    assert (await client.put("/customers/7", json=NEW_CUSTOMER, headers=ADMIN)).status_code == 410
    created = await client.post("/customers", json=NEW_CUSTOMER, headers=ADMIN)
    assert created.json()["id"] == 13


async def test_never_used_id_is_404(client: httpx.AsyncClient) -> None:
    assert (await client.get("/products/999")).status_code == 404
    assert (await client.delete("/products/999", headers=ADMIN)).status_code == 404
    assert (await client.get("/products/abc")).status_code == 404


async def test_bad_json_is_400(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/customers",
        content=b'{"name": ',
        headers={**ADMIN, "Content-Type": "application/json"},
    )
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert "not valid JSON" in response.json()["detail"]


async def test_empty_body_is_400(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/customers", content=b"", headers={**ADMIN, "Content-Type": "application/json"}
    )
    assert response.status_code == 400


async def test_wrong_content_type_is_415_with_accept_post(client: httpx.AsyncClient) -> None:
    response = await client.post("/customers", data={"name": "form"}, headers=ADMIN)
    assert response.status_code == 415
    assert response.headers["accept-post"] == "application/json, application/hal+json"
    put = await client.put(
        "/customers/1", content=b"x", headers={**ADMIN, "Content-Type": "text/plain"}
    )
    assert put.status_code == 415


async def test_charset_parameter_is_fine(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/customers",
        content=orjson.dumps(NEW_CUSTOMER),
        headers={**ADMIN, "Content-Type": "application/json; charset=utf-8"},
    )
    assert response.status_code == 201


async def test_unique_name_is_409(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/customers", json={"name": "ada lovelace", "address": "x"}, headers=ADMIN
    )
    assert response.status_code == 409
    assert response.json()["field"] == "name"
    put = await client.put(
        "/customers/2", json={"name": "Ada Lovelace", "address": "x"}, headers=ADMIN
    )
    assert put.status_code == 409


async def test_body_without_length_is_411(app: MockApp) -> None:
    status, headers, content = await raw_request(
        app,
        "POST",
        "/customers",
        [
            (b"content-type", b"application/json"),
            *[(k.lower().encode(), v.encode()) for k, v in ADMIN.items()],
        ],
        orjson.dumps(NEW_CUSTOMER),
    )
    assert status == 411
    assert headers["content-type"] == "application/problem+json; charset=utf-8"
    assert orjson.loads(content)["status"] == 411


async def test_chunked_body_is_fine(app: MockApp) -> None:
    status, _, _ = await raw_request(
        app,
        "POST",
        "/customers",
        [
            (b"content-type", b"application/json"),
            (b"transfer-encoding", b"chunked"),
            *[(k.lower().encode(), v.encode()) for k, v in ADMIN.items()],
        ],
        orjson.dumps(NEW_CUSTOMER),
    )
    assert status == 201


@pytest.mark.parametrize(
    ("method", "path"), [("POST", "/customers/1"), ("PUT", "/customers"), ("DELETE", "/products")]
)
async def test_method_not_allowed_is_405_with_allow(
    client: httpx.AsyncClient, method: str, path: str
) -> None:
    response = await client.request(method, path, headers=ADMIN)
    assert response.status_code == 405
    assert "GET" in response.headers["allow"]
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"


@pytest.mark.parametrize("record_id", ["0", str(2**53)])
async def test_ids_outside_the_range_are_404(client: httpx.AsyncClient, record_id: str) -> None:
    assert (await client.get(f"/customers/{record_id}")).status_code == 404
    put = await client.put(f"/customers/{record_id}", json=NEW_CUSTOMER, headers=ADMIN)
    assert put.status_code == 404


async def test_absurdly_nested_body_is_400(client: httpx.AsyncClient) -> None:
    deep = b'{"a":' * 900 + b"1" + b"}" * 900
    response = await client.patch(
        "/products/1",
        content=deep,
        headers={**ADMIN, "Content-Type": "application/merge-patch+json"},
    )
    assert response.status_code == 400
    assert "levels deep" in response.json()["detail"]
