"""A kept-alive connection the server closed as a request went out (explorer.core.http.retry).

A real server on 127.0.0.1 plays the race deterministically: it answers a connection's
first request with keep-alive, then reads the next request on it and closes (or
resets) the connection without a byte of answer, as a server whose idle timeout fires
just as the request arrives does. Nothing waits for a timer.
"""

from __future__ import annotations

import socket
import threading

import httpx
import pytest

from explorer.core.http.cache import CacheTransport
from explorer.core.http.client import Client
from explorer.core.http.errors import DeadlineExceeded, NetworkError, ProtocolError
from explorer.core.http.request import RequestSpec
from explorer.core.http.retry import Attempts, RetryTransport
from tests.explorer.servers import IdleClosingServer, RawServer, read_request, reset


async def test_a_get_meeting_a_closed_keep_alive_connection_is_sent_again() -> None:
    with IdleClosingServer() as server:
        async with Client() as client:
            await client.send(RequestSpec("GET", server.url + "/a"))
            exchange = await client.send(RequestSpec("GET", server.url + "/a"))
    assert exchange.response.status == 200
    assert exchange.response.body == b"ok"
    assert [number for number, _ in server.received] == [1, 1, 2]  # dropped, then anew
    (note,) = exchange.retries
    assert note.startswith(f"GET {server.url}/a: the server closed the kept-alive connection")
    assert "Server disconnected without sending a response" in note
    assert note.endswith("sent again, once, on a new connection.")


async def test_a_reset_is_retried_too() -> None:
    with IdleClosingServer(drop=reset) as server:
        async with Client() as client:
            await client.send(RequestSpec("GET", server.url + "/"))
            exchange = await client.send(RequestSpec("GET", server.url + "/"))
    assert exchange.response.status == 200
    assert len(exchange.retries) == 1


async def test_a_put_is_sent_again_with_its_body() -> None:
    with IdleClosingServer() as server:
        async with Client() as client:
            await client.send(RequestSpec("GET", server.url + "/"))
            exchange = await client.send(RequestSpec("PUT", server.url + "/x", body='{"a": 1}'))
    assert exchange.response.status == 200
    assert [r.startswith(b"PUT /x ") for _, r in server.received] == [False, True, True]
    assert all(r.endswith(b'{"a": 1}') for _, r in server.received[1:])


@pytest.mark.parametrize("method", ["POST", "PATCH"])
async def test_a_post_or_patch_is_never_sent_twice(method: str) -> None:
    with IdleClosingServer() as server:
        async with Client() as client:
            await client.send(RequestSpec("GET", server.url + "/"))
            with pytest.raises(ProtocolError) as raised:
                await client.send(RequestSpec(method, server.url + "/x", body="{}"))
    assert len(server.received) == 2  # the GET, and the one that met the close
    assert server.connections == 1
    error = raised.value
    assert "kept-alive connection" in error.explanation
    assert "https" not in error.hint
    assert "may have acted on it" in error.hint


async def test_a_post_meeting_a_reset_is_not_sent_twice() -> None:
    with IdleClosingServer(drop=reset) as server:
        async with Client() as client:
            await client.send(RequestSpec("GET", server.url + "/"))
            with pytest.raises(NetworkError):
                await client.send(RequestSpec("POST", server.url + "/x", body="{}"))
    assert server.connections == 1


async def test_a_retry_that_fails_too_says_both_and_no_https() -> None:
    def close_at_once(conn: socket.socket) -> None:
        read_request(conn)
        conn.close()

    with IdleClosingServer(later=close_at_once) as server:
        async with Client() as client:
            await client.send(RequestSpec("GET", server.url + "/"))
            with pytest.raises(ProtocolError) as raised:
                await client.send(RequestSpec("GET", server.url + "/"))
    assert server.connections == 2  # one retry, not more
    assert "twice" in raised.value.explanation
    assert "https" not in raised.value.hint


async def test_the_retry_stays_within_the_deadline() -> None:
    stop = threading.Event()

    def hang(conn: socket.socket) -> None:
        read_request(conn)
        stop.wait(10)

    with IdleClosingServer(later=hang) as server:
        async with Client(max_time=0.5) as client:
            await client.send(RequestSpec("GET", server.url + "/"))
            with pytest.raises(DeadlineExceeded):
                await client.send(RequestSpec("GET", server.url + "/"))
        stop.set()


