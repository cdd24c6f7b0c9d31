"""``/admin``: admin only; ``POST /admin/reset`` restores the seed."""

from __future__ import annotations

import httpx

from tests.mock_server.conftest import ADMIN, EDITOR, VIEWER

NEW_CUSTOMER = {"name": "Ned Newcomer", "address": "1 Main Street, Springfield, IL 62701"}


async def test_reset_is_admin_only(client: httpx.AsyncClient) -> None:
    assert (await client.post("/admin/reset")).status_code == 401
    assert (await client.post("/admin/reset", headers=VIEWER)).status_code == 403
    assert (await client.post("/admin/reset", headers=EDITOR)).status_code == 403


async def test_reset_restores_the_seed(client: httpx.AsyncClient) -> None:
    before = (await client.get("/customers/2")).content
    created = await client.post("/customers", json=NEW_CUSTOMER, headers=ADMIN)
    assert created.status_code == 201
    new_path = created.headers["location"]
    assert (await client.delete("/customers/2", headers=ADMIN)).status_code == 204
    assert (await client.get("/customers/2")).status_code == 410
    response = await client.post("/admin/reset", headers=ADMIN)
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    assert response.json()["counts"] == {"customers": 12, "products": 10, "orders": 8}
    assert (await client.get("/customers/2")).content == before
    assert (await client.get(new_path)).status_code == 404


async def test_reset_keeps_people_logged_in(client: httpx.AsyncClient) -> None:
    login = await client.post("/auth/token", headers=ADMIN)
    token = login.json()["access_token"]
    await client.post("/admin/reset", headers={"Authorization": f"Bearer {token}"})
    whoami = await client.get("/auth/whoami", headers={"Authorization": f"Bearer {token}"})
    assert whoami.status_code == 200


async def test_admin_index_lists_the_actions(client: httpx.AsyncClient) -> None:
    response = await client.get("/admin", headers=ADMIN)
    assert response.status_code == 200
    templates = response.json()["_templates"]
    assert templates["reset"]["method"] == "POST"
    assert templates["reset"]["target"] == "/admin/reset"
