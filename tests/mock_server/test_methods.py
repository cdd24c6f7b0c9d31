"""The method policy: OPTIONS, HEAD, TRACE, 405 with Allow, 501, CONNECT, disabled methods."""

from __future__ import annotations

from typing import Any

import httpx
import orjson
import pytest

from mock_server import create_app
from mock_server.app import MockApp
from mock_server.layers.method_policy import RouteMethods, mask_field
from mock_server.resources import build_routes
from tests.mock_server.conftest import ADMIN, asgi_client, make_settings
from tests.mock_server.scopes import http_scope


def allow(response: httpx.Response) -> list[str]:
    return response.headers["allow"].split(", ")


async def call(app: MockApp, method: str, path: str = "/") -> tuple[int, dict[str, str], bytes]:
    """Call the app with a hand-made scope (for what httpx would not send)."""
    scope = http_scope(method, path, [(b"host", b"mock.test")], client=("127.0.0.1", 1234))
    scope["state"] = {}
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start = sent[0]
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], headers, body


# --- OPTIONS ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/", ["GET", "HEAD", "OPTIONS", "TRACE"]),
        ("/customers", ["GET", "HEAD", "POST", "OPTIONS", "TRACE"]),
        ("/customers/1", ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]),
        ("/v2/customers/1", ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]),
        ("/orders/1/place", ["POST", "OPTIONS", "TRACE"]),
    ],
)
async def test_options_answers_204_with_allow(
    client: httpx.AsyncClient, path: str, expected: list[str]
) -> None:
    response = await client.options(path)
    assert response.status_code == 204
    assert allow(response) == expected
    assert response.content == b""


async def test_options_names_the_patch_formats_where_patch_is_allowed(
    client: httpx.AsyncClient,
) -> None:
    item = await client.options("/products/1")
    assert (
        item.headers["accept-patch"] == "application/merge-patch+json, application/json-patch+json"
    )
    assert "accept-patch" not in (await client.options("/products")).headers


async def test_options_on_a_missing_path_is_404(client: httpx.AsyncClient) -> None:
    response = await client.options("/nothing/here")
    assert response.status_code == 404


async def test_options_asterisk_lists_every_enabled_method(app: MockApp) -> None:
    status, headers, _ = await call(app, "OPTIONS", "*")
    assert status == 204
    assert headers["allow"] == "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS, TRACE"


async def test_asterisk_is_only_for_options(app: MockApp) -> None:
    status, _, body = await call(app, "GET", "*")
    assert status == 400
    assert b"only for OPTIONS" in body


def test_allowed_methods_come_from_the_routes(app: MockApp) -> None:
    methods = RouteMethods(build_routes(app.service), frozenset({"DELETE"}))
    assert methods.allowed("/products/7") == ("GET", "HEAD", "PUT", "PATCH", "OPTIONS", "TRACE")
    assert methods.allowed("/v1/products") == methods.allowed("/products")
    assert methods.allowed("/v9/products") is None  # no such version: the router's 404
    assert methods.allowed("/no/such/thing") is None


# --- HEAD ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/customers", "/customers/1", "/v2/products?limit=2"])
async def test_head_is_get_without_body(client: httpx.AsyncClient, path: str) -> None:
    identity = {"Accept-Encoding": "identity"}  # so Content-Length is the length of the body
    get = await client.get(path, headers=identity)
    head = await client.head(path, headers=identity)
    assert head.status_code == get.status_code == 200
    assert head.content == b""
    assert head.headers["content-length"] == str(len(get.content))
    for name in ("content-type", "etag", "cache-control", "api-version", "vary"):
        assert head.headers.get(name) == get.headers.get(name)


async def test_head_of_an_error_has_no_body_either(client: httpx.AsyncClient) -> None:
    head = await client.head("/customers/99999")
    assert head.status_code == 404
    assert head.content == b""
    assert int(head.headers["content-length"]) > 0


async def test_head_refused_by_the_method_policy_has_no_body(client: httpx.AsyncClient) -> None:
    head = await client.head("/orders/1/place", headers=ADMIN)
    assert head.status_code == 405
    assert head.content == b""
    assert head.headers["allow"] == "POST, OPTIONS, TRACE"


# --- TRACE -----------------------------------------------------------------------------


