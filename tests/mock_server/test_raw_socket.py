"""The server over a real socket: what only the HTTP/1.1 implementation sees.

Malformed input must get a proper status with a problem body, and the server
must keep serving afterwards. Each test talks to a real uvicorn server, once
with each HTTP/1.1 parser (httptools and h11).
"""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator

import orjson
import pytest

from mock_server import BackgroundServer
from tests.mock_server.conftest import ADMIN, make_settings
from tests.mock_server.rawhttp import Reader, connect, exchange, request

AUTH = f"Authorization: {ADMIN['Authorization']}"
JSON = "Content-Type: application/json"
CUSTOMER = b'{"name": "Raw Socket", "address": "1 Main St, Springfield, IL 62701"}'


def assert_still_serving(url: str) -> None:
    """A fresh, well-formed request still gets its answer."""
    assert exchange(url, request("GET", "/")).status == 200


@pytest.fixture
def short_idle(http_parser: str) -> Iterator[BackgroundServer]:
    """A server that closes idle connections after 0.3 s."""
    settings = make_settings(keep_alive_seconds=0.3, http_parser=http_parser)
    with BackgroundServer(settings) as server:
        yield server


# --- Upgrade: ignored, as RFC 9110 §7.8 allows ---------------------------------------


@pytest.mark.parametrize(
    "upgrade",
    [
        (
            "Upgrade: websocket",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version: 13",
        ),
        ("Upgrade: h2c", "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA"),
    ],
    ids=["websocket", "h2c"],
)
def test_an_upgrade_request_is_answered_in_http11_without_warnings(
    live_server: BackgroundServer, upgrade: tuple[str, ...], caplog: pytest.LogCaptureFixture
) -> None:
    # An earlier test in this process that served with uvicorn's own logging config
    # stopped "uvicorn" from propagating to the root, where caplog listens (the files'
    # order decides whether one ran): listen on the logger itself.
    logger = logging.getLogger("uvicorn.error")
    caplog.set_level("DEBUG", logger="uvicorn.error")
    logger.addHandler(caplog.handler)
    try:
        data = request("GET", "/", "Connection: Upgrade", *upgrade)
        response = exchange(live_server.url, data)
    finally:
        logger.removeHandler(caplog.handler)
    assert response.status == 200
    assert response.head.startswith("HTTP/1.1 200")
    assert "upgrade" not in response.headers
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert "ignored" in caplog.text


# --- methods and versions that h11 lets through to the application --------------------


def test_unknown_method_reaches_the_app_and_gets_501(live_server: BackgroundServer) -> None:
    response = exchange(live_server.url, request("BREW", "/"))
    assert response.status == 501
    assert "BREW" in str(response.problem()["detail"])
    assert_still_serving(live_server.url)


@pytest.mark.parametrize("version", ["2.5", "3.0", "0.9"])
def test_unsupported_version_gets_505_and_close(
    live_server: BackgroundServer, version: str
) -> None:
    with connect(live_server.url) as sock:
        sock.sendall(request("GET", "/", version=version))
        reader = Reader(sock)
        response = reader.response()
        assert response.status == 505
        assert f"HTTP/{version}" in str(response.problem()["detail"])
        assert response.headers["connection"] == "close"
        assert reader.closed()
    assert_still_serving(live_server.url)


def test_http_1_0_is_served(live_server: BackgroundServer) -> None:
    assert exchange(live_server.url, request("GET", "/", version="1.0")).status == 200


def test_a_later_http_1_minor_version_is_served_as_1_1(live_server: BackgroundServer) -> None:
    # RFC 9112 2.3: same major version, higher minor: process it as HTTP/1.1.
    response = exchange(live_server.url, request("GET", "/", version="1.2"))
    assert response.status == 200
    assert response.head.startswith("HTTP/1.1 ")


def test_options_asterisk_lists_the_server_methods(live_server: BackgroundServer) -> None:
    response = exchange(live_server.url, request("OPTIONS", "*"))
    assert response.status == 204
    allow = response.headers["allow"].split(", ")
    assert {"GET", "HEAD", "POST", "OPTIONS", "TRACE"} <= set(allow)
    assert "CONNECT" not in allow


