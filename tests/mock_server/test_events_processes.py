"""Events across real processes: ``--workers 2`` on a database, and SIGTERM with streams open.

Each worker is its own process with its own memory; what makes a write on
one reach a stream served by the other is the event log in the shared
database (the ``--db`` file, or PostgreSQL: the ``database`` fixture). A
stream's answer names the process serving it (``Restwalk-Mock-Process``), so
the test holds one stream on each worker and checks that every write reaches
both, whichever worker took it. Webhooks are
delivered once per event, by the worker that made it, and every worker lists
every attempt.
"""

from __future__ import annotations

import queue
import signal
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
from httpx_sse import ServerSentEvent, connect_sse

from tests.mock_server.conftest import StoreUnderTest
from tests.mock_server.processes import Running
from tests.mock_server.test_webhooks import receiving

pytestmark = pytest.mark.interop

CUSTOMER = {"name": "Across", "address": "1 Main St, Springfield, IL 62701"}
#: Streams opened at once: the kernel deals them to the workers that are ready.
BATCH = 6


class Listener(threading.Thread):
    """One stream read with httpx-sse in a thread: its process, then its events."""

    def __init__(self, url: str, events: queue.Queue[tuple[Listener, ServerSentEvent]]) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.events = events
        self.process = ""  # the worker serving the stream (its answer says)
        self.opened = threading.Event()
        self.ended = ""

    def run(self) -> None:
        try:
            with (
                httpx.Client(timeout=30) as client,
                connect_sse(client, "GET", self.url + "/events") as source,
            ):
                self.process = source.response.headers["restwalk-mock-process"]
                self.opened.set()
                for event in source.iter_sse():
                    if event.event != "message":  # the opening retry hint
                        self.events.put((self, event))
            self.ended = "clean"
        except httpx.HTTPError as error:
            self.ended = repr(error)
        finally:
            self.opened.set()


def _listen(
    url: str, count: int, events: queue.Queue[tuple[Listener, ServerSentEvent]] | None = None
) -> list[Listener]:
    """``count`` streams opened at once (the kernel deals them to the workers ready)."""
    listeners = [Listener(url, events or queue.Queue()) for _ in range(count)]
    for listener in listeners:
        listener.start()
    for listener in listeners:
        assert listener.opened.wait(15)
    return listeners


def _on_each_worker(
    url: str, events: queue.Queue[tuple[Listener, ServerSentEvent]]
) -> list[Listener]:
    """Streams until both workers serve one (the second may still be starting)."""
    listeners: list[Listener] = []
    deadline = time.monotonic() + 30
    while len({listener.process for listener in listeners}) < 2:
        assert time.monotonic() < deadline, "every stream went to one worker"
        listeners += _listen(url, BATCH, events)
    return listeners


def test_a_write_on_one_worker_reaches_streams_and_webhooks_of_the_other(
    running: list[Running],
    database: StoreUnderTest,
) -> None:
    with receiving() as receiver:
        server = Running("--workers", "2", *database.arguments())
        running.append(server)
        try:
            events: queue.Queue[tuple[Listener, ServerSentEvent]] = queue.Queue()
            listeners = _on_each_worker(server.url, events)
            token = httpx.post(
                server.url + "/auth/token", auth=("alice", "wonderland"), timeout=10
            ).json()["access_token"]
            editor = {"Authorization": f"Bearer {token}"}
            made = httpx.post(
                server.url + "/webhooks",
                json={"url": receiver.url, "types": ["customer.created"]},
                headers=editor,
                timeout=10,
            )
            assert made.status_code == 201, made.text
            for n in range(6):  # a new connection each: the writes land on both workers
                with httpx.Client(timeout=10, headers=editor) as client:
                    created = client.post(
                        server.url + "/customers", json={**CUSTOMER, "name": f"C{n}"}
                    )
                    assert created.status_code == 201
            seen: dict[Listener, list[str]] = {listener: [] for listener in listeners}
            names: set[str] = set()
            deadline = time.monotonic() + 15
            while sum(len(ids) for ids in seen.values()) < 6 * len(listeners):
                listener, event = events.get(timeout=max(0.1, deadline - time.monotonic()))
                seen[listener].append(event.id)
                names.add(event.json()["data"]["name"])
            deliveries = receiver.wait_for(6)
            attempts = httpx.get(
                server.url + made.headers["location"], headers=editor, timeout=10
            ).json()["attempts"]
        finally:
            status, err = server.stop(signal.SIGTERM)
    for listener in listeners:
        listener.join(10)
    one = seen[listeners[0]]
    assert len(set(one)) == 6
    for listener in listeners:  # the same six events, in the same order, on both workers
        assert seen[listener] == one, (listener.process, listeners[0].process)
    assert names == {f"C{n}" for n in range(6)}
    assert sorted(d.headers["webhook-id"] for d in deliveries) == sorted(one)  # once each
    assert len(attempts) == 6
    assert {a["outcome"] for a in attempts} == {"delivered"}
    assert status == 0, err
    assert {listener.ended for listener in listeners} == {"clean"}


@pytest.mark.parametrize(
    "engine", [("--workers", "1"), ("--workers", "2"), ("--http2",)], ids=["1", "2", "http2"]
)
def test_sigterm_with_streams_open_ends_them_and_exits_at_once(
    running: list[Running],
    tmp_path: Path,
    engine: tuple[str, ...],
) -> None:
    server = Running(*engine, "--db", str(tmp_path / "signal.db"))
    running.append(server)
    try:
        if "2" in engine:
            listeners = _on_each_worker(server.url, queue.Queue())
        else:
            listeners = _listen(server.url, 3)
        host, port = server.url.removeprefix("http://").split(":")
        silent = socket.create_connection((host, int(port)))  # a client that reads nothing
        silent.sendall(b"GET /events HTTP/1.1\r\nHost: mock\r\n\r\n")
    finally:
        started = time.monotonic()
        status, err = server.stop(signal.SIGTERM)
        took = time.monotonic() - started
    silent.close()
    for listener in listeners:
        listener.join(10)
    assert status == 0, err
    assert took < 5, took
    assert "Traceback" not in err
    assert {listener.ended for listener in listeners} == {"clean"}
