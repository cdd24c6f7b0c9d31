"""Sending politely: spacing, Retry-After, the rate limit's reset, the deadline."""

from __future__ import annotations

import httpx
import pytest

from explorer.core.http.request import RequestSpec
from explorer.core.survey.polite import OutOfTime, PoliteSender
from tests.explorer.survey.fakes import FakeClock, handler_client


def sender(client_handler: object, clock: FakeClock, **kwargs: object) -> PoliteSender:
    client = handler_client(client_handler)  # type: ignore[arg-type]
    return PoliteSender(
        client.send,
        deadline=clock.now + kwargs.pop("seconds", 60.0),  # type: ignore[operator]
        clock=clock,
        sleep=clock.sleep,
        **kwargs,  # type: ignore[arg-type]
    )


async def test_requests_are_spaced_by_the_delay() -> None:
    clock = FakeClock()
    polite = sender(lambda request: httpx.Response(200), clock, delay=0.5)
    for _ in range(3):
        await polite.send(RequestSpec(url="http://api.test/"))
    assert clock.slept == [0.5, 0.5]
    assert polite.sent == 3


async def test_a_429_with_retry_after_is_waited_for_then_sent_again() -> None:
    clock = FakeClock()
    answers = iter([httpx.Response(429, headers={"Retry-After": "7"}), httpx.Response(200)])
    polite = sender(lambda request: next(answers), clock)
    exchange = await polite.send(RequestSpec(url="http://api.test/x"))
    assert exchange.response.status == 200
    assert clock.slept == [7.0]
    assert [(w.seconds, w.why) for w in polite.waits] == [(7.0, "429 with Retry-After")]


async def test_a_503_retry_after_date_counts_from_the_answers_date() -> None:
    clock = FakeClock()
    busy = httpx.Response(
        503,
        headers={
            "Date": "Sun, 06 Nov 1994 08:49:37 GMT",
            "Retry-After": "Sun, 06 Nov 1994 08:49:40 GMT",
        },
    )
    answers = iter([busy, httpx.Response(200)])
    polite = sender(lambda request: next(answers), clock)
    assert (await polite.send(RequestSpec(url="http://api.test/"))).response.status == 200
    assert clock.slept == [3.0]


async def test_a_wait_past_the_deadline_is_not_made() -> None:
    clock = FakeClock()
    polite = sender(
        lambda request: httpx.Response(429, headers={"Retry-After": "120"}), clock, seconds=30.0
    )
    exchange = await polite.send(RequestSpec(url="http://api.test/"))
    assert exchange.response.status == 429  # the answer is the 429 itself
    assert clock.slept == []


async def test_a_429_without_retry_after_backs_off_doubling() -> None:
    clock = FakeClock()
    polite = sender(lambda request: httpx.Response(429), clock)
    exchange = await polite.send(RequestSpec(url="http://api.test/"))
    assert exchange.response.status == 429
    assert clock.slept == [1.0, 2.0]
    assert polite.sent == 3


async def test_an_exhausted_quota_holds_the_next_request_until_its_reset() -> None:
    clock = FakeClock()
    headers = {"RateLimit-Remaining": "0", "RateLimit-Reset": "4"}
    polite = sender(lambda request: httpx.Response(200, headers=headers), clock)
    await polite.send(RequestSpec(url="http://api.test/a"))
    await polite.send(RequestSpec(url="http://api.test/b"))
    assert clock.slept == [4.0]


async def test_no_request_starts_after_the_deadline() -> None:
    clock = FakeClock()
    polite = sender(lambda request: httpx.Response(200), clock, seconds=1.0, delay=2.0)
    await polite.send(RequestSpec(url="http://api.test/"))
    with pytest.raises(OutOfTime):
        await polite.send(RequestSpec(url="http://api.test/"))
