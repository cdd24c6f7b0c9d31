"""Fields every answer carries: Date, ``Server: restwalk-mock/<version>``, the JSON charset."""

from __future__ import annotations

from importlib.metadata import version

import httpx
import pytest

from mock_server.http.every_answer import SERVER, VERSION, finish, with_charset
from tests.mock_server.conftest import ADMIN

HAL_AS_SIREN = {"Accept": "application/vnd.siren+json"}
JSON_API = {"Accept": "application/vnd.api+json"}


def test_the_charset_is_said_on_json_only() -> None:
    assert with_charset(b"application/json") == b"application/json; charset=utf-8"
    assert with_charset(b"application/hal+json") == b"application/hal+json; charset=utf-8"
    assert with_charset(b"application/json; charset=UTF-8") == b"application/json; charset=UTF-8"
    assert with_charset(b"application/vnd.api+json") == b"application/vnd.api+json"
    assert with_charset(b"text/csv; charset=utf-8") == b"text/csv; charset=utf-8"
    assert with_charset(b"application/xml") == b"application/xml"


def test_finish_keeps_what_is_set() -> None:
    headers = finish([(b"date", b"x"), (b"server", b"y")], 0.0)
    assert headers == [(b"date", b"x"), (b"server", b"y")]
    added = dict(finish([], 0.0))
    assert added[b"server"] == SERVER.encode()
    assert added[b"date"] == b"Thu, 01 Jan 1970 00:00:00 GMT"


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("GET", "/", {}),
        ("GET", "/customers/1", {}),
        ("GET", "/customers?limit=nope", {}),
        ("GET", "/orders", {}),
        ("GET", "/nowhere", {}),
        ("OPTIONS", "/customers", {}),
        ("DELETE", "/customers/2", ADMIN),
        ("GET", "/status/503", {}),
    ],
)
async def test_every_answer_names_the_server(
    client: httpx.AsyncClient, method: str, path: str, headers: dict[str, str]
) -> None:
    response = await client.request(method, path, headers=headers)
    assert response.headers["server"] == f"restwalk-mock/{VERSION}"
    assert "date" in response.headers


@pytest.mark.parametrize(
    ("path", "headers", "content_type"),
    [
        ("/customers/1", {}, "application/hal+json; charset=utf-8"),
        ("/customers/1", {"Accept": "application/json"}, "application/json; charset=utf-8"),
        ("/customers/1", HAL_AS_SIREN, "application/vnd.siren+json; charset=utf-8"),
        ("/customers/1", JSON_API, "application/vnd.api+json"),
        ("/customers/0", {}, "application/problem+json; charset=utf-8"),
        ("/openapi.json", {}, "application/json; charset=utf-8"),
    ],
)
async def test_json_answers_say_utf_8(
    client: httpx.AsyncClient, path: str, headers: dict[str, str], content_type: str
) -> None:
    response = await client.get(path, headers=headers)
    assert response.headers["content-type"] == content_type


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/auth/token", {"username": "alice", "password": "wonderland"}),
        ("/auth/session", {"username": "alice", "password": "wonderland"}),
        ("/auth/token", {"username": "alice", "password": "wrong"}),
    ],
)
async def test_login_answers_are_no_store_without_pragma(
    client: httpx.AsyncClient, path: str, body: dict[str, str]
) -> None:
    response = await client.post(path, json=body)
    assert response.headers["cache-control"] == "no-store"
    assert "pragma" not in response.headers


async def test_the_201_demo_says_where(client: httpx.AsyncClient) -> None:
    response = await client.get("/status/201")
    assert response.status_code == 201
    assert response.headers["location"] == "/status/200"


def test_the_server_field_names_the_installed_restwalk() -> None:
    assert version("restwalk") == VERSION
    assert f"restwalk-mock/{version('restwalk')}" == SERVER
