"""Products: version 2's currency, cost rules and filters."""

from __future__ import annotations

import httpx

from tests.mock_server.conftest import ADMIN


async def test_v1_has_no_currency_v2_has_it(client: httpx.AsyncClient) -> None:
    v1 = (await client.get("/products/4")).json()
    v2 = (await client.get("/products/4", params={"version": "2"})).json()
    assert {k: v for k, v in v1.items() if not k.startswith("_")} == {
        "id": 4,
        "name": "Laptop stand",
        "cost": 35.0,
    }
    assert v2["currency"] == "EUR"


async def test_v1_create_gets_the_default_currency(client: httpx.AsyncClient) -> None:
    created = await client.post("/products", json={"name": "Pen", "cost": 1.5}, headers=ADMIN)
    assert created.status_code == 201
    assert "currency" not in created.json()
    v2 = (await client.get(created.headers["location"], params={"version": "2"})).json()
    assert v2["currency"] == "USD"


async def test_v1_put_keeps_the_stored_currency(client: httpx.AsyncClient) -> None:
    put = await client.put("/products/4", json={"name": "Laptop stand", "cost": 40}, headers=ADMIN)
    assert put.status_code == 200
    v2 = (await client.get("/v2/products/4")).json()
    assert v2["cost"] == 40
    assert v2["currency"] == "EUR"


async def test_v1_rejects_currency_as_unknown(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/products", json={"name": "Pen", "cost": 1, "currency": "EUR"}, headers=ADMIN
    )
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "currency"


async def test_v2_create_with_currency(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/v2/products", json={"name": "Pen", "cost": 2, "currency": "gbp"}, headers=ADMIN
    )
    assert created.status_code == 201
    assert created.json()["currency"] == "GBP"


async def test_bad_cost_and_currency_are_listed(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v2/products", json={"name": "Pen", "cost": -1, "currency": "dollars"}, headers=ADMIN
    )
    assert response.status_code == 422
    assert {e["field"] for e in response.json()["errors"]} == {"cost", "currency"}
    response = await client.post("/products", json={"name": "Pen", "cost": "3"}, headers=ADMIN)
    assert response.status_code == 422
    assert response.json()["errors"] == [
        {"field": "cost", "message": "must be a number, got a string"}
    ]


async def test_zero_cost_is_allowed(client: httpx.AsyncClient) -> None:
    response = await client.post("/products", json={"name": "Free", "cost": 0}, headers=ADMIN)
    assert response.status_code == 201


async def test_cost_filters(client: httpx.AsyncClient) -> None:
    body = (await client.get("/products", params={"minCost": "20", "maxCost": "60"})).json()
    costs = sorted(p["cost"] for p in body["_embedded"]["products"])
    assert costs == [27.5, 35.0, 49.9, 59.0]
    assert body["total"] == 4


async def test_name_filter(client: httpx.AsyncClient) -> None:
    body = (await client.get("/products", params={"name": "MOU"})).json()
    assert [p["name"] for p in body["_embedded"]["products"]] == ["Mouse"]


async def test_non_numeric_cost_filter_is_400(client: httpx.AsyncClient) -> None:
    response = await client.get("/products", params={"minCost": "cheap"})
    assert response.status_code == 400
    assert response.json()["parameter"] == "minCost"
    assert "minCost" in response.json()["detail"]


async def test_unique_name_is_409(client: httpx.AsyncClient) -> None:
    response = await client.post("/products", json={"name": "mouse", "cost": 1}, headers=ADMIN)
    assert response.status_code == 409
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert "name" in response.json()["detail"]
