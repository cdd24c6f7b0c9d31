"""The event hub, the event logs and the stream's messages, without a server.

A store's write becomes one event that commits with it (and none when it is
undone); the backlog is bounded in the log, in the database (SQLite and
PostgreSQL: the ``database`` fixture) and in memory; a stream resumes after
``Last-Event-ID`` and says what it cannot send.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from mock_server import create_app
from mock_server.events import hub as hub_module
from mock_server.events import stream as event_stream
from mock_server.events.hub import EventHub
from mock_server.events.stream import opening
from mock_server.events.wire import event_id, parse_event_id
from mock_server.store import Store
from mock_server.store.errors import StoreUnavailable
from mock_server.store.event_log import Event, MemoryEventLog
from tests.mock_server.conftest import StoreUnderTest, make_settings

CUSTOMER = {"name": "Ann", "address": {"streetAddress": "1 Main St", "city": "X"}}


def _event(n: int = 0) -> Event:
    return Event("thing.created", float(n), "things", f"/things/{n}", {"n": n})


def test_a_memory_log_numbers_events_and_keeps_the_newest() -> None:
    log = MemoryEventLog(capacity=3)
    numbered = [log.append(_event(n)) for n in range(5)]
    assert [e.seq for e in numbered] == [1, 2, 3, 4, 5]
    assert log.newest() == 5
    assert [e.seq for e in log.after(0, 10)] == [3, 4, 5]
    assert [e.seq for e in log.after(3, 10)] == [4, 5]
    assert [e.seq for e in log.after(3, 1)] == [4]
    assert log.after(5, 10) == []


def _soon(check: Callable[[], bool], seconds: float = 5) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.005)


def test_a_database_log_is_shared_bounded_and_keeps_its_origin(database: StoreUnderTest) -> None:
    one, two = database.persistence().event_log(3), database.persistence().event_log(3)
    assert one.origin == two.origin  # every worker's ids carry the same origin
    for n in range(5):
        (one if n % 2 else two).append(_event(n))
    assert two.newest() == 5  # its own, at once
    # The other's, as heard: PostgreSQL's NOTIFY may still be on its way.
    _soon(lambda: one.newest() == 5)
    assert [e.payload for e in two.after(0, 10)] == [{"n": 2}, {"n": 3}, {"n": 4}]
    assert [e.seq for e in one.after(3, 10)] == [4, 5]
    reopened = database.persistence().event_log(3)
    assert reopened.origin == one.origin
    assert reopened.newest() == 5
    assert reopened.append(_event(9)).seq == 6  # numbers go on after a restart
    assert [e.seq for e in reopened.after(0, 10)] == [4, 5, 6]


def test_each_write_is_one_event_told_after_it_commits(database: StoreUnderTest) -> None:
    store = Store(persistence=database.persistence())
    hub = EventHub(store.persistence.event_log(100))  # type: ignore[union-attr]
    store.watcher = hub
    told: list[Event] = []
    hub.listeners.append(told.append)
    created = store.create("customers", CUSTOMER, 1.0)
    store.put("customers", created.id, {**CUSTOMER, "name": "Bo"}, 2.0, action="updated")
    store.delete("customers", created.id, 3.0)
    store.reset()
    assert [e.type for e in told] == [
        "customer.created",
        "customer.updated",
        "customer.deleted",
        "data.reset",
    ]
    assert told[2].payload["name"] == "Bo"  # a deletion carries the record as it was
    assert told[0].path == f"/customers/{created.id}"
    assert [e.seq for e in told] == [1, 2, 3, 4]


def test_an_undone_write_leaves_no_event(database: StoreUnderTest) -> None:
    persistence = database.persistence()
    store = Store(persistence=persistence)
    hub = EventHub(persistence.event_log(100))
    store.watcher = hub
    told: list[Event] = []
    hub.listeners.append(told.append)

    def refuse(*args: object) -> None:
        raise OSError("disk full")

    persistence.saved = refuse  # type: ignore[method-assign]
    with pytest.raises(OSError, match="disk full"):
        store.create("customers", CUSTOMER, 1.0)
    assert told == []
    assert hub.log.newest() == 0  # rolled back with the write
    del persistence.saved
    assert hub.log.append(_event()).seq == 1  # and its number was not spent


def test_ids_carry_the_origin_and_only_ours_parse() -> None:
    assert event_id(42, "5f3a9c1e") == "42-5f3a9c1e"
    assert parse_event_id(" 42-5f3a9c1e ") == (42, "5f3a9c1e")
    for other in ("42", "", "x-5f3a9c1e", "42-5F3A9C1E", "1" * 19 + "-5f3a9c1e"):
        assert parse_event_id(other) is None, other


def _hub_with(count: int, capacity: int) -> EventHub:
    hub = EventHub(MemoryEventLog(capacity))
    for n in range(count):
        hub.publish(_event(n))
    hub.refresh()
    return hub


def test_the_ring_is_bounded_and_says_how_many_a_cursor_missed() -> None:
    hub = _hub_with(count=10, capacity=4)
    assert len(hub._ring) == 4
    assert (hub.oldest(), hub.newest()) == (7, 10)
    events, missed = hub.since(2)
    assert [e.seq for e in events] == [7, 8, 9, 10]
    assert missed == 4  # 3, 4, 5, 6
    assert hub.since(8) == (list(hub._ring)[2:], 0)
    assert hub.since(10) == ([], 0)


def test_a_resumption_from_inside_the_backlog_is_exact() -> None:
    hub = _hub_with(count=5, capacity=10)
    assert opening(hub, None) == (5, None)
    assert opening(hub, event_id(3, hub.origin)) == (3, None)


def test_an_id_from_elsewhere_replays_the_backlog_and_says_so() -> None:
    hub = _hub_with(count=5, capacity=3)
    for stranger in ("3-00000000", "junk", event_id(99, hub.origin)):
        cursor, said = opening(hub, stranger)
        assert cursor == 2  # every kept event (3, 4, 5) follows
        assert said is not None
        assert said.event == event_stream.GAP
        assert '"reason":"unknown-id"' in str(said.data)


async def _take(hub: EventHub, last: str | None, count: int) -> list[object]:
    stream = event_stream.messages(hub, lambda e: {"id": event_id(e.seq, hub.origin)}, last, "hi")
    got = [await anext(stream) for _ in range(count)]
    await stream.aclose()
    return got


async def test_a_stream_resuming_from_before_the_backlog_is_told_how_many_it_missed() -> None:
    hub = _hub_with(count=10, capacity=4)
    first, gap, *events = await _take(hub, event_id(2, hub.origin), 6)
    assert first.retry == event_stream.RETRY_MS  # type: ignore[attr-defined]
    assert gap.event == event_stream.GAP  # type: ignore[attr-defined]
    assert '"reason":"backlog"' in gap.data  # type: ignore[attr-defined]
    assert '"missed":4' in gap.data  # type: ignore[attr-defined]
    assert [e.id for e in events] == [event_id(n, hub.origin) for n in (7, 8, 9, 10)]  # type: ignore[attr-defined]


async def test_a_waiting_stream_wakes_for_a_new_event_and_ends_when_the_hub_closes() -> None:
    hub = _hub_with(count=0, capacity=4)
    stream = event_stream.messages(hub, lambda e: {"id": event_id(e.seq, hub.origin)}, None, "hi")
    await anext(stream)
    waiting = asyncio.ensure_future(anext(stream))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    hub.publish(_event(1))
    message = await asyncio.wait_for(waiting, 1)
    assert message.id == event_id(1, hub.origin)
    ending = asyncio.ensure_future(anext(stream))
    await asyncio.sleep(0.01)
    hub.close()
    with pytest.raises(StopAsyncIteration):
        await asyncio.wait_for(ending, 1)


class _Unreachable(MemoryEventLog):
    """A shared log whose reads fail ``failures`` times (its database restarting)."""

    shared = True

    def __init__(self, failures: int) -> None:
        super().__init__()
        self.failures = failures

    def after(self, seq: int, limit: int) -> list[Event]:
        if self.failures:
            self.failures -= 1
            raise StoreUnavailable("The store's database cannot be reached now.", 1)
        return super().after(seq, limit)


async def test_a_stream_waits_through_a_log_it_cannot_read_for_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hub_module, "POLL_SECONDS", 0.01)
    log = _Unreachable(failures=0)
    hub = EventHub(log)
    stream = event_stream.messages(hub, lambda e: {"id": event_id(e.seq, hub.origin)}, None, "hi")
    await anext(stream)
    waiting = asyncio.ensure_future(anext(stream))
    await asyncio.sleep(0.02)
    log.failures = 3  # the next three reads fail; the poller tries again each time
    log.append(_event(1))  # another process's event: only the poller finds it
    message = await asyncio.wait_for(waiting, 1)
    assert message.id == event_id(1, hub.origin)
    assert log.failures == 0
    hub.close()


async def test_a_server_turns_each_kind_of_change_into_its_event_type() -> None:
    app = create_app(make_settings())
    service = app.service
    told: list[Event] = []
    service.events.listeners.append(told.append)
    store = service.store
    order = store.create("orders", {"customerId": 1, "items": [], "status": "draft"}, 1.0)
    store.put("orders", order.id, {**order.data, "status": "placed"}, 2.0, action="placed")
    store.put("products", 99, {"name": "New", "cost": 1.0, "currency": "USD"}, 3.0)
    store.put("products", 99, {"name": "New", "cost": 2.0, "currency": "USD"}, 4.0)
    assert [e.type for e in told] == [
        "order.created",
        "order.placed",
        "product.created",
        "product.replaced",
    ]
    types = service.events.describer.types()
    assert {"customer.updated", "order.shipped", "job.progress", "data.reset"} <= set(types)
    customer = Event("customer.created", 1.0, "customers", "/customers/1", CUSTOMER, 1)
    assert isinstance(service.events.describer.render(customer, 2)["address"], dict)
    assert isinstance(service.events.describer.render(customer, 1)["address"], str)
