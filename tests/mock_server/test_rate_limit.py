"""The rate limit: 429 with Retry-After and RateLimit-* headers, per client, sliding window.

Time is the service's clock, moved by hand: no test sleeps.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from mock_server import create_app
from mock_server.app import MockApp
from mock_server.auth.tokens import Claims, issue
from mock_server.layers.rate_limit import SlidingWindow
from mock_server.settings import RateLimit
from tests.mock_server.conftest import BASE, basic, make_settings

T0 = 1_000_000.0


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def limited_app(clock: Clock) -> MockApp:
    app = create_app(make_settings(rate_limit=RateLimit(3, 10.0)))
    app.service.clock = clock
    return app


def client_from(app: MockApp, address: str) -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url=BASE)


@pytest.fixture
async def client(limited_app: MockApp) -> AsyncIterator[httpx.AsyncClient]:
    async with client_from(limited_app, "10.0.0.1") as c:
        yield c


def token_for(app: MockApp, user: str, expires: float = T0 + 3600) -> dict[str, str]:
    token = issue(Claims(user, "editor", int(expires)), app.service.auth.secret)
    return {"Authorization": f"Bearer {token}"}


async def use_up(client: httpx.AsyncClient, count: int = 3, **kwargs: Any) -> None:
    for _ in range(count):
        assert (await client.get("/", **kwargs)).status_code == 200


async def test_every_response_carries_the_ratelimit_headers(client: httpx.AsyncClient) -> None:
    remaining = []
    for _ in range(3):
        response = await client.get("/")
        assert response.status_code == 200
        assert response.headers["ratelimit-limit"] == "3"
        assert response.headers["ratelimit-reset"] == "10"
        assert response.headers["ratelimit-policy"] == "3;w=10"
        remaining.append(response.headers["ratelimit-remaining"])
    assert remaining == ["2", "1", "0"]


async def test_over_the_limit_is_429_with_retry_after(
    client: httpx.AsyncClient, clock: Clock
) -> None:
    await use_up(client)
    clock.now += 4
    response = await client.get("/")
    assert response.status_code == 429
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert response.json()["status"] == 429
    assert response.headers["retry-after"] == "6"
    assert response.headers["ratelimit-remaining"] == "0"
    assert response.headers["ratelimit-reset"] == "6"


async def test_errors_and_every_method_count(client: httpx.AsyncClient) -> None:
    assert (await client.get("/nothing")).status_code == 404
    assert (await client.options("/")).status_code == 204
    assert (await client.head("/")).status_code == 200
    assert (await client.get("/")).status_code == 429


async def test_the_window_slides(client: httpx.AsyncClient, clock: Clock) -> None:
    await client.get("/")  # t0
    clock.now += 5
    await client.get("/")  # t0 + 5
    await client.get("/")  # t0 + 5
    clock.now = T0 + 9.5
    assert (await client.get("/")).status_code == 429
    clock.now = T0 + 10  # the first request has left the window: one slot free
    response = await client.get("/")
    assert response.status_code == 200
    assert response.headers["ratelimit-remaining"] == "0"
    assert (await client.get("/")).status_code == 429


async def test_refused_requests_are_not_counted(client: httpx.AsyncClient, clock: Clock) -> None:
    await use_up(client)
    for _ in range(5):
        assert (await client.get("/")).status_code == 429
    clock.now += 10
    await use_up(client)


async def test_each_address_has_its_own_budget(limited_app: MockApp) -> None:
    async with client_from(limited_app, "10.0.0.1") as first:
        await use_up(first)
        assert (await first.get("/")).status_code == 429
    async with client_from(limited_app, "10.0.0.2") as second:
        assert (await second.get("/")).status_code == 200


async def test_a_verified_token_subject_is_one_client_across_addresses(
    limited_app: MockApp,
) -> None:
    alice = token_for(limited_app, "alice")
    async with client_from(limited_app, "10.0.0.1") as first:
        await use_up(first, 2, headers=alice)
    async with client_from(limited_app, "10.0.0.2") as second:
        await use_up(second, 1, headers=alice)
        assert (await second.get("/", headers=alice)).status_code == 429
        # The address itself still has its own budget.
        assert (await second.get("/")).status_code == 200


async def test_a_token_has_its_own_budget_apart_from_its_address(
    client: httpx.AsyncClient, limited_app: MockApp
) -> None:
    await use_up(client)
    assert (await client.get("/")).status_code == 429
    response = await client.get("/", headers=token_for(limited_app, "alice"))
    assert response.status_code == 200


async def test_forged_or_expired_tokens_do_not_buy_a_fresh_budget(
    client: httpx.AsyncClient, limited_app: MockApp
) -> None:
    await use_up(client)
    forged = issue(Claims("mallory", "admin", int(T0 + 3600)), b"not the server secret")
    expired = token_for(limited_app, "alice", expires=T0 - 1)
    for headers in ({"Authorization": f"Bearer {forged}"}, expired):
        assert (await client.get("/", headers=headers)).status_code == 429


async def test_basic_user_names_do_not_buy_a_fresh_budget(client: httpx.AsyncClient) -> None:
    await use_up(client)
    for user in ("alice", "bob", "someone-else"):
        response = await client.get("/", headers=basic(user, "whatever"))
        assert response.status_code == 429


async def test_rate_limit_off_adds_nothing() -> None:
    app = create_app(make_settings(rate_limit=None))
    async with client_from(app, "10.0.0.1") as client:
        for _ in range(20):
            response = await client.get("/")
            assert response.status_code == 200
            assert "ratelimit-limit" not in response.headers


@pytest.mark.parametrize(
    ("limit", "policy", "wait"), [((3, 10.0), "3;w=10", "10"), ((100, 60.0), "100;w=60", "60")]
)
async def test_the_status_demo_429_says_none_are_left(
    limit: tuple[int, float], policy: str, wait: str
) -> None:
    # QA: the demo's 429 said "RateLimit-Remaining: 99" of 100, a refusal saying
    # requests were left; the draft wants RateLimit-Reset and Retry-After to agree.
    app = create_app(make_settings(rate_limit=RateLimit(*limit)))
    async with client_from(app, "10.0.0.1") as client:
        response = await client.get("/status/429")
    assert response.status_code == 429
    assert response.headers["ratelimit-remaining"] == "0"
    assert response.headers["ratelimit-limit"] == str(limit[0])
    assert response.headers["ratelimit-policy"] == policy
    assert response.headers["ratelimit-reset"] == response.headers["retry-after"] == wait


async def test_the_status_demo_429_without_a_rate_limit_says_retry_after_alone() -> None:
    app = create_app(make_settings(rate_limit=None))
    async with client_from(app, "10.0.0.1") as client:
        response = await client.get("/status/429")
    assert response.headers["retry-after"] == "10"
    assert not [name for name in response.headers if name.startswith("ratelimit")]


async def test_answers_other_than_429_still_say_the_budget(client: httpx.AsyncClient) -> None:
    response = await client.get("/status/503")
    assert response.status_code == 503
    assert response.headers["ratelimit-remaining"] == "2"


def test_idle_clients_are_forgotten() -> None:
    window = SlidingWindow(RateLimit(2, 1.0))
    for n in range(5000):
        window.take(f"address:{n}", float(n))
    assert len(window) <= 1024 + 2
