"""The mock's event streams over a real socket, read by httpx-sse (a client no one here wrote).

A change is an event on the stream; a client that reconnects with
``Last-Event-ID`` gets what it missed and nothing twice; what the backlog no
longer holds is said in an event; each collection's stream carries its own
changes in the version asked for; a slow reader is skipped ahead, not
buffered for; compression never holds a stream back; and stopping the server
with open streams (one stuck on a client that reads nothing) is prompt.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import orjson
import pytest
from httpx_sse import ServerSentEvent, connect_sse

from mock_server import BackgroundServer, create_app
from mock_server.events.stream import GAP, RETRY_MS
from mock_server.events.wire import EVENT_STREAM
from mock_server.resources import events as events_resource
from mock_server.resources import live_stream
from mock_server.store.event_log import Event
from tests.mock_server.conftest import (
    ADMIN,
    StoreUnderTest,
    asgi_client,
    bearer,
    make_settings,
)

CUSTOMER = {"name": "Ann", "address": "1 Main St, Springfield, IL 62701"}


@contextmanager
def serving(**settings: Any) -> Iterator[BackgroundServer]:
    with BackgroundServer(make_settings(**settings)) as server:
        yield server


@contextmanager
def stream(
    server: BackgroundServer, path: str = "/events", *, http2: bool = False, **headers: str
) -> Iterator[Iterator[ServerSentEvent]]:
    """The events of ``path`` (the opening retry hint already read and checked).

    ``http2``: over HTTP/2 (h2c by prior knowledge), which the server speaks with --http2.
    """
    with (
        httpx.Client(base_url=server.url, timeout=10, http1=not http2, http2=http2) as client,
        connect_sse(client, "GET", path, headers=headers) as source,
    ):
        assert source.response.status_code == 200, source.response.read()
        assert source.response.http_version == ("HTTP/2" if http2 else "HTTP/1.1")
        events = source.iter_sse()
        assert next(events).retry == RETRY_MS
        yield events


def editor(server: BackgroundServer) -> httpx.Client:
    """A client of the server with an editor's token (one per test: making one takes time)."""
    client: httpx.Client | None = getattr(server, "_editor", None)
    if client is None:
        client = httpx.Client(base_url=server.url, headers=bearer(server.app, "alice"))
        server._editor = client  # type: ignore[attr-defined]
        _CLIENTS.append(client)
    return client


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    for client in _CLIENTS:
        client.close()
    _CLIENTS.clear()


_CLIENTS: list[httpx.Client] = []


def create(server: BackgroundServer, name: str, path: str = "/customers") -> str:
    response = editor(server).post(path, json={**CUSTOMER, "name": name})
    assert response.status_code == 201, response.text
    return response.headers["location"]


def test_a_change_is_an_event_and_a_reconnect_resumes_after_the_last_id() -> None:
    with serving() as server:
        with stream(server) as events:
            location = create(server, "First")
            first = next(events)
        assert first.event == "customer.created"
        document = first.json()
        assert document["id"] == first.id
        assert document["url"] == location
        assert document["data"]["name"] == "First"
        assert document["timestamp"].endswith("Z")
        create(server, "Second")  # while no one listens
        create(server, "Third")
        with stream(server, **{"Last-Event-ID": first.id}) as events:
            resumed = [next(events), next(events)]
            create(server, "Fourth")
            live = next(events)
    assert [e.json()["data"]["name"] for e in resumed] == ["Second", "Third"]
    assert live.json()["data"]["name"] == "Fourth"
    numbers = [int(e.id.split("-")[0]) for e in (first, *resumed, live)]
    assert numbers == sorted(numbers)
    assert len(set(numbers)) == 4


def test_a_resumption_from_before_the_backlog_says_how_many_were_lost() -> None:
    with serving(event_backlog=3) as server:
        with stream(server) as events:
            create(server, "Kept0")
            first = next(events)
        for n in range(5):
            create(server, f"Later{n}")
        with stream(server, **{"Last-Event-ID": first.id}) as events:
            gap, *kept = [next(events) for _ in range(4)]
    assert gap.event == GAP
    assert gap.id == ""  # no id: the client's last id stays the last event it got
    said = gap.json()
    assert said["reason"] == "backlog"
    assert said["missed"] == 2  # Later0 and Later1 are no longer kept
    assert [e.json()["data"]["name"] for e in kept] == ["Later2", "Later3", "Later4"]


def test_an_id_the_server_never_gave_is_said_and_the_backlog_follows() -> None:
    with serving(event_backlog=2) as server:
        create(server, "A")
        create(server, "B")
        with stream(server, **{"Last-Event-ID": "7-00000000"}) as events:
            gap, *kept = [next(events) for _ in range(3)]
    assert gap.json()["reason"] == "unknown-id"
    assert [e.json()["data"]["name"] for e in kept] == ["A", "B"]