def test_connect_is_refused_with_405(live_server: BackgroundServer) -> None:
    response = exchange(
        live_server.url, request("CONNECT", "example.com:443", "Host: example.com:443")
    )
    assert response.status == 405
    assert "proxy" in str(response.problem()["detail"])
    assert "GET" in response.headers["allow"]


def test_head_has_get_headers_and_no_body_on_the_wire(live_server: BackgroundServer) -> None:
    with connect(live_server.url) as sock:
        reader = Reader(sock)
        sock.sendall(request("GET", "/customers"))
        get = reader.response()
        sock.sendall(request("HEAD", "/customers"))
        head = reader.response(head_request=True)
        # The connection carries nothing after the HEAD head: the next answer starts clean.
        sock.sendall(request("GET", "/"))
        assert reader.response().status == 200
    assert head.status == get.status == 200
    assert head.headers["content-length"] == get.headers["content-length"] == str(len(get.body))
    assert head.headers["content-type"] == get.headers["content-type"]


# --- malformed requests: h11 refuses them, the protocol answers with problems ----------


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"GARBAGE\r\n\r\n", "request line"),
        (b"GET /\r\nHost: x\r\n\r\n", "request line"),
        (b"GET / HTTP/1.1\r\nHost x\r\n\r\n", "header line"),
        (b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n", "Content-Length"),
        (
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc",
            "different values",
        ),
        (b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 4\r\n\r\nabc", "different values"),
        (b"GET / HTTP/1.1\r\n\r\n", "Host"),
        (b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "Host"),
    ],
)
def test_malformed_request_gets_400_problem(
    live_server: BackgroundServer, data: bytes, words: str
) -> None:
    with connect(live_server.url) as sock:
        sock.sendall(data)
        reader = Reader(sock)
        response = reader.response()
        assert response.status == 400
        assert words in str(response.problem()["detail"])
        assert response.headers["connection"] == "close"
        assert reader.closed()
    assert_still_serving(live_server.url)


def test_malformed_header_is_not_echoed(live_server: BackgroundServer) -> None:
    # h11's own message quotes the bad line; a credential must not come back.
    data = b"GET / HTTP/1.1\r\nHost: x\r\nAuthorization Basic c2VjcmV0\r\n\r\n"
    response = exchange(live_server.url, data)
    assert response.status == 400
    assert b"c2VjcmV0" not in response.body


def test_unknown_transfer_coding_gets_501(live_server: BackgroundServer) -> None:
    response = exchange(
        live_server.url, request("POST", "/customers", "Transfer-Encoding: gzip", AUTH)
    )
    assert response.status == 501
    assert "chunked" in str(response.problem()["detail"])
    assert_still_serving(live_server.url)


def test_both_content_length_and_chunked_gets_400_and_close(
    live_server: BackgroundServer,
) -> None:
    data = request(
        "POST", "/customers", "Content-Length: 5", "Transfer-Encoding: chunked", JSON, AUTH
    )
    with connect(live_server.url) as sock:
        sock.sendall(data + b"0\r\n\r\n")
        reader = Reader(sock)
        response = reader.response()
        assert response.status == 400
        assert "both" in str(response.problem()["detail"])
        assert reader.closed()
    assert_still_serving(live_server.url)


def test_malformed_chunk_gets_400(live_server: BackgroundServer) -> None:
    data = request("POST", "/customers", "Transfer-Encoding: chunked", JSON, AUTH) + b"zz\r\n"
    response = exchange(live_server.url, data)
    assert response.status == 400
    assert "chunk" in str(response.problem()["detail"])
    assert_still_serving(live_server.url)


def test_truncated_body_then_half_close_gets_400(live_server: BackgroundServer) -> None:
    data = request("POST", "/customers", "Content-Length: 100", JSON, AUTH, body=b'{"name"')
    response = exchange(live_server.url, data, half_close=True)
    assert response.status == 400
    assert "7 of the 100" in str(response.problem()["detail"])
    assert_still_serving(live_server.url)


