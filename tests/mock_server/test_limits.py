"""Protocol limits: 414, 431, 413 (connection closed), 411, 417, 505, Expect: 100-continue.

In-process checks of the layer first, then the socket-level behaviour that only
a real server shows: the connection closed after a 413, and the interim
``100 Continue`` sent only when the body is actually wanted.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import h11
import httpx
import pytest

from mock_server import BackgroundServer, create_app
from mock_server.transport.h11_protocol import describe
from tests.mock_server.conftest import ADMIN, asgi_client, make_settings
from tests.mock_server.rawhttp import Reader, connect, request

AUTH = f"Authorization: {ADMIN['Authorization']}"
JSON = "Content-Type: application/json"
CUSTOMER = b'{"name": "Limits Test", "address": "1 Main St, Springfield, IL 62701"}'
LIMITS: dict[str, Any] = {
    "max_uri_length": 100,
    "max_header_size": 1000,
    "max_field_size": 300,
    "max_body_size": 200,
}


@pytest.fixture
async def limited() -> AsyncIterator[httpx.AsyncClient]:
    async with asgi_client(create_app(make_settings(**LIMITS))) as client:
        yield client


@pytest.fixture
def server(http_parser: str) -> Iterator[BackgroundServer]:
    with BackgroundServer(make_settings(**LIMITS, http_parser=http_parser)) as running:
        yield running


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    document: dict[str, Any] = response.json()
    assert document["status"] == status
    return document


# --- 414 -------------------------------------------------------------------------------


async def test_long_target_is_414(limited: httpx.AsyncClient) -> None:
    response = await limited.get("/customers", params={"name": "x" * 100})
    assert "limit is 100" in problem(response, 414)["detail"]


async def test_target_at_the_limit_is_served(limited: httpx.AsyncClient) -> None:
    target = "/customers?name=" + "x" * (100 - len("/customers?name="))
    assert len(target) == 100
    assert (await limited.get(target)).status_code == 200


# --- 431 -------------------------------------------------------------------------------


async def test_one_large_field_is_431_naming_it(limited: httpx.AsyncClient) -> None:
    response = await limited.get("/", headers={"X-Big": "y" * 300})
    document = problem(response, 431)
    assert document["header"] == "x-big"
    assert "x-big" in document["detail"]


async def test_large_header_section_is_431(limited: httpx.AsyncClient) -> None:
    headers = {f"X-Field-{n}": "z" * 100 for n in range(10)}
    response = await limited.get("/", headers=headers)
    assert "header section" in problem(response, 431)["detail"]


async def test_headers_within_limits_are_served(limited: httpx.AsyncClient) -> None:
    response = await limited.get("/", headers={"X-Fine": "y" * 200})
    assert response.status_code == 200


# --- 413 -------------------------------------------------------------------------------


async def test_content_length_over_the_limit_is_413_with_close(
    limited: httpx.AsyncClient,
) -> None:
    response = await limited.post("/customers", content=b"x" * 201, headers=ADMIN)
    document = problem(response, 413)
    assert document["maxBodySize"] == 200
    assert response.headers["connection"] == "close"
    assert "retry-after" not in response.headers  # a body limit is not temporary


async def test_streamed_body_over_the_limit_is_413(limited: httpx.AsyncClient) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(5):
            yield b"[" + b" " * 58 + b"]"

    response = await limited.post(
        "/customers", content=chunks(), headers={**ADMIN, "Content-Type": "application/json"}
    )
    assert problem(response, 413)["detail"] == "The request body is larger than 200 bytes."
    assert response.headers["connection"] == "close"


async def test_body_at_the_limit_is_read(limited: httpx.AsyncClient) -> None:
    body = CUSTOMER.ljust(200)
    response = await limited.post(
        "/customers", content=body, headers={**ADMIN, "Content-Type": "application/json"}
    )
    assert response.status_code == 201


# --- 417, 505 --------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["teapot", "100-continue, x-other", "200-ok"])
async def test_unknown_expectation_is_417(client: httpx.AsyncClient, value: str) -> None:
    response = await client.get("/", headers={"Expect": value})
    problem(response, 417)


async def test_expect_100_continue_alone_is_accepted(client: httpx.AsyncClient) -> None:
    response = await client.get("/", headers={"Expect": "100-Continue"})
    assert response.status_code == 200


# --- 415 for coded request content ---------------------------------------------------------


@pytest.mark.parametrize("coding", ["gzip", "br", "identity, gzip"])
async def test_request_content_under_a_coding_is_415(
    client: httpx.AsyncClient, coding: str
) -> None:
    """QA 6: a gzipped body was read as it came ("not UTF-8"), and one marked br but not
    coded was created as if unmarked. RFC 7694 §3: 415 with Accept-Encoding."""
    import gzip

    body = gzip.compress(CUSTOMER) if coding == "gzip" else CUSTOMER
    headers = {**ADMIN, "Content-Type": "application/json", "Content-Encoding": coding}
    response = await client.post("/customers", content=body, headers=headers)
    answer = problem(response, 415)
    assert response.headers["accept-encoding"] == "identity"
    assert answer["contentEncoding"] == [coding.rpartition(", ")[2]]
    assert "send it without a content coding" in answer["detail"]
    listed = await client.get("/customers", params={"name": "Limits Test"})
    assert listed.json()["count"] == 0  # nothing was created


@pytest.mark.parametrize("coding", ["identity", ""])
async def test_request_content_as_it_is_is_read(client: httpx.AsyncClient, coding: str) -> None:
    headers = {**ADMIN, "Content-Type": "application/json", "Content-Encoding": coding}
    response = await client.post("/customers", content=CUSTOMER, headers=headers)
    assert response.status_code == 201


async def test_a_coding_named_on_a_request_without_content_is_no_matter(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/customers/1", headers={"Content-Encoding": "gzip"})
    assert response.status_code == 200


# --- h11 errors as problems ------------------------------------------------------------


def test_protocol_describes_a_long_head_by_its_request_line() -> None:
    settings = make_settings(**LIMITS)
    error = h11.RemoteProtocolError("Receive buffer too long", error_status_hint=431)
    assert describe(error, settings, b"GET /" + b"a" * 200)[0] == 414
    assert describe(error, settings, b"GET / HTTP/1.1\r\nX: " + b"a" * 2000)[0] == 431


# --- over a socket ---------------------------------------------------------------------


def test_411_when_a_write_has_no_length(server: BackgroundServer) -> None:
    with connect(server.url) as sock:
        sock.sendall(request("POST", "/customers", JSON, AUTH))
        response = Reader(sock).response()
    assert response.status == 411
    assert "Content-Length" in str(response.problem()["detail"])


@pytest.mark.parametrize("path", ["/orders/2/ship", "/auth/token", "/admin/reset"])
def test_post_without_length_has_no_content_and_is_served(
    server: BackgroundServer, path: str
) -> None:
    # RFC 9112 6.3: no Content-Length and no Transfer-Encoding means no content,
    # which is what `curl -X POST` sends; only a resource that needs a body says 411.
    with connect(server.url) as sock:
        sock.sendall(request("POST", path, AUTH))
        response = Reader(sock).response()
    assert response.status == 200, response.body


def test_413_closes_the_connection(server: BackgroundServer) -> None:
    with connect(server.url) as sock:
        sock.sendall(request("POST", "/customers", "Content-Length: 5000", JSON, AUTH))
        reader = Reader(sock)
        response = reader.response()
        assert response.status == 413
        assert response.headers["connection"] == "close"
        assert reader.closed()


def test_client_sending_its_whole_body_first_reads_the_413(server: BackgroundServer) -> None:
    # Like curl without Expect: the body is sent before the answer is read. Closing
    # at once would reset the connection under the client; the server lingers,
    # discarding the body, so the whole body goes out and the 413 arrives.
    body = b" " * 32_000_000
    head = request("POST", "/customers", f"Content-Length: {len(body)}", JSON, AUTH)
    with connect(server.url) as sock:
        sock.sendall(head + body)
        reader = Reader(sock)
        assert reader.response().status == 413
        assert reader.closed()


def test_chunked_body_growing_past_the_limit_gets_413_and_close(server: BackgroundServer) -> None:
    chunk = b"64\r\n" + b" " * 100 + b"\r\n"
    data = request("POST", "/customers", "Transfer-Encoding: chunked", JSON, AUTH)
    with connect(server.url) as sock:
        sock.sendall(data + chunk * 3)
        reader = Reader(sock)
        response = reader.response()
        assert response.status == 413
        assert response.headers["connection"] == "close"
        assert reader.closed()


def test_expect_100_continue_gets_an_interim_response_first(server: BackgroundServer) -> None:
    head = request(
        "POST",
        "/customers",
        f"Content-Length: {len(CUSTOMER)}",
        "Expect: 100-continue",
        JSON,
        AUTH,
    )
    with connect(server.url) as sock:
        sock.sendall(head)
        reader = Reader(sock)
        interim = reader.response()
        assert interim.head == "HTTP/1.1 100 Continue"
        sock.sendall(CUSTOMER)
        final = reader.response()
    assert final.status == 201


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        (("Content-Length: 5000", AUTH), 413),
        (("Content-Length: 10", "X-Big: " + "y" * 300, AUTH), 431),
        ((f"Content-Length: {len(CUSTOMER)}",), 401),
    ],
)
def test_request_refused_before_its_body_gets_no_100(
    server: BackgroundServer, headers: tuple[str, ...], status: int
) -> None:
    with connect(server.url) as sock:
        sock.sendall(request("POST", "/customers", "Expect: 100-continue", JSON, *headers))
        response = Reader(sock).response()
    assert response.status == status