async def test_trace_echoes_the_request_with_credentials_masked(
    client: httpx.AsyncClient,
) -> None:
    response = await client.request(
        "TRACE",
        "/customers?name=x",
        headers={
            "Authorization": "Bearer very.secret.token",
            "Cookie": "session=abc123; theme=dark",
            "X-Note": "hello",
        },
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "message/http"
    text = response.text
    assert text.startswith("TRACE /customers?name=x HTTP/1.1\r\n")
    assert "authorization: Bearer ****\r\n" in text
    assert "cookie: session=****; theme=****\r\n" in text
    assert "x-note: hello\r\n" in text
    assert "secret" not in text
    assert "abc123" not in text
    assert text.endswith("\r\n\r\n")


async def test_trace_masks_basic_credentials(client: httpx.AsyncClient) -> None:
    response = await client.request("TRACE", "/", headers=ADMIN)
    assert "authorization: Basic ****" in response.text
    assert ADMIN["Authorization"].split()[1] not in response.text


def test_mask_field_keeps_only_the_scheme_and_cookie_names() -> None:
    assert mask_field(b"authorization", b"Digest username=x") == "Digest ****"
    assert mask_field(b"proxy-authorization", b"opaque") == "****"
    assert mask_field(b"cookie", b"a=1;b=2") == "a=****; b=****"


async def test_trace_with_content_is_refused(client: httpx.AsyncClient) -> None:
    response = await client.request("TRACE", "/", content=b"body")
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"


# --- 405, 501, CONNECT, disabled methods -----------------------------------------------


async def test_method_not_allowed_on_path_is_405_with_allow(client: httpx.AsyncClient) -> None:
    response = await client.delete("/customers", headers=ADMIN)
    assert response.status_code == 405
    assert allow(response) == ["GET", "HEAD", "POST", "OPTIONS", "TRACE"]
    problem = response.json()
    assert problem["status"] == 405
    assert "DELETE" in problem["detail"]


async def test_get_on_an_action_path_is_405(client: httpx.AsyncClient) -> None:
    response = await client.get("/orders/1/ship", headers=ADMIN)
    assert response.status_code == 405
    assert allow(response) == ["POST", "OPTIONS", "TRACE"]


async def test_unknown_method_is_501(client: httpx.AsyncClient) -> None:
    response = await client.request("BREW", "/")
    assert response.status_code == 501
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert "BREW" in response.json()["detail"]


async def test_method_that_is_not_a_token_is_400(app: MockApp) -> None:
    status, headers, body = await call(app, "BR(EW)")
    assert status == 400
    assert headers["content-type"] == "application/problem+json; charset=utf-8"
    assert orjson.loads(body)["status"] == 400


async def test_connect_is_405_not_a_proxy(client: httpx.AsyncClient) -> None:
    response = await client.request("CONNECT", "/customers")
    assert response.status_code == 405
    assert "proxy" in response.json()["detail"]
    assert "CONNECT" not in allow(response)
    assert "GET" in allow(response)


async def test_disabled_methods_leave_the_hal_forms_templates() -> None:
    app = create_app(make_settings(disabled_methods=frozenset({"PUT", "DELETE"})))
    async with asgi_client(app) as client:
        item = (await client.get("/orders/1", headers=ADMIN)).json()
        methods = {template["method"] for template in item["_templates"].values()}
        assert methods == {"PATCH", "POST"}
        page = (await client.get("/customers", headers=ADMIN)).json()
        assert page["_templates"]["create"]["method"] == "POST"
        siren = await client.get("/customers/1", headers={"Accept": "application/vnd.siren+json"})
        assert {action["method"] for action in siren.json()["actions"]} == {"PATCH"}


async def test_disabled_method_is_405_everywhere_and_left_out_of_allow() -> None:
    app = create_app(make_settings(disabled_methods=frozenset({"PUT", "TRACE"})))
    async with asgi_client(app) as client:
        for path in ("/customers/1", "/", "/no/such/path"):
            response = await client.put(path, json={"name": "x"}, headers=ADMIN)
            assert response.status_code == 405
            assert "disabled" in response.json()["detail"]
            assert "PUT" not in allow(response)
        trace = await client.request("TRACE", "/")
        assert trace.status_code == 405
        options = await client.options("/customers/1")
        assert options.status_code == 204
        assert allow(options) == ["GET", "HEAD", "PATCH", "DELETE", "OPTIONS"]
        assert (await client.get("/customers/1")).status_code == 200
