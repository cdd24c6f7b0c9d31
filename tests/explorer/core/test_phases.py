"""The Trip tab's phases add up to the person's wait, from the key to the page painted:
the arithmetic on given clock readings, and the client's marks over a real socket with a
clock that counts its readings (no timing: every figure is a count)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from explorer.core.http.client import Client
from explorer.core.http.exchange import Timings
from explorer.core.http.phases import PHASES, Phases, Wait, phase_at, phases_of
from explorer.core.http.request import RequestSpec
from mock_server import BackgroundServer, Settings


def spent(phases: Phases) -> dict[str, float]:
    return {phase: phases.of(phase) for phase in PHASES}


def test_each_instant_from_key_to_paint_counts_once_in_its_phase() -> None:
    marks = [("connect", 10.5), ("send", 11.0), ("wait", 11.25), ("receive", 13.0)]
    phases = phases_of(10.0, marks, done_at=13.5, shown_at=15.0)
    assert spent(phases) == {
        "queue": 0.5,
        "connect": 0.5,
        "send": 0.25,
        "wait": 1.75,
        "receive": 0.5,
        "show": 1.5,
    }
    assert phases.total == 5.0
    assert phases.restwalk == 2.0  # queue and show
    assert phases.wire == 3.0


def test_a_redirect_adds_each_hops_phases_and_the_time_between_them_is_restwalks() -> None:
    marks = [
        ("send", 1.0),
        ("wait", 2.0),
        ("receive", 4.0),
        ("queue", 5.0),  # the 301 read; the next hop not sent yet
        ("send", 7.0),
        ("wait", 8.0),
        ("receive", 11.0),
    ]
    phases = phases_of(0.0, marks, done_at=12.0, shown_at=20.0)
    assert spent(phases) == {
        "queue": 3.0,
        "connect": 0.0,
        "send": 2.0,
        "wait": 5.0,
        "receive": 2.0,
        "show": 8.0,
    }
    assert phases.total == 20.0


def test_marks_given_out_of_order_or_outside_the_wait_still_add_up() -> None:
    marks = [("wait", 3.0), ("send", 2.0), ("connect", -5.0), ("receive", 99.0), ("odd", 2.5)]
    phases = phases_of(1.0, marks, done_at=4.0, shown_at=6.0)
    assert phases.total == 5.0
    assert phases.connect == 1.0  # from the key (where the early mark was moved) to send
    assert phases.receive == 0.0  # moved to the exchange's end
    assert phases.show == 2.0


def test_an_answer_of_the_cache_is_restwalks_time_alone() -> None:
    phases = phases_of(2.0, [], done_at=2.5, shown_at=3.0)
    assert (phases.queue, phases.show, phases.wire, phases.total) == (0.5, 0.5, 0.0, 1.0)


def test_a_page_painted_before_the_key_waited_nothing() -> None:
    assert phases_of(5.0, [("send", 5.5)], done_at=4.0, shown_at=4.5).total == 0.0


def test_httpcores_events_begin_phases_in_http1_and_http2() -> None:
    assert phase_at("connection.connect_tcp.started") == "connect"
    assert phase_at("connection.start_tls.started") == "connect"
    assert phase_at("http2.send_connection_init.started") == "connect"
    assert phase_at("http11.send_request_headers.started") == "send"
    assert phase_at("http2.send_request_headers.started") == "send"
    assert phase_at("http11.send_request_body.complete") == "wait"
    assert phase_at("http2.receive_response_headers.complete") == "receive"
    assert phase_at("http11.receive_response_body.complete") is None
    assert phase_at("retry.started") == "queue"


def test_a_wait_has_phases_once_painted_and_on_the_clients_clock() -> None:
    wait = Wait(asked_at=1.0)
    timed = Timings(0.1, 0.2, ended=2.0, marks=(("send", 1.5),))
    assert wait.phases(timed) is None  # not painted yet
    wait.shown_at = 3.0
    phases = wait.phases(timed)
    assert phases is not None
    assert (phases.queue, phases.send, phases.show, phases.total) == (0.5, 0.5, 1.0, 2.0)
    assert wait.phases(Timings(0.1, 0.2)) is None  # a kept copy, not timed on this clock


class Counter:
    """A clock that moves one tick each time it is read: a phase's figure is how often
    the client looked at the clock in it, the same on a quick machine as a slow one."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture(scope="module")
def mock_url() -> Iterator[str]:
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None)) as server:
        yield server.url


async def test_the_clients_phases_over_a_socket_add_up_to_the_wait(mock_url: str) -> None:
    clock = Counter()
    async with Client(clock=clock) as client:
        for connection in ("new", "kept alive"):
            asked = clock()
            exchange = await client.send(RequestSpec(url=f"{mock_url}/customers"))
            shown = clock()
            wait = Wait(asked, shown_at=shown)
            phases = wait.phases(exchange.timings)
            assert phases is not None
            assert phases.total == shown - asked
            assert phases.send > 0
            assert phases.wait > 0
            assert phases.receive > 0
            assert phases.show > 0
            if connection == "new":
                assert phases.connect > 0
            else:
                assert phases.connect == 0


async def test_a_redirects_hops_are_all_in_the_phases(mock_url: str) -> None:
    clock = Counter()
    async with Client(clock=clock) as client:
        asked = clock()
        exchange = await client.send(RequestSpec(url=f"{mock_url}/clients"))  # a 301
        assert len(exchange.hops) == 1
        marks = [phase for phase, _ in exchange.timings.marks]
        assert marks.count("send") == 2
        assert "queue" in marks  # between the hops
        shown = clock()
        phases = Wait(asked, shown_at=shown).phases(exchange.timings)
        assert phases is not None
        assert phases.total == shown - asked