def test_a_collection_stream_has_its_own_changes_in_the_version_asked() -> None:
    with serving() as server, stream(server, "/v2/customers/events") as events:
        response = editor(server).post("/products", json={"name": "Lamp", "cost": 3})
        assert response.status_code == 201
        location = create(server, "Versioned")
        event = next(events)
    assert event.event == "customer.created"
    document = event.json()
    assert document["url"] == "/v2" + location
    assert document["data"]["address"]["city"] == "Springfield"  # version 2: an object


def test_orders_are_on_the_stream_only_for_a_client_that_may_read_them() -> None:
    order = {"customerId": 1, "items": [{"productId": 1, "quantity": 2}]}
    with serving() as server:
        assert httpx.get(server.url + "/orders/events").status_code == 401
        with stream(server) as anonymous, stream(server, **bearer(server.app, "bob")) as viewer:
            made = editor(server).post("/orders", json=order)
            assert made.status_code == 201
            placed = editor(server).post(made.headers["location"] + "/place")
            assert placed.status_code == 200
            create(server, "Seen by all")
            seen = [next(viewer).event for _ in range(3)]
            assert next(anonymous).event == "customer.created"
    assert seen == ["order.created", "order.placed", "customer.created"]


def test_a_report_job_tells_its_progress_on_the_stream() -> None:
    with serving() as server:
        server.app.service.jobs.duration = 0.7
        with stream(server, **bearer(server.app, "bob")) as events:
            started = editor(server).post("/reports")
            assert started.status_code == 202
            told = []
            while not told or told[-1].event != "job.completed":
                told.append(next(events))
    kinds = [e.event for e in told]
    assert kinds[0] == "job.created"
    assert kinds[-1] == "job.completed"
    progress = [e.json()["data"]["progress"] for e in told if e.event == "job.progress"]
    assert progress
    assert progress == sorted(progress)
    assert all(0 < p < 100 for p in progress)
    assert told[-1].json()["data"]["status"] == "done"
    assert told[-1].json()["url"] == started.headers["location"]


def test_what_a_stream_answers_besides_events(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events_resource, "MAX_STREAMS", 1)
    with serving() as server:
        with stream(server):
            busy = httpx.get(server.url + "/events", timeout=5)
        assert busy.status_code == 503
        assert busy.headers["retry-after"] == "5"
        url = server.url + "/events"
        refused = httpx.get(url, headers={"Accept": "application/json"})
        assert refused.status_code == 406
        assert refused.json()["available"] == [EVENT_STREAM]
        unknown = httpx.get(url, params={"since": "1"})
        assert unknown.status_code == 400
        assert unknown.json()["parameter"] == "since"
        head = httpx.head(url, timeout=5)
        assert head.status_code == 200
        assert head.headers["content-type"].startswith(EVENT_STREAM)
        assert editor(server).post("/events").status_code == 405
        root = httpx.get(server.url + "/").json()["_links"]
        assert root["rw:events"]["href"] == "/events"
        assert root["rw:events"]["type"] == EVENT_STREAM
        page = httpx.get(server.url + "/v2/products").json()["_links"]
        assert page["rw:events"]["href"] == "/v2/products/events"


def test_compression_and_the_journal_pass_each_event_as_it_comes() -> None:
    with (
        serving(event_heartbeat_seconds=0.2) as server,
        httpx.Client(base_url=server.url, timeout=10) as client,
        client.stream("GET", "/events", headers={"Accept-Encoding": "gzip"}) as response,
    ):
        assert "content-encoding" not in response.headers
        assert "etag" not in response.headers
        assert "no-transform" in response.headers["cache-control"]
        chunks = response.iter_raw()
        assert next(chunks).startswith(b": restwalk-mock")
        assert next(chunks) == b": heartbeat\n\n"
        create(server, "Unbuffered")
        # The event comes as a chunk of its own (after a heartbeat or two at most).
        chunk = b""
        for _ in range(5):
            chunk = next(chunks)
            if chunk != b": heartbeat\n\n":
                break
        assert chunk.startswith(b"id: ")
        assert b"event: customer.created" in chunk
        # The journal has the open stream's request and status, and keeps no answer body.
        (entry,) = server.app.service.requests.entries(method="GET", path="/events")
        assert entry.status == 200
        assert entry.body_size == 0


