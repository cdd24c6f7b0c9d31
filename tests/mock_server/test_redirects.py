"""Redirect demos: /clients moved, /redirect/{n} chains, method-keeping 307/308, redirect-to."""

from __future__ import annotations

import httpx
import pytest

from mock_server.resources.redirects import MAX_HOPS
from mock_server.serving import BackgroundServer
from tests.mock_server.conftest import ADMIN


async def test_clients_moved_permanently(client: httpx.AsyncClient) -> None:
    response = await client.get("/clients/3")
    assert response.status_code == 301
    assert response.headers["location"] == "/customers/3"
    assert (await client.get("/clients?limit=2")).headers["location"] == "/customers?limit=2"
    assert (await client.get("/clients/a b")).headers["location"] == "/customers/a%20b"


async def test_clients_redirect_lands_on_the_customer(client: httpx.AsyncClient) -> None:
    response = await client.get("/clients/3", follow_redirects=True)
    assert response.status_code == 200
    assert str(response.url).endswith("/customers/3")
    assert [r.status_code for r in response.history] == [301]


async def test_chain_of_hops(client: httpx.AsyncClient) -> None:
    response = await client.get("/redirect/3", follow_redirects=True)
    assert response.status_code == 200
    assert [r.headers["location"] for r in response.history] == [
        "/redirect/2",
        "/redirect/1",
        "/redirect/0",
    ]
    assert all(r.status_code == 302 for r in response.history)
    assert response.json()["hops"] == 0


@pytest.mark.parametrize("raw", [str(MAX_HOPS + 1), "abc", "-1", "300", "304"])
async def test_chain_bounds(client: httpx.AsyncClient, raw: str) -> None:
    response = await client.get(f"/redirect/{raw}")
    assert response.status_code == 400
    assert response.json()["parameter"] == "n"


@pytest.mark.parametrize("code", [307, 308])
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
async def test_307_308_keep_method_and_body(
    client: httpx.AsyncClient, code: int, method: str
) -> None:
    first = await client.request(method, f"/redirect/{code}", content=b'{"a": 1}')
    assert first.status_code == code
    assert first.headers["location"] == "/echo"
    response = await client.request(
        method,
        f"/redirect/{code}",
        content=b'{"a": 1}',
        headers={"Content-Type": "application/json"},
        follow_redirects=True,
    )
    body = response.json()
    assert body["method"] == method
    assert body["body"] == '{"a": 1}'
    assert body["contentType"] == "application/json"


async def test_303_turns_post_into_get(client: httpx.AsyncClient) -> None:
    response = await client.post("/redirect/303", content=b"x", follow_redirects=True)
    assert response.json()["method"] == "GET"
    assert response.json()["bodyLength"] == 0


async def test_redirect_to_relative_url(client: httpx.AsyncClient) -> None:
    response = await client.get("/redirect-to", params={"url": "/customers?limit=1"})
    assert response.status_code == 302
    assert response.headers["location"] == "/customers?limit=1"
    response = await client.get("/redirect-to", params={"url": "/", "status": "308"})
    assert response.status_code == 308


async def test_redirect_to_encodes_other_characters(client: httpx.AsyncClient) -> None:
    response = await client.get("/redirect-to", params={"url": "/cafés?q=a b&x=%41"})
    assert response.status_code == 302
    assert response.headers["location"] == "/caf%C3%A9s?q=a%20b&x=%41"


@pytest.mark.parametrize(
    "url",
    ["http://evil.example/", "//evil.example/x", "evil", "/\\evil.example", "javascript:x", ""],
)
async def test_redirect_to_refuses_other_hosts(client: httpx.AsyncClient, url: str) -> None:
    response = await client.get("/redirect-to", params={"url": url})
    assert response.status_code == 400
    assert response.json()["parameter"] == "url"


@pytest.mark.parametrize(
    ("params", "parameter"),
    [({"url": "/", "status": "200"}, "status"), ({}, "url"), ({"url": "/", "x": "1"}, "x")],
)
async def test_redirect_to_bad_parameters(
    client: httpx.AsyncClient, params: dict[str, str], parameter: str
) -> None:
    response = await client.get("/redirect-to", params=params)
    assert response.status_code == 400
    assert response.json()["parameter"] == parameter


def test_307_over_a_real_socket(live_server: BackgroundServer) -> None:
    with httpx.Client(base_url=live_server.url, follow_redirects=True, headers=ADMIN) as http:
        response = http.put("/redirect/307", content=b"kept")
        assert response.json()["method"] == "PUT"
        assert response.json()["body"] == "kept"
        assert http.get(f"/redirect/{MAX_HOPS}").status_code == 200
