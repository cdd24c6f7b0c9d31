"""Last-Modified on items and pages, from the store's change times; If-Modified-Since uses it."""

from __future__ import annotations

from email.utils import formatdate

import httpx

from mock_server.app import MockApp
from mock_server.store.seed import SEED_TIME
from tests.mock_server.conftest import ADMIN

SEEDED = formatdate(SEED_TIME, usegmt=True)
LATER = SEED_TIME + 86_400


async def test_items_and_pages_carry_the_seed_time(client: httpx.AsyncClient) -> None:
    item = await client.get("/customers/1")
    page = await client.get("/customers")
    assert item.headers["last-modified"] == SEEDED
    assert page.headers["last-modified"] == SEEDED


async def test_if_modified_since_answers_304_until_a_change(
    app: MockApp, client: httpx.AsyncClient
) -> None:
    unchanged = await client.get("/products/2", headers={"If-Modified-Since": SEEDED})
    assert unchanged.status_code == 304
    app.service.clock = lambda: LATER
    put = await client.put("/products/2", json={"name": "Mouse", "cost": 21.0}, headers=ADMIN)
    assert put.status_code == 200
    assert put.headers["last-modified"] == formatdate(LATER, usegmt=True)
    changed = await client.get("/products/2", headers={"If-Modified-Since": SEEDED})
    assert changed.status_code == 200
    assert changed.headers["last-modified"] == formatdate(LATER, usegmt=True)


async def test_a_deletion_changes_the_page(app: MockApp, client: httpx.AsyncClient) -> None:
    app.service.clock = lambda: LATER
    assert (await client.delete("/customers/3", headers=ADMIN)).status_code == 204
    page = await client.get("/customers")
    assert page.headers["last-modified"] == formatdate(LATER, usegmt=True)


async def test_an_order_action_says_when_the_order_changed(
    app: MockApp, client: httpx.AsyncClient
) -> None:
    app.service.clock = lambda: LATER
    placed = await client.post("/orders/1/place", headers=ADMIN)
    assert placed.status_code == 200
    assert placed.headers["last-modified"] == formatdate(LATER, usegmt=True)