def test_truncated_body_then_close_leaves_the_server_serving(
    live_server: BackgroundServer,
) -> None:
    with connect(live_server.url) as sock:
        sock.sendall(request("POST", "/customers", "Content-Length: 100", JSON, body=b"{"))
    assert_still_serving(live_server.url)


def test_huge_request_line_gets_414_from_the_protocol(live_server: BackgroundServer) -> None:
    # Larger than h11's buffer limit: refused before the request is even parsed.
    target = "/" + "a" * 64 * 1024
    response = exchange(live_server.url, request("GET", target))
    assert response.status == 414
    assert_still_serving(live_server.url)


def test_huge_header_section_gets_431_from_the_protocol(live_server: BackgroundServer) -> None:
    fields = [f"X-Filler-{n}: {'b' * 1000}" for n in range(64)]
    response = exchange(live_server.url, request("GET", "/", *fields))
    assert response.status == 431
    assert_still_serving(live_server.url)


# --- slow clients ----------------------------------------------------------------------


def test_idle_keep_alive_connection_is_closed(short_idle: BackgroundServer) -> None:
    with connect(short_idle.url) as sock:
        reader = Reader(sock)
        sock.sendall(request("GET", "/"))
        assert reader.response().status == 200
        started = time.monotonic()
        assert reader.closed(within=3)
        assert time.monotonic() - started >= 0.2


def test_keep_alive_connection_is_reused_within_the_timeout(
    short_idle: BackgroundServer,
) -> None:
    with connect(short_idle.url) as sock:
        reader = Reader(sock)
        for _ in range(3):
            sock.sendall(request("GET", "/"))
            assert reader.response().status == 200


def test_silent_client_is_disconnected(short_idle: BackgroundServer) -> None:
    with connect(short_idle.url) as sock:
        assert Reader(sock).closed(within=3)


def test_slow_request_head_gets_408(short_idle: BackgroundServer) -> None:
    with connect(short_idle.url) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        time.sleep(0.1)
        sock.sendall(b"X-Slow: 1\r\n")
        reader = Reader(sock)
        response = reader.response()
        assert response.status == 408
        response.problem()
        assert reader.closed()
    assert_still_serving(short_idle.url)


def test_stalled_body_gets_408(short_idle: BackgroundServer) -> None:
    data = request("POST", "/customers", "Content-Length: 100", JSON, AUTH, body=b'{"na')
    with connect(short_idle.url) as sock:
        sock.sendall(data)
        reader = Reader(sock)
        response = reader.response()
        assert response.status == 408
        assert "body stalled" in str(response.problem()["detail"])
        assert reader.closed()
    assert_still_serving(short_idle.url)


def test_slow_but_steady_body_is_read(short_idle: BackgroundServer) -> None:
    body = CUSTOMER
    head = request("POST", "/customers", f"Content-Length: {len(body)}", JSON, AUTH)
    with connect(short_idle.url) as sock:
        sock.sendall(head)
        for start in range(0, len(body), 20):
            time.sleep(0.1)
            sock.sendall(body[start : start + 20])
        assert Reader(sock).response().status == 201


def test_many_bad_connections_do_not_stop_the_server(live_server: BackgroundServer) -> None:
    for data in (b"\x00\x01\x02\r\n\r\n", b"GET / HTTP/1.1\r\nHost:", b"\r\n\r\n\r\n"):
        with connect(live_server.url) as sock:
            sock.sendall(data)
            sock.shutdown(socket.SHUT_WR)
            Reader(sock).closed()
    assert_still_serving(live_server.url)


@pytest.mark.parametrize(
    ("target", "instance"),
    [("/customers/%ff", "/customers/%ff"), ("/customers/1%00", "/customers/1%00")],
)
def test_problem_instance_is_the_target_as_sent(
    live_server: BackgroundServer, target: str, instance: str
) -> None:
    # RFC 9457: instance is a URI reference, so the raw (percent-encoded) path.
    response = exchange(live_server.url, request("GET", target, "Connection: close"))
    assert response.status == 404
    assert response.problem()["instance"] == instance


