"""Pages and reads reuse the members and pages made before, and never show one out of date.

The cache itself is checked with plain asserts; through the app, each write
must show in the next page (a renamed customer in the orders that name it,
too), each version and style gets its own members, and hypothesis runs
random writes and reads, comparing every page with the page made with the
cache bypassed.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mock_server import create_app
from mock_server.app import MockApp
from mock_server.representations.member_cache import MemberCache
from mock_server.representations.model import Link, Resource
from mock_server.representations.page_cache import PageCache
from mock_server.store import Record
from tests.mock_server.conftest import EDITOR, asgi_client, make_settings


def _record(record_id: int, name: str, updated: float = 0.0) -> Record:
    return Record(record_id, {"name": name}, 0.0, updated)


def _maker(calls: list[int]) -> Any:
    def make(record: Record) -> Resource:
        calls.append(record.id)
        return Resource("thing", {"name": record.data["name"]}, [Link("self", f"/t/{record.id}")])

    return make


def test_same_record_state_and_context_reuses_the_member() -> None:
    cache = MemberCache()
    calls: list[int] = []
    record = _record(1, "Ada")
    first = cache.member((0, 1), (1, "none"), record, _maker(calls))
    again = cache.member((0, 1), (1, "none"), record, _maker(calls))
    assert again is first
    assert calls == [1]


def test_a_new_state_a_changed_record_or_another_context_makes_it_again() -> None:
    cache = MemberCache()
    calls: list[int] = []
    record = _record(1, "Ada")
    cache.member((0, 1), (1, "none"), record, _maker(calls))
    cache.member((0, 2), (1, "none"), record, _maker(calls))  # the store moved on
    cache.member((0, 2), (1, "none"), _record(1, "Ada", 5.0), _maker(calls))  # replaced
    cache.member((0, 2), (2, "uri"), record, _maker(calls))  # /v2 links
    assert calls == [1, 1, 1, 1]


def test_no_context_means_never_kept() -> None:
    cache = MemberCache()
    calls: list[int] = []
    record = _record(1, "Ada")
    cache.member((0,), None, record, _maker(calls))
    cache.member((0,), None, record, _maker(calls))
    assert calls == [1, 1]
    assert len(cache) == 0


def test_the_cache_is_bounded() -> None:
    cache = MemberCache(limit=3)
    calls: list[int] = []
    for record_id in range(1, 11):
        cache.member((0,), (1, "none"), _record(record_id, "x"), _maker(calls))
    assert len(cache) <= 3


def test_a_page_is_kept_per_context_and_query_until_the_state_moves() -> None:
    cache = PageCache()
    page = (Resource("things", {}, []), {"Link": "</t>; rel=self"})
    assert cache.get((0, 1), (1, "none"), b"limit=5") is None
    cache.put((0, 1), (1, "none"), b"limit=5", page)
    assert cache.get((0, 1), (1, "none"), b"limit=5") is page
    assert cache.get((0, 1), (2, "uri"), b"limit=5") is None  # another version
    assert cache.get((0, 1), (1, "none"), b"limit=6") is None  # another query
    assert cache.get((0, 2), (1, "none"), b"limit=5") is None  # a write happened
    assert len(cache) == 0  # and every page went with it
    cache.put((0, 2), (1, "none"), b"limit=5", page)
    assert cache.get((0, 1), (1, "none"), b"limit=5") is None  # never an older state's


def test_the_page_cache_is_bounded() -> None:
    cache = PageCache(limit=3)
    page = (Resource("things", {}, []), {})
    for offset in range(10):
        cache.put((0,), (1, "none"), f"offset={offset}".encode(), page)
    assert len(cache) <= 3


@pytest.fixture
async def client() -> Any:
    async with asgi_client(create_app(make_settings(seed_size=2))) as c:
        yield c


async def test_a_renamed_customer_shows_in_its_page_and_in_the_orders_naming_it(
    client: httpx.AsyncClient,
) -> None:
    def order_customer_title(page: dict[str, Any]) -> str:
        order = next(o for o in page["_embedded"]["orders"] if o["customerId"] == 1)
        title: str = order["_links"]["rw:customer"]["title"]
        return title

    customers = (await client.get("/customers?limit=3")).json()
    orders = (await client.get("/orders?limit=3", headers=EDITOR)).json()
    assert customers["_embedded"]["customers"][0]["name"] == "Ada Lovelace"
    assert order_customer_title(orders) == "Ada Lovelace"

    renamed = await client.patch(
        "/customers/1",
        json={"name": "Ada King"},
        headers={**EDITOR, "Content-Type": "application/merge-patch+json"},
    )
    assert renamed.status_code == 200

    customers = (await client.get("/customers?limit=3")).json()
    orders = (await client.get("/orders?limit=3", headers=EDITOR)).json()
    assert customers["_embedded"]["customers"][0]["name"] == "Ada King"
    assert order_customer_title(orders) == "Ada King"


async def test_each_version_and_style_gets_its_own_members(client: httpx.AsyncClient) -> None:
    for _ in range(2):  # the second round is served from the cache
        v1 = (await client.get("/customers?limit=1")).json()["_embedded"]["customers"][0]
        v2 = (await client.get("/v2/customers?limit=1")).json()["_embedded"]["customers"][0]
        query = (await client.get("/customers?limit=1&version=2")).json()
        q2 = query["_embedded"]["customers"][0]
        assert isinstance(v1["address"], str)
        assert v1["_links"]["self"]["href"] == "/customers/1"
        assert isinstance(v2["address"], dict)
        assert v2["_links"]["self"]["href"] == "/v2/customers/1"
        assert q2["_links"]["self"]["href"] == "/customers/1?version=2"


async def test_a_deleted_member_leaves_the_page(client: httpx.AsyncClient) -> None:
    before = (await client.get("/products?limit=5")).json()["_embedded"]["products"]
    assert [p["id"] for p in before] == [1, 2, 3, 4, 5]
    assert (await client.delete("/products/2", headers=EDITOR)).status_code == 204
    after = (await client.get("/products?limit=5")).json()["_embedded"]["products"]
    assert [p["id"] for p in after] == [1, 3, 4, 5, 6]


# Random writes and reads: every page equals the page made without the cache -----------

NAMES = st.sampled_from(["Ada", "Grace", "Alan", "Barbara", "Edsger"])
WRITES = st.one_of(
    st.tuples(st.just("rename-customer"), st.integers(1, 6), NAMES),
    st.tuples(st.just("reprice"), st.integers(1, 6), st.sampled_from([0.5, 9.99, 120.0])),
    st.tuples(st.just("delete-product"), st.integers(1, 6)),
    st.tuples(st.just("create-customer"), NAMES),
    st.tuples(st.just("cancel-order"), st.integers(1, 8)),
)
READS = st.tuples(
    st.sampled_from(["", "/v2", "?version=2"]),
    st.sampled_from(["application/hal+json", "application/vnd.api+json"]),
    st.integers(1, 8),
)
STEPS = st.lists(st.one_of(WRITES, st.tuples(st.just("read"), READS)), min_size=1, max_size=12)


async def _write(client: httpx.AsyncClient, step: tuple[Any, ...], serial: int) -> None:
    kind = step[0]
    merge = {**EDITOR, "Content-Type": "application/merge-patch+json"}
    if kind == "rename-customer":
        await client.patch(
            f"/customers/{step[1]}", json={"name": f"{step[2]} {serial}"}, headers=merge
        )
    elif kind == "reprice":
        await client.patch(f"/products/{step[1]}", json={"cost": step[2]}, headers=merge)
    elif kind == "delete-product":
        await client.delete(f"/products/{step[1]}", headers=EDITOR)
    elif kind == "create-customer":
        body = {"name": f"{step[1]} {serial}", "address": "1 Main St, Springfield, IL 62701"}
        await client.post("/customers", json=body, headers=EDITOR)
    else:
        await client.post(f"/orders/{step[1]}/cancel", headers=EDITOR)


def _targets(read: tuple[str, str, int]) -> list[str]:
    """Every member of each collection (seed size 1: up to 20 each), and one member alone."""
    version, _, member = read
    prefix = version if version.startswith("/") else ""
    query = "&version=2" if version.startswith("?") else ""
    found = []
    for collection in ("customers", "products", "orders"):
        found.append(f"{prefix}/{collection}?limit=20{query}")
        found.append(f"{prefix}/{collection}/{member}" + ("?version=2" if query else ""))
    return found


async def _fresh_page(
    client: httpx.AsyncClient, target: str, headers: dict[str, str], monkeypatch: Any
) -> httpx.Response:
    """The answer as it is made with every member and page built anew."""
    with monkeypatch.context() as patched:
        patched.setattr(
            MemberCache, "member", lambda self, state, context, record, make: make(record)
        )
        patched.setattr(
            MemberCache,
            "members",
            lambda self, state, context, records, make: [make(record) for record in records],
        )
        patched.setattr(PageCache, "get", lambda self, state, context, query: None)
        return await client.get(target, headers=headers)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=STEPS)
def test_random_writes_never_leave_a_page_stale(
    steps: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def run() -> None:
        app: MockApp = create_app(make_settings(seed_size=1))
        async with asgi_client(app) as client:
            for serial, step in enumerate(steps):
                if step[0] != "read":
                    await _write(client, step, serial)
                    continue
                read = step[1]
                headers = {**EDITOR, "Accept": read[1]}
                for target in _targets(read):
                    cached = await client.get(target, headers=headers)
                    again = await client.get(target, headers=headers)
                    fresh = await _fresh_page(client, target, headers, monkeypatch)
                    assert cached.status_code == again.status_code == fresh.status_code
                    assert cached.content == again.content == fresh.content, target

    asyncio.run(run())
