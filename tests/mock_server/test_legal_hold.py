"""The customer under legal hold: 451 with a ``blocked-by`` link to a page that exists."""

from __future__ import annotations

import httpx
import pytest

from mock_server import create_app
from mock_server.store.seed import LEGAL_HOLD_CUSTOMER_ID
from tests.mock_server.conftest import ADMIN, asgi_client, make_settings

HELD = f"/customers/{LEGAL_HOLD_CUSTOMER_ID}"


@pytest.mark.parametrize("path", [HELD, f"/v2{HELD}", f"{HELD}?version=2"])
async def test_reading_the_held_customer_is_451(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path)
    assert response.status_code == 451
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    link = response.headers["link"]
    assert 'rel="blocked-by"' in link
    target = link[link.index("<") + 1 : link.index(">")]
    explained = await client.get(target)
    assert explained.status_code == 200
    assert explained.json()["_links"]["self"]["href"] == target


async def test_451_in_xml(client: httpx.AsyncClient) -> None:
    response = await client.get(HELD, headers={"Accept": "application/xml"})
    assert response.status_code == 451
    assert response.headers["content-type"] == "application/problem+xml"


async def test_other_customers_are_readable(client: httpx.AsyncClient) -> None:
    assert (await client.get(f"/customers/{LEGAL_HOLD_CUSTOMER_ID - 1}")).status_code == 200


async def test_writes_to_the_held_customer_are_451(client: httpx.AsyncClient) -> None:
    response = await client.delete(HELD, headers=ADMIN)
    assert response.status_code == 451


async def test_the_held_customer_is_left_out_of_the_list(client: httpx.AsyncClient) -> None:
    page = (await client.get("/customers", params={"limit": 100})).json()
    listed = page["_embedded"]["customers"]
    assert LEGAL_HOLD_CUSTOMER_ID not in [c["id"] for c in listed]
    # Every item is a whole customer; total counts what the pages list (not the held one).
    assert all({"id", "name", "address"} <= set(c) for c in listed)
    assert page["count"] == len(listed) == page["total"]


async def test_its_name_cannot_be_read_through_a_filter(client: httpx.AsyncClient) -> None:
    # total > count on ?name= said which names the held customer's has.
    for name in ("sealed", "Sealed Records Ltd", "e"):
        page = (await client.get("/customers", params={"name": name})).json()
        assert page["total"] == page["count"], name
    assert (await client.get("/customers", params={"name": "sealed"})).json()["total"] == 0


async def walk(client: httpx.AsyncClient, query: dict[str, str | int]) -> list[int]:
    """The ids a client paging by ``total`` reads (offset += limit while offset < total)."""
    ids: list[int] = []
    offset = 0
    while True:
        page = (await client.get("/customers", params={**query, "offset": offset})).json()
        items = page["_embedded"]["customers"]
        ids.extend(item["id"] for item in items)
        assert len(ids) <= page["total"], "more items than total says"
        offset += page["limit"]
        if offset >= page["total"]:
            assert len(ids) == page["total"], "a client paging by total never finishes"
            return ids


@pytest.mark.parametrize("sort", [None, "name", "-name", "city,-id", "-id"])
@pytest.mark.parametrize("limit", [1, 3, 5, 11, 20])
async def test_every_page_is_full_and_the_pages_list_total_items(
    client: httpx.AsyncClient, sort: str | None, limit: int
) -> None:
    query: dict[str, str | int] = {"limit": limit}
    if sort is not None:
        query["sort"] = sort
    whole = (await client.get("/customers", params={**query, "limit": 100})).json()
    expected = [item["id"] for item in whole["_embedded"]["customers"]]
    assert LEGAL_HOLD_CUSTOMER_ID not in expected
    assert len(expected) == whole["total"]
    assert await walk(client, query) == expected
    for offset in range(len(expected) + 2):  # every window, across the held one's place
        page = (await client.get("/customers", params={**query, "offset": offset})).json()
        assert [c["id"] for c in page["_embedded"]["customers"]] == expected[
            offset : offset + limit
        ]


async def test_a_large_computed_seed_leaves_it_out_alike() -> None:
    # 2,000 rounds: the seed is computed from ids, and its pages come from its structure.
    app = create_app(make_settings(seed_size=2000))
    async with asgi_client(app) as client:
        first = (await client.get("/customers", params={"limit": 20})).json()
        assert first["total"] == 12 * 2000 - 1
        assert [c["id"] for c in first["_embedded"]["customers"]] == [
            *range(1, 12),
            *range(13, 22),
        ]
        for offset in (10, 11, 12):
            page = (await client.get("/customers", params={"limit": 2, "offset": offset})).json()
            assert [c["id"] for c in page["_embedded"]["customers"]] == [
                n + (n >= LEGAL_HOLD_CUSTOMER_ID) for n in (offset + 1, offset + 2)
            ]
        by_name = await client.get(
            "/customers", params={"name": "sealed records ltd", "sort": "name", "limit": 100}
        )
        named = by_name.json()
        assert named["total"] == 1999  # rounds 2 to 2000; the held one is round 1's
        assert LEGAL_HOLD_CUSTOMER_ID not in [c["id"] for c in named["_embedded"]["customers"]]