def _raw_stream(server: BackgroundServer, receive_buffer: int) -> socket.socket:
    """A client that asks for /events and then reads nothing (its buffer kept small)."""
    host, port = server.url.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect((host, int(port)))
    sock.sendall(f"GET /events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    return sock


def _read_until(sock: socket.socket, marker: bytes, seconds: float) -> bytes:
    got = b""
    sock.settimeout(seconds)
    while marker not in got:
        chunk = sock.recv(65536)
        if not chunk:
            break
        got += chunk
    return got


def test_a_slow_reader_is_skipped_ahead_and_told_so_not_buffered_for() -> None:
    with serving(event_backlog=20) as server:
        hub = server.app.service.events
        sock = _raw_stream(server, receive_buffer=4096)
        try:
            assert b"retry: " in _read_until(sock, b"retry: ", 5)
            big = {"filler": "x" * 20_000}
            for n in range(400):  # 8 MB: far more than the socket buffers hold
                hub.publish(Event("thing.created", time.time(), None, f"/things/{n}", big))
            assert len(hub._ring) == 20  # what the server keeps, however slow the reader
            received = _read_until(sock, b"/things/399", 10)
        finally:
            sock.close()
    assert b"event: stream.gap" in received
    assert b'"reason":"slow"' in received
    assert received.count(b"event: thing.created") < 400


def _reader(server: BackgroundServer, ended: list[str]) -> None:
    try:
        with stream(server, "/customers/events") as events:
            for _ in events:
                pass
        ended.append("clean")
    except httpx.HTTPError as error:
        ended.append(repr(error))


def test_stopping_the_server_ends_open_streams_at_once() -> None:
    server = BackgroundServer(make_settings(event_backlog=5))
    server.start()
    ended: list[str] = []
    readers = [threading.Thread(target=_reader, args=(server, ended)) for _ in range(3)]
    for reader in readers:
        reader.start()
    stuck = _raw_stream(server, receive_buffer=4096)
    try:
        deadline = time.monotonic() + 5
        while server.app.service.events.streams < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        big = {"filler": "x" * 50_000}
        for _n in range(100):  # the stuck client's socket fills: its stream waits to send
            server.app.service.events.publish(Event("thing.created", 0.0, None, "/", big))
        started = time.monotonic()
        server.stop()
        took = time.monotonic() - started
    finally:
        stuck.close()
    for reader in readers:
        reader.join(5)
    assert took < 3, took
    assert ended == ["clean"] * 3


@pytest.mark.parametrize("http2", [False, True])
def test_a_stream_over_each_engine(http2: bool) -> None:
    with (
        serving(http2=http2) as server,
        stream(server, http2=http2, **bearer(server.app, "bob")) as events,
    ):
        editor(server).post("/reports")
        first = next(events)
    assert first.event == "job.created"
    assert orjson.loads(first.data)["url"].startswith("/jobs/")


async def test_a_stream_is_no_member_whose_preconditions_are_checked() -> None:
    """A conditional write below a stream's path is not compared with the stream."""
    async with asgi_client(create_app(make_settings())) as client:
        guarded = {**ADMIN, "If-Match": '"x"'}
        action = await asyncio.wait_for(client.post("/customers/events/place", headers=guarded), 5)
        assert action.status_code == 404
        put = await asyncio.wait_for(client.put("/orders/events", json={}, headers=guarded), 5)
        assert put.status_code == 405
    assert put.headers["allow"] == "GET, HEAD, OPTIONS, TRACE"


def test_a_client_that_reads_nothing_is_dropped_without_an_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(live_stream, "STALL_SECONDS", 0.3)
    caplog.set_level(logging.INFO, logger="mock_server.events")
    with serving() as server:
        hub = server.app.service.events
        sock = _raw_stream(server, receive_buffer=4096)
        try:
            assert b"retry: " in _read_until(sock, b"retry: ", 5)
            big = {"filler": "x" * 50_000}
            for _ in range(100):  # far more than the socket buffers hold: a send waits
                hub.publish(Event("thing.created", 0.0, None, "/", big))
            deadline = time.monotonic() + 10
            while hub.streams and time.monotonic() < deadline:
                time.sleep(0.02)
            assert hub.streams == 0
        finally:
            sock.close()
    assert "dropped an event stream" in caplog.text
    assert "without completing response" not in caplog.text
    assert "Traceback" not in caplog.text


def test_two_servers_on_one_database_share_their_events(database: StoreUnderTest) -> None:
    """Each server stands for one --workers process or one instance: only the database
    is shared (a file, or PostgreSQL: then each has its own pool and listener)."""
    settings = database.settings()
    with (
        BackgroundServer(settings) as one,
        BackgroundServer(settings) as two,
        stream(two) as events,
    ):
        location = create(one, "Written by one")
        event = next(events)
        create(two, "Written by two")
        second = next(events)
        with stream(one, **{"Last-Event-ID": event.id}) as resumed:
            again = next(resumed)  # the other server's event, from the shared backlog
        third = create(two, "Written by two again")  # while one has no stream open
        # Resuming on one after an id only two has sent yet: known, nothing missed.
        with stream(one, **{"Last-Event-ID": next(events).id}) as resumed:
            create(two, "Fourth")
            fourth = next(resumed)
    assert event.json()["url"] == location
    assert second.json()["data"]["name"] == "Written by two"
    assert again.id == second.id
    assert third.startswith("/customers/")
    assert fourth.event == "customer.created"
    assert fourth.json()["data"]["name"] == "Fourth"
    assert one.app.service.events.origin == two.app.service.events.origin
