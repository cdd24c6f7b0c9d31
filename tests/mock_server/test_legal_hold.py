"""The customer under legal hold: 451 with a ``blocked-by`` link to a page that exists."""

from __future__ import annotations

import httpx
import pytest

from mock_server.store.seed import LEGAL_HOLD_CUSTOMER_ID
from tests.mock_server.conftest import ADMIN

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
    # Every item is a whole customer; total counts the held one, count what is shown.
    assert all({"id", "name", "address"} <= set(c) for c in listed)
    assert page["count"] == len(listed) == page["total"] - 1
