"""``--http2``: the same app over HTTP/2 (Hypercorn), on real sockets on 127.0.0.1.

h2c by prior knowledge (httpx with ``http1=False``, curl
``--http2-prior-knowledge``), the h2c upgrade spoken by hand (a real ``101``,
then the answer as HTTP/2 stream 1), h2 by ALPN over TLS, and HTTP/1.1 on the
same port all along.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import socket
import ssl
import subprocess
from collections.abc import AsyncIterator, Iterator
from typing import Any

import h2.config
import h2.connection
import h2.events
import h2.settings
import httpx
import orjson
import pytest

from mock_server import BackgroundServer
from tests.mock_server.conftest import ADMIN, make_settings
from tests.mock_server.rawhttp import Reader, connect, exchange, request

needs_curl = pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
CURL_TIMEOUT = 10


def serve(**overrides: Any) -> BackgroundServer:
    """A started background server with test settings and ``overrides``."""
    server = BackgroundServer(make_settings(**overrides))
    server.start()
    return server


@pytest.fixture
def h2c_server() -> Iterator[BackgroundServer]:
    """``--http2`` in cleartext."""
    server = serve(http2=True)
    yield server
    server.stop()


@pytest.fixture
def h2_server() -> Iterator[BackgroundServer]:
    """``--http2 --tls`` with the certificate the server makes."""
    server = serve(http2=True, tls=True)
    yield server
    server.stop()


def trusting(server: BackgroundServer) -> ssl.SSLContext:
    """A client TLS context that trusts the authority ``server`` made."""
    assert server.certificate is not None
    assert server.certificate.ca is not None
    return ssl.create_default_context(cafile=str(server.certificate.ca))


@pytest.fixture
async def h2c_client(h2c_server: BackgroundServer) -> AsyncIterator[httpx.AsyncClient]:
    """A client speaking HTTP/2 from the first byte (prior knowledge)."""
    transport = httpx.AsyncHTTPTransport(http1=False, http2=True)
    async with httpx.AsyncClient(transport=transport, base_url=h2c_server.url) as client:
        yield client


async def test_h2c_by_prior_knowledge(h2c_client: httpx.AsyncClient) -> None:
    response = await h2c_client.get("/customers/1")
    assert response.http_version == "HTTP/2"
    assert response.status_code == 200
    assert response.json()["id"] == 1
    assert response.headers["api-version"] == "1"
    assert "etag" in response.headers


async def test_http1_still_served_on_the_same_port(
    h2c_server: BackgroundServer, h2c_client: httpx.AsyncClient
) -> None:
    async with httpx.AsyncClient(base_url=h2c_server.url) as http1:
        old = await http1.get("/customers/1")
    new = await h2c_client.get("/customers/1")
    assert old.http_version == "HTTP/1.1"
    assert old.status_code == new.status_code == 200
    assert old.json() == new.json()
    assert old.headers["etag"] == new.headers["etag"]


async def test_errors_are_problem_bodies_over_http2(h2c_client: httpx.AsyncClient) -> None:
    unknown = await h2c_client.request("BREW", "/customers")
    assert unknown.status_code == 501
    assert unknown.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert orjson.loads(unknown.content)["status"] == 501
    long_target = await h2c_client.get("/customers?name=" + "x" * 3000)
    assert long_target.status_code == 414
    assert long_target.json()["status"] == 414


async def test_streams_are_multiplexed_on_one_connection(h2c_client: httpx.AsyncClient) -> None:
    paths = [f"/customers/{n}" for n in range(1, 6)]
    answers = await asyncio.gather(*(h2c_client.get(path) for path in paths))
    assert [answer.json()["id"] for answer in answers] == [1, 2, 3, 4, 5]
    assert {answer.http_version for answer in answers} == {"HTTP/2"}


def h2c_upgrade_request(connection: h2.connection.H2Connection, *, body: bytes = b"") -> bytes:
    """``GET /customers/1`` (with ``body``: ``POST /customers``) asking for h2c (RFC 7540 §3.2)."""
    settings = connection.initiate_upgrade_connection()  # base64url already
    method, target = (b"POST", b"/customers") if body else (b"GET", b"/customers/1")
    framing = (
        b"Content-Length: %d\r\nContent-Type: application/json\r\n" % len(body) if body else b""
    )
    return (
        method + b" " + target + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
        b"HTTP2-Settings: " + settings + b"\r\n" + framing + b"\r\n" + body
    )


def read_stream(
    sock: socket.socket, client: h2.connection.H2Connection, stream_id: int, received: bytes
) -> tuple[int, bytes]:
    """The status and body of ``stream_id``, reading ``sock`` after ``received``."""
    status = 0
    body = b""
    data = received
    while True:
        for event in client.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived) and event.stream_id == stream_id:
                status = int(dict(event.headers)[b":status"])
            elif isinstance(event, h2.events.DataReceived) and event.stream_id == stream_id:
                body += event.data
                client.acknowledge_received_data(event.flow_controlled_length, stream_id)
            elif isinstance(event, h2.events.StreamEnded) and event.stream_id == stream_id:
                return status, body
        sock.sendall(client.data_to_send())
        data = sock.recv(65536)
        assert data, f"connection closed before the end of stream {stream_id}"


def test_h2c_upgrade_answers_101_then_http2(h2c_server: BackgroundServer) -> None:
    client = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    with connect(h2c_server.url) as sock:
        sock.sendall(h2c_upgrade_request(client))
        reader = Reader(sock)
        switching = reader.response()
        assert switching.status == 101
        assert switching.head.startswith("HTTP/1.1 101")
        assert switching.headers["upgrade"] == "h2c"
        assert switching.headers["connection"].lower() == "upgrade"
        # After the 101 the client sends its preface; the answer to the request
        # that asked for the upgrade arrives as HTTP/2 stream 1.
        sock.sendall(client.data_to_send())
        status, body = read_stream(sock, client, 1, reader.buffer)
    assert status == 200
    assert orjson.loads(body)["id"] == 1


def test_h2c_upgrade_with_a_body_is_answered_over_http1(h2c_server: BackgroundServer) -> None:
    client = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    response = exchange(h2c_server.url, h2c_upgrade_request(client, body=b'{"name": "Ann"}'))
    # RFC 7540 §3.2 lets a server ignore the upgrade: the POST is answered in HTTP/1.1.
    assert response.head.startswith("HTTP/1.1 401")
    assert response.problem()["status"] == 401


async def test_h2_over_tls_by_alpn(h2_server: BackgroundServer) -> None:
    assert h2_server.url.startswith("https://127.0.0.1:")
    context = trusting(h2_server)
    async with httpx.AsyncClient(http2=True, verify=context, base_url=h2_server.url) as client:
        h2 = await client.get("/customers/1")
    async with httpx.AsyncClient(verify=context, base_url=h2_server.url) as client:
        http1 = await client.get("/customers/1")
    assert h2.http_version == "HTTP/2"
    assert http1.http_version == "HTTP/1.1"
    assert h2.json() == http1.json()


async def test_tls_refuses_a_client_that_does_not_trust_it(h2_server: BackgroundServer) -> None:
    async with httpx.AsyncClient(verify=ssl.create_default_context()) as client:
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            await client.get(h2_server.url + "/")


def curl(*argv: str) -> str:
    """curl's output (``-w`` included), failing the test when curl fails."""
    done = subprocess.run(
        ["curl", "--silent", "--show-error", "--max-time", str(CURL_TIMEOUT), *argv],
        capture_output=True,
        text=True,
        timeout=CURL_TIMEOUT + 5,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@needs_curl
def test_curl_http2_prior_knowledge(h2c_server: BackgroundServer) -> None:
    out = curl(
        "--http2-prior-knowledge",
        "--output",
        "/dev/null",
        "--write-out",
        "%{http_version} %{http_code}",
        h2c_server.url + "/customers/1",
    )
    assert out == "2 200"


@needs_curl
def test_curl_h2c_upgrade(h2c_server: BackgroundServer) -> None:
    out = curl(
        "--http2",
        "--output",
        "/dev/null",
        "--write-out",
        "%{http_version} %{http_code}",
        h2c_server.url + "/customers/1",
    )
    assert out == "2 200"


@needs_curl
def test_curl_cacert_gets_h2_by_alpn(h2_server: BackgroundServer) -> None:
    assert h2_server.certificate is not None
    out = curl(
        "--cacert",
        str(h2_server.certificate.ca),
        "--output",
        "/dev/null",
        "--write-out",
        "%{http_version} %{http_code}",
        h2_server.url + "/customers/1",
    )
    assert out == "2 200"


class H2Client:
    """HTTP/2 by hand over a socket (push allowed, unlike httpx), for server push."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        self.connection.initiate_connection()
        self.sock.sendall(self.connection.data_to_send())

    def get(self, path: str, *headers: tuple[str, str]) -> int:
        """Send a GET; its stream id."""
        stream_id: int = self.connection.get_next_available_stream_id()
        pseudo = [(":method", "GET"), (":scheme", "http"), (":authority", "127.0.0.1")]
        self.connection.send_headers(
            stream_id, [*pseudo, (":path", path), *headers], end_stream=True
        )
        self.sock.sendall(self.connection.data_to_send())
        return stream_id

    def events_until_ended(self, stream_ids: set[int]) -> list[h2.events.Event]:
        """Every event until ``stream_ids`` and all streams pushed meanwhile have ended."""
        open_streams = set(stream_ids)
        events: list[h2.events.Event] = []
        while open_streams:
            data = self.sock.recv(65536)
            assert data, f"connection closed with streams {open_streams} open"
            for event in self.connection.receive_data(data):
                events.append(event)
                if isinstance(event, h2.events.PushedStreamReceived):
                    open_streams.add(event.pushed_stream_id)
                elif isinstance(event, h2.events.StreamEnded):
                    open_streams.discard(event.stream_id)
                elif isinstance(event, h2.events.DataReceived):
                    self.connection.acknowledge_received_data(
                        event.flow_controlled_length, event.stream_id
                    )
            self.sock.sendall(self.connection.data_to_send())
        return events


def as_text(headers: list[tuple[bytes, bytes]]) -> dict[str, str]:
    """h2's header list as a dict of text (the last value of a repeated name)."""
    return {name.decode(): value.decode() for name, value in headers}


def test_an_order_pushes_its_customer_and_products_after_early_hints(
    h2c_server: BackgroundServer,
) -> None:
    with connect(h2c_server.url) as sock:
        client = H2Client(sock)
        order = client.get("/orders/1", ("authorization", ADMIN["Authorization"]))
        events = client.events_until_ended({order})
    on_order = [
        event
        for event in events
        if getattr(event, "stream_id", getattr(event, "parent_stream_id", None)) == order
        and not isinstance(event, h2.events.DataReceived)
    ]
    # On the order's stream: 103, then a promise for each preload link, then the order.
    hint, *promised, final, ended = on_order
    assert isinstance(hint, h2.events.InformationalResponseReceived)
    assert all(isinstance(event, h2.events.PushedStreamReceived) for event in promised)
    assert isinstance(final, h2.events.ResponseReceived)
    assert isinstance(ended, h2.events.StreamEnded)
    assert as_text(hint.headers)[":status"] == "103"
    link = as_text(final.headers)["link"]
    hinted = [value.decode() for name, value in hint.headers if name == b"link"]
    assert hinted == [value.strip() for value in link.split(",")]
    expected = [value.split(">")[0].strip("< ") for value in link.split(",")]
    assert expected[0].startswith("/customers/")
    assert len(expected) > 1
    assert all(path.startswith("/products/") for path in expected[1:])

    assert [as_text(p.headers)[":path"] for p in promised] == expected
    for promise in promised:
        # Never the credentials of the request that caused the push.
        assert "authorization" not in as_text(promise.headers)
        pushed = promise.pushed_stream_id
        answer = next(
            e for e in events if isinstance(e, h2.events.ResponseReceived) and e.stream_id == pushed
        )
        body = b"".join(
            e.data
            for e in events
            if isinstance(e, h2.events.DataReceived) and e.stream_id == pushed
        )
        assert as_text(answer.headers)[":status"] == "200"
        path = as_text(promise.headers)[":path"]
        assert orjson.loads(body)["id"] == int(path.rsplit("/", 1)[1])


def test_a_resource_without_preloads_pushes_nothing(h2c_server: BackgroundServer) -> None:
    with connect(h2c_server.url) as sock:
        client = H2Client(sock)
        events = client.events_until_ended({client.get("/customers/1")})
    assert not any(isinstance(e, h2.events.PushedStreamReceived) for e in events)
    assert not any(isinstance(e, h2.events.InformationalResponseReceived) for e in events)


async def test_a_client_refusing_push_still_gets_the_order(h2c_client: httpx.AsyncClient) -> None:
    # httpx sends SETTINGS_ENABLE_PUSH=0: Hypercorn drops the promises.
    response = await h2c_client.get("/orders/1", headers=ADMIN)
    assert (response.http_version, response.status_code) == ("HTTP/2", 200)
    assert "rel=preload" in response.headers["link"]


def test_a_response_its_client_left_stops_quietly_at_shutdown(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A client that lets no body through (window 0) and leaves after the head:
    # Hypercorn keeps that response's task waiting until shutdown cancels it.
    server = serve(http2=True)
    try:
        with connect(server.url) as sock:
            client = H2Client(sock)
            client.connection.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
            sock.sendall(client.connection.data_to_send())
            client.get("/customers/1")
            events: list[h2.events.Event] = []
            while not any(isinstance(e, h2.events.ResponseReceived) for e in events):
                data = sock.recv(65536)
                assert data, "connection closed before the response head"
                events += client.connection.receive_data(data)
            assert not any(isinstance(e, h2.events.StreamEnded) for e in events)
    finally:
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            server.stop()
    assert [r.getMessage() for r in caplog.records if r.name == "asyncio"] == []


@pytest.mark.parametrize(
    ("limits", "detail"),
    [
        ({"keep_alive_seconds": 0.2}, "The request body stalled: nothing arrived for 0.2 s."),
        ({"body_timeout_seconds": 0.2}, "The request body did not arrive within 0.2 s."),
    ],
)
def test_a_body_that_stops_coming_gets_408(limits: dict[str, float], detail: str) -> None:
    server = serve(http2=True, **limits)
    try:
        head = request(
            "POST",
            "/customers",
            f"Authorization: {ADMIN['Authorization']}",
            "Content-Type: application/json",
            "Content-Length: 20",
        )
        with connect(server.url) as sock:
            sock.sendall(head + b'{"name": ')
            response = Reader(sock).response()
    finally:
        server.stop()
    assert response.status == 408
    assert response.problem()["detail"] == detail


async def test_an_http2_answer_before_the_body_keeps_the_connection(
    h2c_client: httpx.AsyncClient,
) -> None:
    # 401 from the head alone, while the client is still sending 300 KB of body:
    # the rest of the body must not end the connection (Hypercorn 0.18 would).
    refused = await h2c_client.post(
        "/customers", content=b"x" * 300_000, headers={"Content-Type": "application/json"}
    )
    assert refused.status_code == 401
    assert refused.json()["status"] == 401
    again = await h2c_client.get("/customers/1")
    assert again.status_code == 200


def test_a_connection_that_fails_inside_hypercorn_is_one_log_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # "HTTP2-Settings: abc" is not base64url: h2 fails on it after the 101.
    upgrade = request(
        "GET",
        "/",
        "Connection: Upgrade, HTTP2-Settings",
        "Upgrade: h2c",
        "HTTP2-Settings: abc",
    )
    server = serve(http2=True)
    with caplog.at_level(logging.DEBUG):
        try:
            with connect(server.url) as sock:
                sock.sendall(upgrade)
                reader = Reader(sock)
                assert reader.response().status == 101
                assert reader.closed()
        finally:
            server.stop()  # the server's thread has logged all it will
    warnings = [
        r
        for r in caplog.records
        if r.name == "mock_server.transport.http2" and r.levelno == logging.WARNING
    ]
    assert len(warnings) == 1
    assert warnings[0].getMessage().startswith("a connection was closed on an error: ")
    assert "\n" not in warnings[0].getMessage()
    assert [r for r in caplog.records if r.name == "asyncio"] == []
