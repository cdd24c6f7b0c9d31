"""A flood of wrong passwords starves no correct login; failures slow only their user.

Password hashing was one queue: twenty concurrent wrong passwords for bob, well
inside the rate limit, kept alice's first login waiting 5.5 s. These tests
assert order and completion, not milliseconds (``bench/bench_login_flood.py``
prints the times).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from mock_server import BackgroundServer
from mock_server.auth import password_checks
from mock_server.auth.password_checks import (
    FIRST_DELAY,
    FORGET_AFTER,
    FREE_FAILURES,
    LONGEST_DELAY,
    MAX_WAITING,
    PasswordChecks,
    backoff_delay,
)
from mock_server.auth.users import Users
from tests.mock_server.conftest import make_settings

#: Every hash paid in full: the flood's point is their cost (see tests/conftest.py).
pytestmark = pytest.mark.password_cost

FLOOD = 20


@pytest.fixture
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(make_settings()) as served:
        yield served


async def test_a_correct_login_completes_while_another_user_is_flooded(
    server: BackgroundServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fairness alone here (the backoff has its own test): bob's queue drains in seconds.
    monkeypatch.setattr(password_checks, "FIRST_DELAY", 0.0)
    users = server.app.service.auth.users
    limits = httpx.Limits(max_connections=FLOOD + 5)
    async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=120) as client:

        async def wrong(n: int) -> httpx.Response:
            return await client.post("/auth/token", data={"username": "bob", "password": f"x{n}"})

        flood = [asyncio.create_task(wrong(n)) for n in range(FLOOD)]
        # The flood is being hashed (by the server's threads), the rest of it waiting.
        while users.hashes == 0:  # noqa: ASYNC110 (another thread's count: nothing to await)
            await asyncio.sleep(0.01)
        alice = await client.post(
            "/auth/token", data={"username": "alice", "password": "wonderland"}
        )
        assert alice.status_code == 200
        answered = [task.result().status_code for task in flood if task.done()]
        # One queue answered alice after all twenty; now bob's wait behind each other.
        assert answered.count(401) < FLOOD // 2, answered
        statuses = await asyncio.gather(*flood)
    assert sorted({answer.status_code for answer in statuses}) == [401, 429]
    refused = [answer for answer in statuses if answer.status_code == 429]
    assert len(refused) == FLOOD - MAX_WAITING  # more passwords than may wait for bob
    assert all(int(answer.headers["retry-after"]) >= 1 for answer in refused)
    assert refused[0].headers["content-type"].startswith("application/problem+json")


async def test_a_burst_of_one_password_is_hashed_once_and_never_refused(
    server: BackgroundServer,
) -> None:
    # Fifty load-test workers logging in as alice at once send one password.
    limits = httpx.Limits(max_connections=60)
    async with httpx.AsyncClient(base_url=server.url, limits=limits, timeout=60) as client:
        form = {"username": "alice", "password": "wonderland"}
        answers = await asyncio.gather(*(client.post("/auth/token", data=form) for _ in range(50)))
    assert {answer.status_code for answer in answers} == {200}
    assert server.app.service.auth.users.hashes == 1


class FakeTime:
    """A clock that moves only when slept on, and the sleeps asked for."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


async def test_failures_slow_only_their_own_user() -> None:
    time = FakeTime()
    checks = PasswordChecks(Users(), clock=time.clock, sleep=time.sleep)
    for n in range(FREE_FAILURES + 3):
        assert await checks.check("bob", f"guess {n}") is None
    assert time.slept == [FIRST_DELAY, FIRST_DELAY * 2, FIRST_DELAY * 4]
    assert checks.failures("bob") == FREE_FAILURES + 3
    assert await checks.check("alice", "wonderland") is not None
    assert await checks.check("nobody", "guess") is None  # names no user: an account too
    assert len(time.slept) == 3  # neither waited for bob's failures
    assert await checks.check("bob", "builder") is not None  # bob waits, then gets in
    assert time.slept[-1] == FIRST_DELAY * 8
    assert checks.failures("bob") == 0  # a success forgets the failures
    for n in range(FREE_FAILURES):
        await checks.check("bob", f"again {n}")
    time.now += FORGET_AFTER + 1
    assert checks.failures("bob") == 0  # and so does a quiet minute


def test_the_backoff_doubles_up_to_its_longest() -> None:
    assert [backoff_delay(n) for n in range(FREE_FAILURES)] == [0.0] * FREE_FAILURES
    delays = [backoff_delay(FREE_FAILURES + n) for n in range(8)]
    assert delays[:3] == [FIRST_DELAY, FIRST_DELAY * 2, FIRST_DELAY * 4]
    assert max(delays) == delays[-1] == LONGEST_DELAY