async def test_an_answer_broken_off_after_its_head_is_not_sent_again() -> None:
    def partial(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab")
        conn.close()

    with IdleClosingServer(drop=partial) as server:
        async with Client() as client:
            await client.send(RequestSpec("GET", server.url + "/"))
            with pytest.raises(ProtocolError, match="before the whole response"):
                await client.send(RequestSpec("GET", server.url + "/"))
    assert server.connections == 1


async def test_the_first_request_to_a_server_that_hangs_up_may_want_https() -> None:
    def close_at_once(conn: socket.socket) -> None:
        read_request(conn)
        conn.close()

    with RawServer(close_at_once) as server:
        async with Client() as client:
            with pytest.raises(ProtocolError) as raised:
                await client.send(RequestSpec("GET", server.url + "/"))
    assert raised.value.explanation == "The server closed the connection without answering."
    assert "try https://" in raised.value.hint


async def test_a_cached_session_retries_as_well() -> None:
    with IdleClosingServer() as server:
        async with Client() as client:
            client.set_caching(True)
            await client.send(RequestSpec("GET", server.url + "/"))
            exchange = await client.send(RequestSpec("GET", server.url + "/"))
    assert exchange.response.status == 200
    assert len(exchange.retries) == 1
    assert server.connections == 2


async def test_a_retried_hop_is_said_once_when_the_next_comes_from_the_cache() -> None:
    """A redirect's next hop copies the hop's extensions; a fresh reuse from the cache
    sends nothing, so it must not carry the retry of the hop before it."""
    fresh = b"HTTP/1.1 200 OK\r\nCache-Control: max-age=60\r\nContent-Length: 2\r\n\r\nok"
    moved = b"HTTP/1.1 302 Found\r\nLocation: /b\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    seen = []

    def serve(conn: socket.socket) -> None:
        first = read_request(conn)
        seen.append(first)
        if first is not None and first.startswith(b"GET /b "):
            conn.sendall(fresh)
            seen.append(read_request(conn))  # GET /a, dropped unanswered
            conn.close()
        else:
            conn.sendall(moved)

    with RawServer(serve) as server:
        async with Client() as client:
            client.set_caching(True)
            await client.send(RequestSpec("GET", server.url + "/b"))
            exchange = await client.send(RequestSpec("GET", server.url + "/a"))
    assert exchange.response.status == 200
    assert exchange.cache is not None
    assert exchange.cache.outcome == "fresh"
    assert len(exchange.hops) == 1
    (note,) = exchange.retries
    assert note.startswith(f"GET {server.url}/a: ")


# --- the retry as a transport, on a transport that reports as httpcore does -------------------


class _ClosedOnce(httpx.AsyncBaseTransport):
    """The first request goes out on a kept-alive connection (no connect reported) that
    closes before any answer; the next one opens a connection and is answered."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        trace = request.extensions["trace"]
        self.sent.append(request.method)
        if len(self.sent) == 1:
            await trace("http11.send_request_headers.started", {})
            raise httpx.RemoteProtocolError("Server disconnected without sending a response.")
        await trace("connection.connect_tcp.started", {})
        await trace("http11.receive_response_headers.complete", {})
        return httpx.Response(200)


async def test_the_retry_transport_says_what_it_did_through_the_callers_trace() -> None:
    inner = _ClosedOnce()
    attempts = Attempts()
    request = httpx.Request("GET", "http://h.test/", extensions={"trace": attempts})
    response = await RetryTransport(inner).handle_async_request(request)
    assert (response.status_code, inner.sent) == (200, ["GET", "GET"])
    assert attempts.retried is not None
    assert attempts.retried.endswith("so it was sent again, once, on a new connection.")
    assert attempts.reused is False  # the last attempt's connection
    assert request.extensions["trace"] is attempts  # the caller's trace, given back


async def test_the_retry_transport_never_sends_a_post_twice() -> None:
    inner = _ClosedOnce()
    attempts = Attempts()
    request = httpx.Request("POST", "http://h.test/", content=b"x", extensions={"trace": attempts})
    with pytest.raises(httpx.RemoteProtocolError):
        await RetryTransport(inner).handle_async_request(request)
    assert (inner.sent, attempts.retried, attempts.reused) == (["POST"], None, True)


def test_the_client_stacks_the_cache_on_the_retry_only_while_caching() -> None:
    client = Client()
    assert isinstance(client.transport, RetryTransport)
    client.set_caching(True)
    stacked = client.transport
    assert isinstance(stacked, CacheTransport)
    assert isinstance(stacked.transport, RetryTransport)
    client.set_caching(False)
    assert isinstance(client.transport, RetryTransport)
