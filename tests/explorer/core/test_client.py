"""The client: exchanges recorded hop by hop, cookies, login, errors, HTTP/2."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from explorer.core.http import errors
from explorer.core.http.client import REDIRECT_STATUSES, Client, next_hop
from explorer.core.http.one_off import send
from explorer.core.http.request import (
    BasicAuth,
    BearerAuth,
    CookieSession,
    LoginFlow,
    RequestSpec,
)
from explorer.core.http.wire import request_text, response_text
from mock_server import Settings, create_app
from tests.explorer.servers import HypercornServer, RawServer, closed_port, read_head
from tests.mock_server.conftest import TEST_HOSTS

BASE = "http://app.test"


async def echo(request: Request) -> Response:
    """What the server saw: method, path, query, body, some headers."""
    body = await request.body()
    return JSONResponse(
        {
            "method": request.method,
            "path": request.url.path,
            "query": str(request.url.query),
            "body": body.decode(),
            "content_type": request.headers.get("content-type"),
            "authorization": request.headers.get("authorization"),
            "cookie": request.headers.get("cookie"),
            "custom": request.headers.get("custom-header"),
            "http_version": request.scope.get("http_version"),
        }
    )


async def redirect(request: Request) -> Response:
    """``/redirect/{status}/{n}``: n redirects with ``status``, then the echo."""
    status = int(request.path_params["status"])
    n = int(request.path_params["n"])
    target = f"/redirect/{status}/{n - 1}" if n > 1 else "/echo"
    return Response(status_code=status, headers={"Location": target})


async def loop(request: Request) -> Response:
    return RedirectResponse("/loop", status_code=302)


async def away(request: Request) -> Response:
    return RedirectResponse("http://other.test/echo", status_code=307)


async def set_cookie(request: Request) -> Response:
    response = PlainTextResponse("set")
    response.set_cookie("session", "s-1", httponly=True)
    return response


ISSUED: list[str] = []
CLOSED: list[bool] = []


async def token(request: Request) -> Response:
    data = orjson.loads(await request.body())
    if data == {"username": "alice", "password": "wonderland"}:
        ISSUED.append(f"tok-{len(ISSUED) + 1}")
        return JSONResponse({"access_token": ISSUED[-1], "token_type": "Bearer"})
    return JSONResponse({"title": "Unauthorized"}, status_code=401)


async def private(request: Request) -> Response:
    """Only the newest token works: older ones have "expired"."""
    if not CLOSED and ISSUED and request.headers.get("authorization") == f"Bearer {ISSUED[-1]}":
        return PlainTextResponse("welcome")
    return PlainTextResponse("expired", status_code=401)


async def gzipped(request: Request) -> Response:
    import gzip

    return Response(
        gzip.compress(b"hello " * 100),
        headers={"Content-Encoding": "gzip", "Content-Type": "text/plain"},
    )


app = Starlette(
    routes=[
        Route("/echo", echo, methods=["GET", "POST", "PUT", "HEAD", "BREW", "DELETE"]),
        Route("/redirect/{status}/{n}", redirect, methods=["GET", "POST", "HEAD"]),
        Route("/loop", loop),
        Route("/away", away),
        Route("/set-cookie", set_cookie, methods=["POST"]),
        Route("/auth/token", token, methods=["POST"]),
        Route("/private", private),
        Route("/gzip", gzipped),
    ]
)


@pytest.fixture
async def client() -> AsyncIterator[Client]:
    async with Client(transport=httpx.ASGITransport(app)) as made:
        yield made


def seen(exchange: Any) -> dict[str, Any]:
    document: dict[str, Any] = orjson.loads(exchange.response.body)
    return document


# --- one exchange ------------------------------------------------------------------


async def test_a_plain_exchange_records_request_response_and_timings(client: Client) -> None:
    exchange = await client.send(RequestSpec("GET", f"{BASE}/echo?x=1"))
    assert exchange.hops == ()
    assert exchange.request == exchange.final
    assert exchange.request.method == "GET"
    assert exchange.request.url == f"{BASE}/echo?x=1"
    assert ("Host", "app.test") in exchange.request.headers
    assert exchange.response.status == 200
    assert exchange.response.reason == "OK"
    assert exchange.response.http_version == "HTTP/1.1"
    assert exchange.response.media_type == "application/json"
    assert seen(exchange)["query"] == "x=1"
    assert 0 <= exchange.timings.headers <= exchange.timings.total
    assert exchange.response.wire_size == len(exchange.response.body)
    assert request_text(exchange.request).startswith("GET /echo?x=1 HTTP/1.1\nHost: app.test\n")
    assert response_text(exchange.response).startswith("HTTP/1.1 200 OK\n")


async def test_custom_methods_and_bodies_reach_the_server(client: Client) -> None:
    exchange = await client.send(RequestSpec("BREW", f"{BASE}/echo", body="earl grey"))
    assert seen(exchange)["method"] == "BREW"
    assert seen(exchange)["body"] == "earl grey"
    assert exchange.request.body == b"earl grey"


async def test_versions_and_auth_reach_the_server(client: Client) -> None:
    spec = RequestSpec(
        "GET", f"{BASE}/echo", api_version=2, version_style="header", auth=BearerAuth("t")
    )
    exchange = await client.send(spec)
    assert seen(exchange)["custom"] == "api-version=2"
    assert seen(exchange)["authorization"] == "Bearer t"
    assert "Authorization: Bearer ****" in request_text(exchange.request)


async def test_compressed_bodies_are_decoded_and_the_wire_size_kept(client: Client) -> None:
    exchange = await client.send(RequestSpec("GET", f"{BASE}/gzip"))
    assert exchange.response.body == b"hello " * 100
    assert exchange.response.wire_size is not None
    assert exchange.response.wire_size < len(exchange.response.body)


# --- redirects ---------------------------------------------------------------------------


async def test_a_redirect_chain_is_recorded_hop_by_hop(client: Client) -> None:
    exchange = await client.send(RequestSpec("GET", f"{BASE}/redirect/302/3"))
    assert [hop.response.status for hop in exchange.hops] == [302, 302, 302]
    assert [hop.request.url for hop in exchange.hops] == [
        f"{BASE}/redirect/302/3",
        f"{BASE}/redirect/302/2",
        f"{BASE}/redirect/302/1",
    ]
    assert exchange.hops[0].response.header("location") == "/redirect/302/2"
    assert exchange.request.url == f"{BASE}/redirect/302/3"
    assert exchange.final.url == f"{BASE}/echo"
    assert exchange.response.status == 200


@pytest.mark.parametrize(
    ("status", "method", "expected_method", "body_kept"),
    [
        (303, "POST", "GET", False),
        (303, "HEAD", "HEAD", False),
        (302, "POST", "GET", False),
        (301, "POST", "GET", False),
        (302, "GET", "GET", False),
        (307, "POST", "POST", True),
        (308, "POST", "POST", True),
    ],
)
async def test_redirect_methods_follow_browsers(
    client: Client, status: int, method: str, expected_method: str, body_kept: bool
) -> None:
    spec = RequestSpec(method, f"{BASE}/redirect/{status}/1", body='{"a": 1}')
    if method != "POST":
        spec = RequestSpec(method, f"{BASE}/redirect/{status}/1")
    exchange = await client.send(spec)
    assert exchange.final.method == expected_method
    assert exchange.hops[0].request.method == method
    assert (exchange.final.body == b'{"a": 1}') is body_kept
    headers = {name.lower() for name, _ in exchange.final.headers}
    assert ("content-type" in headers) is body_kept
    if expected_method != "HEAD":
        assert seen(exchange)["method"] == expected_method
        assert seen(exchange)["body"] == ('{"a": 1}' if body_kept else "")


async def test_redirects_can_be_left_unfollowed(client: Client) -> None:
    exchange = await client.send(
        RequestSpec("GET", f"{BASE}/redirect/301/2"), follow_redirects=False
    )
    assert exchange.hops == ()
    assert exchange.response.status == 301
    assert exchange.response.header("Location") == "/redirect/301/1"


async def test_a_redirect_loop_stops_at_the_limit(client: Client) -> None:
    with pytest.raises(errors.TooManyRedirects) as info:
        await client.send(RequestSpec("GET", f"{BASE}/loop"), max_redirects=4)
    assert "more than 4" in info.value.message
    assert len(info.value.hops) == 5  # the trip so far, for the TUI's trip tab
    assert all(hop.response.status in REDIRECT_STATUSES for hop in info.value.hops)
    assert info.value.hint.startswith(f"It is a redirect loop: {BASE}/loop came back.")


async def test_a_chain_longer_than_the_limit_is_said_to_be_no_loop(client: Client) -> None:
    with pytest.raises(errors.TooManyRedirects) as info:
        await client.send(RequestSpec("GET", f"{BASE}/redirect/302/5"), max_redirects=2)
    assert "more than 2" in info.value.message
    assert info.value.hint == (
        "No URL came back, so it is no loop: the chain is longer than 2 redirects. "
        "--max-redirects 10 follows more."
    )
    assert "loop" not in info.value.hint_in_browser.replace("no loop", "")
    assert "The Trip tab (t) lists each one" in info.value.hint_in_browser


async def test_credentials_do_not_leave_the_origin() -> None:
    request = httpx.Request(
        "GET", f"{BASE}/away", headers={"Authorization": "Bearer t", "Cookie": "a=b"}
    )
    response = httpx.Response(307, headers={"Location": "http://other.test/echo"})
    following = next_hop(request, response)
    assert following is not None
    assert "authorization" not in following.headers
    assert "cookie" not in following.headers
    assert following.headers["host"] == "other.test"
    same = next_hop(request, httpx.Response(307, headers={"Location": "/echo"}))
    assert same is not None
    assert same.headers["authorization"] == "Bearer t"


def test_next_hop_ignores_non_redirects_and_bad_locations() -> None:
    request = httpx.Request("GET", f"{BASE}/x")
    assert next_hop(request, httpx.Response(200, headers={"Location": "/y"})) is None
    assert next_hop(request, httpx.Response(304)) is None
    assert next_hop(request, httpx.Response(302, headers={"Location": "http://[::1"})) is None


# --- cookies and login ------------------------------------------------------------------------


async def test_cookies_persist_across_requests_of_one_client(client: Client) -> None:
    await client.send(RequestSpec("POST", f"{BASE}/set-cookie"))
    assert client.cookies.get("session") == "s-1"
    exchange = await client.send(RequestSpec("GET", f"{BASE}/echo"))
    assert seen(exchange)["cookie"] == "session=s-1"
    assert "Cookie: session=****" in request_text(exchange.request)


async def test_a_cookie_session_is_sent_with_jar_cookies_and_through_redirects(
    client: Client,
) -> None:
    await client.send(RequestSpec("POST", f"{BASE}/set-cookie"))
    spec = RequestSpec("GET", f"{BASE}/redirect/302/2", auth=CookieSession((("theme", "dark"),)))
    exchange = await client.send(spec)
    assert seen(exchange)["cookie"] == "theme=dark; session=s-1"


async def test_a_login_flow_logs_in_once_and_sends_the_token(client: Client) -> None:
    ISSUED.clear()
    flow = LoginFlow(f"{BASE}/auth/token", "alice", "wonderland")
    first = await client.send(RequestSpec("GET", f"{BASE}/echo", auth=flow))
    assert seen(first)["authorization"] == "Bearer tok-1"
    assert client.last_login is not None
    assert client.last_login.request.method == "POST"
    login = client.last_login
    await client.send(RequestSpec("GET", f"{BASE}/echo", auth=flow))
    assert client.last_login is login  # the token was remembered


async def test_an_expired_token_means_one_new_login(client: Client) -> None:
    ISSUED.clear()
    flow = LoginFlow(f"{BASE}/auth/token", "alice", "wonderland")
    assert (await client.send(RequestSpec("GET", f"{BASE}/private", auth=flow))).response.body
    ISSUED.append("tok-from-elsewhere")  # the remembered tok-1 no longer works
    exchange = await client.send(RequestSpec("GET", f"{BASE}/private", auth=flow))
    assert exchange.response.status == 200
    assert ("Authorization", "Bearer tok-3") in exchange.request.headers
    CLOSED.append(True)  # now no token works: the 401 is shown after one more login
    try:
        exchange = await client.send(RequestSpec("GET", f"{BASE}/private", auth=flow))
    finally:
        CLOSED.clear()
    assert exchange.response.status == 401
    assert ISSUED == ["tok-1", "tok-from-elsewhere", "tok-3", "tok-4"]


async def test_a_failed_login_is_a_login_error(client: Client) -> None:
    flow = LoginFlow(f"{BASE}/auth/token", "alice", "nope")
    with pytest.raises(errors.LoginFailed) as info:
        await client.send(RequestSpec("GET", f"{BASE}/echo", auth=flow))
    assert "401" in info.value.message


async def test_module_send_accepts_an_httpx_client() -> None:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app)) as http:
        exchange = await send(
            RequestSpec("GET", f"{BASE}/echo", auth=BasicAuth("a", "b")), client=http
        )
        assert seen(exchange)["authorization"] == "Basic YTpi"
        assert not http.is_closed


async def test_bad_input_is_refused_before_sending(client: Client) -> None:
    with pytest.raises(errors.InvalidMethod):
        await client.send(RequestSpec("GE T", f"{BASE}/echo"))


# --- the mock server in-process ------------------------------------------------------------------


MOCK = "http://mock.test"


@pytest.fixture
async def mock_client() -> AsyncIterator[Client]:
    mock = create_app(Settings(rate_limit=None, allowed_hosts=TEST_HOSTS))
    async with Client(transport=httpx.ASGITransport(mock)) as made:
        yield made


async def test_the_mock_server_root_in_process(mock_client: Client) -> None:
    exchange = await mock_client.send(RequestSpec("GET", f"{MOCK}/"))
    assert exchange.response.status == 200
    assert exchange.response.media_type == "application/hal+json"
    assert "_links" in seen(exchange)


async def test_the_mock_redirect_chain(mock_client: Client) -> None:
    exchange = await mock_client.send(RequestSpec("GET", f"{MOCK}/redirect/3"))
    assert [(hop.request.url, hop.response.status) for hop in exchange.hops] == [
        (f"{MOCK}/redirect/3", 302),
        (f"{MOCK}/redirect/2", 302),
        (f"{MOCK}/redirect/1", 302),
    ]
    assert all(type(hop.response.status) is int for hop in exchange.hops)
    assert exchange.final.url == f"{MOCK}/redirect/0"
    assert seen(exchange)["hops"] == 0


async def test_the_mock_moved_clients_keep_the_query(mock_client: Client) -> None:
    exchange = await mock_client.send(RequestSpec("GET", f"{MOCK}/clients/1?version=2"))
    assert [hop.response.status for hop in exchange.hops] == [301]
    assert exchange.final.url == f"{MOCK}/customers/1?version=2"
    assert seen(exchange)["address"]["city"]


@pytest.mark.parametrize(
    ("status", "method", "length"), [(303, "GET", 0), (307, "POST", 8), (308, "POST", 8)]
)
async def test_the_mock_echo_sees_the_method_after_a_redirect(
    mock_client: Client, status: int, method: str, length: int
) -> None:
    spec = RequestSpec("POST", f"{MOCK}/redirect/{status}", body='{"a": 1}')
    exchange = await mock_client.send(spec)
    assert exchange.hops[0].request.method == "POST"
    assert exchange.hops[0].response.status == status
    assert seen(exchange)["method"] == method
    assert seen(exchange)["bodyLength"] == length


@pytest.mark.parametrize("style", ["json", "form", "basic"])
async def test_the_mock_login_flow_in_every_style(mock_client: Client, style: str) -> None:
    flow = LoginFlow(f"{MOCK}/auth/token", "alice", "wonderland", style=style)  # type: ignore[arg-type]
    exchange = await mock_client.send(RequestSpec("GET", f"{MOCK}/orders", auth=flow))
    assert exchange.response.status == 200
    assert mock_client.last_login is not None
    assert mock_client.last_login.response.status == 200


async def test_the_mock_asks_for_a_credential_and_a_session_cookie_answers(
    mock_client: Client,
) -> None:
    refused = await mock_client.send(RequestSpec("GET", f"{MOCK}/orders"))
    assert refused.response.status == 401
    assert "Bearer" in (refused.response.header("WWW-Authenticate") or "")
    login = RequestSpec(
        "POST", f"{MOCK}/auth/session", body='{"username": "bob", "password": "builder"}'
    )
    assert (await mock_client.send(login)).response.status == 204
    assert mock_client.cookies.get("session")
    exchange = await mock_client.send(RequestSpec("GET", f"{MOCK}/orders"))
    assert exchange.response.status == 200
    assert "Cookie: session=****" in request_text(exchange.request)


# --- errors over real sockets ---------------------------------------------------------------------


async def test_a_closed_port_is_connection_refused() -> None:
    url = f"http://127.0.0.1:{closed_port()}/"
    with pytest.raises(errors.ConnectionRefused) as info:
        await send(RequestSpec("GET", url))
    assert "nothing is listening" in info.value.explanation
    assert info.value.hint
    assert info.value.url == url


def close_mid_body(conn: socket.socket) -> None:
    read_head(conn)
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nhello")
    conn.close()


async def test_a_server_closing_mid_body_is_a_protocol_error() -> None:
    with RawServer(close_mid_body) as server, pytest.raises(errors.ProtocolError) as info:
        await send(RequestSpec("GET", server.url + "/"))
    assert "before the whole response arrived" in info.value.message


def malformed(conn: socket.socket) -> None:
    read_head(conn)
    conn.sendall(b"NOT HTTP AT ALL\r\n\r\n")
    conn.close()


async def test_a_malformed_response_is_a_protocol_error() -> None:
    with RawServer(malformed) as server, pytest.raises(errors.ProtocolError):
        await send(RequestSpec("GET", server.url + "/"))


def never_answer(conn: socket.socket) -> None:
    read_head(conn)
    time.sleep(3)


async def test_a_server_that_never_answers_times_out() -> None:
    with RawServer(never_answer) as server:
        started = time.perf_counter()
        with pytest.raises(errors.ReadTimeout) as info:
            await send(RequestSpec("GET", server.url + "/"), timeout=0.3)
        assert time.perf_counter() - started < 2
    assert "no answer in time" in info.value.explanation


def stall_mid_body(conn: socket.socket) -> None:
    read_head(conn)
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"x" * 100)
    time.sleep(3)


async def test_a_body_that_stops_coming_times_out_saying_the_head_came() -> None:
    """Not "sent no answer": the head and part of the body had come."""
    with RawServer(stall_mid_body) as server, pytest.raises(errors.ReadTimeout) as info:
        await send(RequestSpec("GET", server.url + "/"), timeout=0.3)
    assert info.value.explanation == ("The answer's head came (200), then its body stopped coming.")
    assert "no more of the answer came in time" in info.value.message


async def test_tls_to_a_plain_http_port_is_a_tls_error() -> None:
    def plain(conn: socket.socket) -> None:
        conn.recv(1024)
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
        conn.close()

    with RawServer(plain) as server, pytest.raises(errors.TLSError) as info:
        await send(RequestSpec("GET", f"https://127.0.0.1:{server.port}/"), timeout=5)
    assert "plain HTTP" in info.value.explanation


# --- HTTP/2 with Hypercorn ---------------------------------------------------------------


async def test_http2_over_tls_by_alpn(tmp_path: Path) -> None:
    mock = create_app(Settings(rate_limit=None))
    with HypercornServer(mock, tls=True, tmp_path=tmp_path) as server:
        assert server.client_context is not None
        async with Client(http2=True, verify=server.client_context) as made:
            exchange = await made.send(RequestSpec("GET", server.url + "/"))
            plain = await send(RequestSpec("GET", server.url + "/"), verify=server.client_context)
    assert exchange.response.http_version == "HTTP/2"
    assert exchange.request.http_version == "HTTP/2"
    assert exchange.response.status == 200
    assert response_text(exchange.response).startswith("HTTP/2 200 OK\n")
    assert "_links" in seen(exchange)
    assert plain.response.http_version == "HTTP/1.1"


async def test_an_untrusted_certificate_is_a_tls_error(tmp_path: Path) -> None:
    server = HypercornServer(app, tls=True, tmp_path=tmp_path)
    with server, pytest.raises(errors.TLSError) as info:
        await send(RequestSpec("GET", server.url + "/echo"))
    assert "certificate" in info.value.message.lower()


async def test_http2_prior_knowledge_over_cleartext(tmp_path: Path) -> None:
    with HypercornServer(app, tls=False, tmp_path=tmp_path) as server:
        exchange = await send(RequestSpec("GET", server.url + "/echo"), http2_prior_knowledge=True)
        plain = await send(RequestSpec("GET", server.url + "/echo"))
    assert exchange.response.http_version == "HTTP/2"
    assert seen(exchange)["http_version"] == "2"
    assert plain.response.http_version == "HTTP/1.1"


async def test_concurrent_sends_share_one_client(client: Client) -> None:
    results = await asyncio.gather(
        *(client.send(RequestSpec("GET", f"{BASE}/echo?n={n}")) for n in range(5))
    )
    assert [seen(r)["query"] for r in results] == [f"n={n}" for n in range(5)]


def test_the_core_does_not_import_textual() -> None:
    code = (
        "import sys\n"
        "import explorer.core.http.client, explorer.core.http.request, explorer.core.http.wire\n"
        "import explorer.core.http.errors, explorer.cli\n"
        "assert 'textual' not in sys.modules\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert result.returncode == 0, result.stderr


async def test_non_ascii_header_values_go_as_utf8_and_survive_redirects(client: Client) -> None:
    spec = RequestSpec("GET", f"{BASE}/redirect/307/1", headers=(("X-Name", "Zoë"),))
    exchange = await client.send(spec)
    assert exchange.response.status == 200
    assert ("X-Name", "Zoë") in exchange.final.headers
    assert "X-Name: Zoë" in request_text(exchange.hops[0].request)


async def test_the_request_shows_the_version_restwalk_sent_not_the_servers() -> None:
    """An HTTP/1.0 server answers a 1.1 request with 1.0: the request was still 1.1."""

    def http10(conn: socket.socket) -> None:
        read_head(conn)
        conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")
        conn.close()

    with RawServer(http10) as server:
        exchange = await send(RequestSpec(url=server.url + "/"))
    assert exchange.response.http_version == "HTTP/1.0"
    assert request_text(exchange.request).startswith("GET / HTTP/1.1\n")


async def test_a_cookie_that_is_not_ascii_goes_back_as_the_server_set_it() -> None:
    """RFC 6265 allows no such value, but a server may set one; it must not make every
    later request to the server fail (httpx encodes a Cookie header as ASCII)."""
    heads: list[bytes] = []

    def handler(conn: socket.socket) -> None:
        while head := read_head(conn):
            heads.append(head)
            cookie = b"Set-Cookie: s=a\x9bb\xe9; Path=/\r\n" if len(heads) == 1 else b""
            conn.sendall(b"HTTP/1.1 200 OK\r\n" + cookie + b"Content-Length: 2\r\n\r\nok")

    with RawServer(handler) as server:
        async with Client() as client:
            await client.send(RequestSpec("GET", server.url + "/set"))
            exchange = await client.send(RequestSpec("GET", server.url + "/again"))
    assert exchange.response.status == 200
    assert b"\r\nCookie: s=a\x9bb\xe9\r\n" in heads[1]


async def test_httpcore_finds_which_async_library_runs_it_without_searching_the_path() -> None:
    # httpcore imports sniffio four times a request; missing, each import searched sys.path.
    from httpcore._synchronization import current_async_library

    assert current_async_library() == "asyncio"
    assert "sniffio" in sys.modules
