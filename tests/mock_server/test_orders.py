"""Orders: the state machine, its actions, its links, and its validation."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from mock_server.resources.orders import TRANSITIONS
from tests.mock_server.conftest import ADMIN

# Seeded orders by status: 1 draft, 2 placed, 3 shipped, 4 cancelled.
DRAFT, PLACED, SHIPPED, CANCELLED = 1, 2, 3, 4


async def get_order(client: httpx.AsyncClient, order_id: int) -> dict[str, Any]:
    response = await client.get(f"/orders/{order_id}", headers=ADMIN)
    assert response.status_code == 200
    body: dict[str, Any] = response.json()
    return body


async def test_order_links_to_customer_and_products(client: httpx.AsyncClient) -> None:
    links = (await get_order(client, DRAFT))["_links"]
    assert links["rw:customer"]["href"] == "/customers/1"
    assert [p["href"] for p in links["rw:product"]] == ["/products/1", "/products/2"]
    assert links["rw:customer"]["title"] == "Ada Lovelace"
    assert [p["title"] for p in links["rw:product"]] == ["Keyboard (x1)", "Mouse (x1)"]
    assert links["curies"][0]["href"] == "/docs/rels/{rel}"


async def test_product_links_are_an_array_even_for_one_item(client: httpx.AsyncClient) -> None:
    # Order 2 has a single item: the relation keeps its array shape (HAL 4.1.1).
    links = (await get_order(client, 2))["_links"]
    assert isinstance(links["rw:product"], list)
    assert len(links["rw:product"]) == 1
    assert isinstance(links["rw:customer"], dict)


async def test_create_template_title_reads_well(client: httpx.AsyncClient) -> None:
    page = (await client.get("/orders", headers=ADMIN)).json()
    assert page["_templates"]["create"]["title"] == "Create an order"
    customers = (await client.get("/customers")).json()
    assert customers["_templates"]["create"]["title"] == "Create a customer"


@pytest.mark.parametrize(
    ("order_id", "templates"),
    [
        (DRAFT, {"update", "patch", "delete", "place", "cancel"}),
        (PLACED, {"ship", "cancel"}),
        (SHIPPED, set()),
        (CANCELLED, set()),
    ],
)
async def test_templates_are_the_actions_valid_now(
    client: httpx.AsyncClient, order_id: int, templates: set[str]
) -> None:
    body = await get_order(client, order_id)
    assert set(body.get("_templates", {})) == templates
    for name in templates & {"place", "ship", "cancel"}:
        template = body["_templates"][name]
        assert template["method"] == "POST"
        assert template["target"] == f"/orders/{order_id}/{name}"


async def test_draft_to_placed_to_shipped(client: httpx.AsyncClient) -> None:
    placed = await client.post(f"/orders/{DRAFT}/place", headers=ADMIN)
    assert placed.status_code == 200
    assert placed.json()["status"] == "placed"
    assert placed.headers["etag"].startswith('"')
    assert set(placed.json()["_templates"]) == {"ship", "cancel"}
    shipped = await client.post(f"/orders/{DRAFT}/ship", headers=ADMIN)
    assert shipped.json()["status"] == "shipped"
    assert "_templates" not in shipped.json()


@pytest.mark.parametrize("order_id", [DRAFT, PLACED])
async def test_cancel_from_draft_or_placed(client: httpx.AsyncClient, order_id: int) -> None:
    response = await client.post(f"/orders/{order_id}/cancel", headers=ADMIN)
    assert response.status_code == 200
    assert response.json()["status"] == "cancelled"


@pytest.mark.parametrize(
    ("order_id", "action"),
    [(DRAFT, "ship"), (PLACED, "place"), (SHIPPED, "cancel"), (CANCELLED, "place")],
)
async def test_invalid_transition_is_409(
    client: httpx.AsyncClient, order_id: int, action: str
) -> None:
    response = await client.post(f"/orders/{order_id}/{action}", headers=ADMIN)
    assert response.status_code == 409
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    body = response.json()
    status = (await get_order(client, order_id))["status"]
    assert body["orderStatus"] == status
    assert body["allowedActions"] == list(TRANSITIONS[status])


async def test_transition_of_unknown_order_is_404(client: httpx.AsyncClient) -> None:
    response = await client.post("/orders/999/place", headers=ADMIN)
    assert response.status_code == 404


async def test_only_drafts_can_be_changed(client: httpx.AsyncClient) -> None:
    body = {"customerId": 2, "items": [{"productId": 3, "quantity": 1}]}
    put = await client.put(f"/orders/{PLACED}", json=body, headers=ADMIN)
    assert put.status_code == 409
    assert put.json()["allowedActions"] == ["ship", "cancel"]
    delete = await client.delete(f"/orders/{SHIPPED}", headers=ADMIN)
    assert delete.status_code == 409


async def test_create_is_a_draft(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/orders",
        json={"customerId": 3, "items": [{"productId": 1, "quantity": 2}]},
        headers=ADMIN,
    )
    assert created.status_code == 201
    assert created.json()["status"] == "draft"
    assert created.headers["location"] == f"/orders/{created.json()['id']}"


async def test_references_and_quantities_are_checked(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/orders",
        json={
            "customerId": 999,
            "items": [{"productId": 999, "quantity": 1}, {"productId": 1, "quantity": 0}, 5],
            "status": "shipped",
        },
        headers=ADMIN,
    )
    assert response.status_code == 422
    fields = [e["field"] for e in response.json()["errors"]]
    assert fields == ["customerId", "items[0].productId", "items[1].quantity", "items[2]", "status"]


async def test_items_must_not_be_empty(client: httpx.AsyncClient) -> None:
    response = await client.post("/orders", json={"customerId": 1, "items": []}, headers=ADMIN)
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "items"


async def test_put_cannot_change_the_status(client: httpx.AsyncClient) -> None:
    response = await client.put(
        f"/orders/{DRAFT}",
        json={"customerId": 1, "items": [{"productId": 1, "quantity": 1}], "status": "placed"},
        headers=ADMIN,
    )
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "status"


async def test_status_and_customer_filters(client: httpx.AsyncClient) -> None:
    drafts = (await client.get("/orders", params={"status": "draft"}, headers=ADMIN)).json()
    assert {o["status"] for o in drafts["_embedded"]["orders"]} == {"draft"}
    assert drafts["total"] == 3
    bad = await client.get("/orders", params={"status": "lost"}, headers=ADMIN)
    assert bad.status_code == 400
    assert "draft" in bad.json()["detail"]
    bad_id = await client.get("/orders", params={"customerId": "one"}, headers=ADMIN)
    assert bad_id.status_code == 400
    assert bad_id.json()["parameter"] == "customerId"


async def test_orders_are_the_same_in_both_versions(client: httpx.AsyncClient) -> None:
    v1 = await get_order(client, DRAFT)
    v2 = (await client.get(f"/v2/orders/{DRAFT}", headers=ADMIN)).json()
    strip = lambda d: {k: v for k, v in d.items() if not k.startswith("_")}  # noqa: E731
    assert strip(v1) == strip(v2)


@pytest.mark.parametrize(
    "quantity",
    [b"1e300", b"18446744073709551616", b"9007199254740992", b"1.8446744073709552e19"],
)
async def test_a_number_past_the_bound_is_422_and_never_stored(
    client: httpx.AsyncClient, quantity: bytes
) -> None:
    body = b'{"customerId": 1, "items": [{"productId": 1, "quantity": ' + quantity + b"}]}"
    response = await client.post(
        "/orders", content=body, headers={**ADMIN, "Content-Type": "application/json"}
    )
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == "items[0].quantity"
    listed = await client.get("/orders?limit=100", headers=ADMIN)
    assert listed.status_code == 200
    assert listed.json()["total"] == 8  # the seed's orders, no more


@pytest.mark.parametrize("cost", [b"1e300", b"18446744073709551615", b"9007199254740992"])
async def test_a_cost_past_the_bound_is_422(client: httpx.AsyncClient, cost: bytes) -> None:
    response = await client.patch(
        "/products/1",
        content=b'{"cost": ' + cost + b"}",
        headers={**ADMIN, "Content-Type": "application/merge-patch+json"},
    )
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == "cost"
    assert (await client.get("/products/1")).status_code == 200
