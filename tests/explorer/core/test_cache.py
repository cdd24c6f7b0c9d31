"""The session's cache (hishel, private, in bounded memory) against the mock's ASGI app:
what it reuses, revalidates and refuses, and the words that say why."""

from __future__ import annotations

import time
import types

import hishel._core._spec as hishel_spec
import httpx
import pytest

import explorer.core.http.cache as cache_module
from explorer.core.http.cache_storage import MemoryStorage
from explorer.core.http.client import Client
from explorer.core.http.exchange import Exchange
from explorer.core.http.request import RequestSpec
from mock_server import Settings, create_app
from tests.mock_server.conftest import TEST_HOSTS

MOCK = "http://mock"


class Counting(httpx.AsyncBaseTransport):
    """The mock's ASGI app, with every request that reaches it kept."""

    def __init__(self) -> None:
        self.app = create_app(Settings(rate_limit=None, allowed_hosts=TEST_HOSTS))
        self.inner = httpx.ASGITransport(app=self.app)
        #: The header fields of each request as it arrived, and the status answered.
        self.seen: list[tuple[httpx.Headers, int]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        self.seen.append((httpx.Headers(request.headers), response.status_code))
        return response


class Clock:
    """The time hishel, the explanations and the mock read: stopped on a whole second when
    the test starts, moved only by ``ahead`` seconds. (Real time made "another 42 s" read
    41, and "age 75 s" read 74 or 76, on a loaded machine.)"""

    def __init__(self) -> None:
        self.start = float(int(time.time()))
        self.ahead = 0.0

    def time(self) -> float:
        return self.start + self.ahead


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch, server: Counting) -> Clock:
    fake = Clock()
    stand_in = types.SimpleNamespace(time=fake.time)
    monkeypatch.setattr(hishel_spec, "time", stand_in)
    monkeypatch.setattr(cache_module, "time", stand_in)
    server.app.service.clock = fake.time
    return fake


@pytest.fixture
def server() -> Counting:
    return Counting()


@pytest.fixture
def client(server: Counting) -> Client:
    made = Client(transport=server)
    made.set_caching(True)
    return made


async def get(client: Client, path: str, *headers: tuple[str, str]) -> Exchange:
    return await client.send(RequestSpec(url=MOCK + path, headers=headers))


async def test_a_fresh_response_is_reused_without_asking_the_server(
    client: Client, server: Counting, clock: Clock
) -> None:
    first = await get(client, "/customers/1")
    assert first.cache is not None
    assert first.cache.outcome == "stored"
    assert first.cache.summary == "stored in the cache: fresh for 60 s (max-age=60)"
    assert "then revalidated with If-None-Match (its ETag)" in first.cache.details[0]
    clock.ahead = 18
    second = await get(client, "/customers/1")
    assert len(server.seen) == 1  # nothing sent the second time
    assert second.cache is not None
    assert second.cache.from_cache
    assert second.cache.summary == "from the cache: fresh for another 42 s (max-age=60)"
    assert second.response.body == first.response.body
    assert second.response.header("Age") == "18"


async def test_a_stale_response_is_revalidated_and_a_304_serves_the_stored_body(
    client: Client, server: Counting, clock: Clock
) -> None:
    first = await get(client, "/customers/1")
    etag = first.response.header("ETag")
    clock.ahead = 75
    again = await get(client, "/customers/1")
    headers, status = server.seen[-1]
    assert status == 304
    assert headers["If-None-Match"] == etag
    assert again.response.status == 200
    assert again.response.body == first.response.body
    assert again.cache is not None
    assert again.cache.outcome == "revalidated"
    assert again.cache.summary == "revalidated: 304 Not Modified, body from the cache"
    assert again.cache.details[0] == (
        "The stored copy had gone stale: age 75 s, fresh for 60 s (max-age=60)."
    )
    assert f"If-None-Match: {etag}" in again.cache.details[1]
    assert ("If-None-Match", etag) in [(k.title(), v) for k, v in again.final.headers]
    # The 304 refreshed it (its Date is the 304's): fresh again, reused without asking.
    clock.ahead = 0
    reused = await get(client, "/customers/1")
    assert reused.cache is not None
    assert reused.cache.outcome == "fresh"
    assert len(server.seen) == 2


async def test_a_reload_checks_a_fresh_copy_with_the_server_as_a_browser_does(
    client: Client, server: Counting, clock: Clock
) -> None:
    first = await get(client, "/customers/1")
    etag = first.response.header("ETag")
    clock.ahead = 10  # still fresh: a link followed would reuse it without asking
    spec = RequestSpec(url=MOCK + "/customers/1")
    again = await client.send(spec, revalidate=True)
    headers, status = server.seen[-1]
    assert len(server.seen) == 2
    assert status == 304
    assert headers["If-None-Match"] == etag
    assert headers["Cache-Control"] == "no-cache"
    assert again.response.body == first.response.body
    assert again.cache is not None
    assert again.cache.outcome == "revalidated"
    assert again.cache.details[0].startswith("A reload (r) checks the stored copy with the server")
    sent = [(k.title(), v) for k, v in again.final.headers]
    assert ("Cache-Control", "no-cache") in sent  # the Raw tab shows what went
    assert ("If-None-Match", etag) in sent
    followed = await client.send(spec)  # no reload: the fresh copy, nothing sent
    assert followed.cache is not None
    assert followed.cache.outcome == "fresh"
    assert len(server.seen) == 2


