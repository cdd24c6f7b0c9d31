"""``--store postgresql://`` when things break: the database restarted under load, and an
instance killed (``kill -9``) in the middle of its writes.

What must hold: while the database is away every answer is a 503 with
``Retry-After`` and a problem body, never a hang or a 500; the instances go on
by themselves once it is back; nothing is half-written; every write that
was acknowledged (2xx) is there afterwards, on every instance; and an event
stream open through the restart stays open and carries on with the writes
made after it, whichever instance made them. Slow (seconds
of load each): marked ``interop``, run once per CI run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx
import orjson
import psycopg
import pytest
from httpx_sse import connect_sse

from mock_server import BackgroundServer
from tests.mock_server.conftest import EDITOR, StoreUnderTest, make_settings
from tests.mock_server.mock_process import Process
from tests.mock_server.postgresql_server import PostgresServer

pytestmark = pytest.mark.interop

ADDRESS = "9 Load Lane, Springfield, IL 62701"


@dataclass
class Load:
    """Writers creating customers on some instances until told to stop."""

    urls: list[str]
    #: Acknowledged creates: location -> the body the server answered.
    acknowledged: dict[str, bytes] = field(default_factory=dict)
    statuses: list[int] = field(default_factory=list)
    #: (instance, status) of each answer, in order.
    answers: list[tuple[int, int]] = field(default_factory=list)
    #: Every 503 seen: its headers and body.
    refusals: list[httpx.Response] = field(default_factory=list)
    #: Requests that got no answer at all (their instance died).
    unanswered: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def writer(self, number: int) -> Callable[[], None]:
        def run() -> None:
            clients = [httpx.Client(base_url=url, timeout=5) for url in self.urls]
            n = 0
            while not self.stop.is_set():
                instance = n % len(clients)
                client = clients[instance]
                body = {"name": f"Writer {number} {n}", "address": ADDRESS}
                try:
                    response = client.post("/customers", json=body, headers=EDITOR)
                except httpx.TransportError:
                    with self._lock:
                        self.unanswered += 1
                    time.sleep(0.01)
                    n += 1
                    continue
                with self._lock:
                    self.statuses.append(response.status_code)
                    self.answers.append((instance, response.status_code))
                    if response.status_code == 201:
                        self.acknowledged[response.headers["location"]] = response.content
                    elif response.status_code == 503:
                        self.refusals.append(response)
                n += 1
            for client in clients:
                client.close()

        return run

    @contextmanager
    def running(self, writers: int) -> Iterator[None]:
        threads = [threading.Thread(target=self.writer(n)) for n in range(writers)]
        for thread in threads:
            thread.start()
        try:
            yield
        finally:
            self.stop.set()
            for thread in threads:
                thread.join(30)

    def every_instance_succeeded_since(self, count: int) -> bool:
        """Whether each instance has created something since the ``count``-th answer (each
        reconnects to the database on its own schedule: one back says nothing of the
        other, on a loaded machine)."""
        with self._lock:
            back = {instance for instance, status in self.answers[count:] if status == 201}
        return len(back) == len(self.urls)


def _customers_in_database(url: str) -> dict[int, dict[str, object]]:
    with psycopg.connect(url) as connection:
        rows = connection.execute(
            "SELECT id, data FROM restwalk.records WHERE collection = 'customers'"
        ).fetchall()
    return {int(record_id): data for record_id, data in rows}


def _check_nothing_lost_or_half_written(load: Load, url: str, readers: list[str]) -> None:
    """Every acknowledged create is on every instance as answered; every written one whole."""
    assert load.acknowledged
    for base in readers:
        with httpx.Client(base_url=base, timeout=10) as client:
            for location, body in load.acknowledged.items():
                read = client.get(location)
                assert read.status_code == 200, (base, location)
                assert read.content == body
    written = _customers_in_database(url)
    acknowledged_ids = {int(location.rsplit("/", 1)[1]) for location in load.acknowledged}
    assert acknowledged_ids <= set(written)
    for record_id, data in written.items():
        if record_id > 12:  # a writer's: a complete record, never a part of one
            assert set(data) == {"name", "address"}, data
            assert str(data["name"]).startswith("Writer ")
            assert data["address"] == {
                "streetAddress": "9 Load Lane",
                "city": "Springfield",
                "state": "IL",
                "zipCode": "62701",
            }


@dataclass
class Stream:
    """An event stream read in a thread: the names of the customers created, in order."""

    url: str
    names: list[str] = field(default_factory=list)
    opened: threading.Event = field(default_factory=threading.Event)
    ended: str = ""

    def run(self) -> None:
        try:
            with (
                httpx.Client(timeout=30) as client,
                connect_sse(client, "GET", self.url + "/customers/events") as source,
            ):
                self.opened.set()
                for event in source.iter_sse():
                    if event.event == "customer.created":
                        self.names.append(event.json()["data"]["name"])
        except httpx.HTTPError as error:
            self.ended = repr(error)
        finally:
            self.opened.set()


def test_the_database_restarted_under_load(
    postgresql_server: PostgresServer, postgresql_url: str
) -> None:
    settings = make_settings(store_url=postgresql_url)
    servers = [BackgroundServer(settings), BackgroundServer(settings)]
    for server in servers:
        server.start()
    load = Load([server.url for server in servers])
    stream = Stream(servers[1].url)
    reader = threading.Thread(target=stream.run, daemon=True)
    reader.start()
    assert stream.opened.wait(10)
    try:
        with load.running(3):
            time.sleep(0.5)
            postgresql_server.stop()
            time.sleep(1.0)
            before_start = len(load.statuses)
            postgresql_server.start()
            deadline = time.monotonic() + 20
            while not load.every_instance_succeeded_since(before_start):
                assert time.monotonic() < deadline, "the instances did not come back"
                time.sleep(0.05)
            time.sleep(0.5)
        # Only creates and refusals, and the refusals are 503s as they should be.
        assert set(load.statuses) <= {201, 503}
        assert load.refusals, "the restart was not noticed"
        for refusal in load.refusals:
            assert refusal.headers["retry-after"] == "1"
            assert refusal.headers["content-type"].startswith("application/problem+json")
            assert refusal.json()["status"] == 503
        # Back for good: once an instance has answered again, it refuses no more.
        for instance in range(len(servers)):
            after = [status for i, status in load.answers[before_start:] if i == instance]
            assert 201 in after
            assert set(after[after.index(201) :]) == {201}, after
        assert load.unanswered == 0
        _check_nothing_lost_or_half_written(load, postgresql_url, [s.url for s in servers])
        # The stream lived through it: every acknowledged create came, once, from both
        # instances (the last may still be on its way).
        created = {orjson.loads(body)["name"] for body in load.acknowledged.values()}
        deadline = time.monotonic() + 10
        while not created <= set(stream.names):
            assert time.monotonic() < deadline, created - set(stream.names)
            time.sleep(0.05)
        assert stream.ended == ""
        assert len(stream.names) == len(set(stream.names))
    finally:
        for server in servers:
            server.stop()
        reader.join(10)


def test_an_instance_killed_during_writes_loses_nothing_acknowledged(
    postgresql_url: str, processes: list[Process]
) -> None:
    database = StoreUnderTest("postgresql", url=postgresql_url)
    for _ in range(2):
        processes.append(Process(database, "--rate-limit", "off", "--log-level", "warning"))
    victim, survivor = processes
    load = Load([victim.url, survivor.url])
    with load.running(4):
        time.sleep(1.0)
        victim.kill()
        # Until a write met the dead instance (on its way when it died, or sent to it
        # after): a fixed half second missed it once on a loaded machine, the writers all
        # waiting on the survivor (CI, stop 37).
        deadline = time.monotonic() + 15
        while load.unanswered == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert load.unanswered > 0  # writes went to the instance killed, and got no answer
    assert set(load.statuses) == {201}
    # A new instance, and the one that lived, have every acknowledged write, whole. It reads
    # them all back, over 100 in 10 s on a quick machine: no rate limit, as for the writers.
    processes.append(Process(database, "--rate-limit", "off", "--log-level", "warning"))
    _check_nothing_lost_or_half_written(load, postgresql_url, [survivor.url, processes[-1].url])
    # Ids go on after the highest written, on every instance: none is handed out twice.
    created = processes[-1].client.post(
        "/customers", json={"name": "After", "address": ADDRESS}, headers=EDITOR
    )
    assert created.status_code == 201
    new_id = created.json()["id"]
    assert new_id > max(set(_customers_in_database(postgresql_url)) - {new_id})