def test_problem_of_an_unparsable_request_has_no_null_instance(
    live_server: BackgroundServer,
) -> None:
    response = exchange(live_server.url, b"GARBAGE\r\n\r\n")
    assert response.status == 400
    assert "instance" not in response.problem()


def test_absolute_form_target_is_served_as_its_path(live_server: BackgroundServer) -> None:
    # RFC 9112 3.2.2: a server MUST accept the absolute form (what proxies are sent);
    # the target's authority replaces Host.
    response = exchange(
        live_server.url,
        request(
            "GET",
            "http://mock.example:8000/customers/1?version=2",
            "Host: ignored.example",
            "Connection: close",
        ),
    )
    assert response.status == 200
    assert response.headers["api-version"] == "2"
    assert b'"href":"/customers/1?version=2"' in response.body


# --- the whole body has a deadline ------------------------------------------------------


@pytest.fixture
def short_body_deadline(http_parser: str) -> Iterator[BackgroundServer]:
    """A server that waits 2 s for a stalled body but 0.5 s at most for a whole one."""
    settings = make_settings(
        keep_alive_seconds=2.0, body_timeout_seconds=0.5, http_parser=http_parser
    )
    with BackgroundServer(settings) as server:
        yield server


def test_a_trickling_body_gets_408_at_the_overall_deadline(
    short_body_deadline: BackgroundServer,
) -> None:
    # One byte every 50 ms never stalls for 2 s, but the whole body is due in 0.5 s.
    head = request("POST", "/customers", "Content-Length: 1000", JSON, AUTH)
    with connect(short_body_deadline.url) as sock:
        sock.sendall(head)
        sock.settimeout(0.05)
        received = b""
        started = time.monotonic()
        while b"\r\n\r\n" not in received:
            assert time.monotonic() - started < 5, "no answer to a trickling body"
            try:
                sock.sendall(b" ")
                received += sock.recv(65536)
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                break
        sock.settimeout(5)
        reader = Reader(sock)
        reader.buffer = received
        response = reader.response()
    assert response.status == 408
    assert "did not arrive within 0.5 s" in str(response.problem()["detail"])
    assert_still_serving(short_body_deadline.url)


# --- pipelining ---------------------------------------------------------------------------


def test_pipelined_requests_are_answered_in_order(live_server: BackgroundServer) -> None:
    data = b"".join(request("GET", f"/customers/{n}") for n in (1, 2, 3))
    with connect(live_server.url) as sock:
        sock.sendall(data + request("GET", "/nowhere"))
        reader = Reader(sock)
        bodies = [reader.response() for _ in range(4)]
    assert [r.status for r in bodies] == [200, 200, 200, 404]
    assert [orjson.loads(r.body)["id"] for r in bodies[:3]] == [1, 2, 3]


def test_a_refused_head_after_good_requests_on_one_connection(
    live_server: BackgroundServer,
) -> None:
    # Sent apart, as clients do: the unknown method is still the application's 501.
    with connect(live_server.url) as sock:
        reader = Reader(sock)
        sock.sendall(request("GET", "/"))
        assert reader.response().status == 200
        sock.sendall(request("BREW", "/"))
        assert reader.response().status == 501
        sock.sendall(request("GET", "/customers/1"))
        assert reader.response().status == 200


def test_a_body_without_content_length_gets_411_before_the_connection_closes(
    short_idle: BackgroundServer, http_parser: str
) -> None:
    # What a client that forgot Content-Length sends: the body right behind the head.
    # The POST is complete without it (no length: no body), and is answered 411 (it
    # was dropped unanswered: QA pass 2); then the stray bytes, which are no request:
    # llhttp refuses them at once (400), h11 waits for the end of a line that never
    # comes (408 when the head times out). Either way the connection closes.
    head = request("POST", "/customers", JSON, AUTH)
    with connect(short_idle.url) as sock:
        sock.sendall(head + b'{"name": "Ann"}')
        reader = Reader(sock)
        first = reader.response()
        assert first.status == 411
        assert "Content-Length" in str(first.problem()["detail"])
        second = reader.response()
        assert second.status == (400 if http_parser == "httptools" else 408)
        assert reader.closed()
    assert_still_serving(short_idle.url)