async def test_a_reload_keeps_the_persons_own_cache_control(
    client: Client, server: Counting
) -> None:
    await get(client, "/customers/1")
    spec = RequestSpec(url=MOCK + "/customers/1", headers=(("Cache-Control", "max-stale=5"),))
    await client.send(spec, revalidate=True)
    assert len(server.seen) == 2  # checked with the server, though fresh
    assert server.seen[-1][0].get_list("Cache-Control") == ["max-stale=5", "no-cache"]


async def test_a_reload_without_caching_sends_no_cache_field(server: Counting) -> None:
    plain = Client(transport=server)
    exchange = await plain.send(RequestSpec(url=MOCK + "/customers/1"), revalidate=True)
    assert exchange.cache is None
    assert "Cache-Control" not in server.seen[-1][0]


async def test_no_store_is_not_stored(client: Client, server: Counting) -> None:
    for _ in range(2):
        exchange = await get(client, "/auth")
        assert exchange.response.header("Cache-Control") == "no-store"
        assert exchange.cache is not None
        assert exchange.cache.outcome == "not-stored"
        assert exchange.cache.summary == "not stored: no-store"
        assert "no-store forbids every cache to keep it" in exchange.cache.details[0]
    assert len(server.seen) == 2


async def test_vary_keeps_another_representation_apart(client: Client, server: Counting) -> None:
    hal = await get(client, "/customers/1")
    assert "Accept" in (hal.response.header("Vary") or "")
    siren = await get(client, "/customers/1", ("Accept", "application/vnd.siren+json"))
    assert len(server.seen) == 2  # not the HAL copy: the server was asked
    assert siren.response.media_type == "application/vnd.siren+json"
    assert siren.cache is not None
    assert not siren.cache.from_cache
    assert siren.cache.details[0] == (
        "The stored copy answered another request: Vary: Accept, and this request's "
        "Accept is application/vnd.siren+json, the stored one's */*."
    )
    again = await get(client, "/customers/1", ("Accept", "application/vnd.siren+json"))
    assert again.cache is not None
    assert again.cache.outcome == "fresh"
    assert again.response.media_type == "application/vnd.siren+json"


async def test_a_write_is_not_stored_and_says_why(client: Client) -> None:
    spec = RequestSpec(method="OPTIONS", url=MOCK + "/customers")
    exchange = await client.send(spec)
    assert exchange.cache is not None
    assert exchange.cache.outcome == "not-stored"
    assert "OPTIONS" in exchange.cache.details[0]


async def test_caching_off_sends_everything_and_forgets(client: Client, server: Counting) -> None:
    await get(client, "/customers/1")
    client.set_caching(False)
    assert client.cache is not None
    assert client.cache.storage.count == 0
    exchange = await get(client, "/customers/1")
    assert exchange.cache is None
    assert len(server.seen) == 2
    client.set_caching(True)
    assert (await get(client, "/customers/1")).cache.outcome == "stored"  # type: ignore[union-attr]


async def test_logging_out_forgets_what_was_stored_for_that_server(client: Client) -> None:
    await get(client, "/customers/1")
    assert client.cache is not None
    assert client.cache.storage.count == 1
    client.forget(MOCK + "/")
    assert client.cache.storage.count == 0


async def test_a_body_over_the_entry_limit_is_passed_on_whole_and_not_stored(
    server: Counting,
) -> None:
    client = Client(transport=server)
    cache = client.set_caching(True)
    cache.storage.max_stream_size = 100
    exchange = await get(client, "/customers/1")
    assert len(exchange.response.body) > 100
    assert exchange.cache is not None
    assert exchange.cache.summary == "not stored: too large for the cache"
    assert cache.storage.count == 0


async def test_the_memory_storage_drops_the_least_recently_used_past_its_bounds(
    server: Counting,
) -> None:
    client = Client(transport=server)
    cache = client.set_caching(True)
    cache.storage = MemoryStorage(max_bytes=10_000, max_entries=2)
    for number in (1, 2, 3):
        await get(client, f"/customers/{number}")
    assert cache.storage.count == 2
    assert cache.storage.size <= 10_000
    assert not cache.storage.peek(MOCK + "/customers/1")  # the oldest went
    assert cache.storage.peek(MOCK + "/customers/3")
