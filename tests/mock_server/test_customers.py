"""Customers: the two schemas of the address, filters, links, and the legal hold."""

from __future__ import annotations

import httpx
import pytest

from mock_server.domain.address import parse_address, render_address
from tests.mock_server.conftest import ADMIN


async def test_v1_shows_the_address_as_one_string(client: httpx.AsyncClient) -> None:
    response = await client.get("/customers/1")
    assert response.status_code == 200
    body = response.json()
    assert body["id"] == 1
    assert body["name"] == "Ada Lovelace"
    assert body["address"] == "12 St James's Square, London, LDN SW1Y 4JH"


async def test_v2_shows_the_address_as_an_object(client: httpx.AsyncClient) -> None:
    body = (await client.get("/v2/customers/1")).json()
    assert body["address"] == {
        "streetAddress": "12 St James's Square",
        "city": "London",
        "state": "LDN",
        "zipCode": "SW1Y 4JH",
    }


async def test_customer_links_to_its_orders(client: httpx.AsyncClient) -> None:
    links = (await client.get("/customers/1")).json()["_links"]
    assert links["self"]["href"] == "/customers/1"
    assert links["collection"]["href"] == "/customers"
    assert links["rw:orders"]["href"] == "/orders?customerId=1"
    orders = (await client.get(links["rw:orders"]["href"], headers=ADMIN)).json()
    assert {o["customerId"] for o in orders["_embedded"]["orders"]} == {1}
    assert orders["total"] == 2


async def test_v1_create_parses_the_address_string(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/customers",
        json={"name": "Hedy Lamarr", "address": "1 Film Row, Vienna, W 1010"},
        headers=ADMIN,
    )
    assert created.status_code == 201
    v2 = (
        await client.get(created.headers["location"].replace("/customers", "/v2/customers"))
    ).json()
    assert v2["address"] == {
        "streetAddress": "1 Film Row",
        "city": "Vienna",
        "state": "W",
        "zipCode": "1010",
    }


async def test_v1_unparseable_address_is_kept_whole(client: httpx.AsyncClient) -> None:
    created = await client.post(
        "/customers", json={"name": "Nowhere Man", "address": "somewhere"}, headers=ADMIN
    )
    assert created.status_code == 201
    assert created.json()["address"] == "somewhere"
    v2 = (await client.get(f"/v2/customers/{created.json()['id']}")).json()
    assert v2["address"] == {"streetAddress": "somewhere", "city": "", "state": "", "zipCode": ""}


async def test_v2_create_takes_the_object(client: httpx.AsyncClient) -> None:
    address = {"streetAddress": "9 Elm St", "city": "Boston", "state": "MA", "zipCode": "02101"}
    created = await client.post(
        "/v2/customers", json={"name": "New One", "address": address}, headers=ADMIN
    )
    assert created.status_code == 201
    assert created.json()["address"] == address
    v1 = (await client.get(f"/customers/{created.json()['id']}")).json()
    assert v1["address"] == "9 Elm St, Boston, MA 02101"


async def test_v2_create_with_a_string_address_is_422(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v2/customers", json={"name": "X", "address": "1 A St, B, C 1"}, headers=ADMIN
    )
    assert response.status_code == 422
    assert [e["field"] for e in response.json()["errors"]] == ["address"]


async def test_a_number_too_large_for_json_is_not_shown_as_digits_it_never_had(
    client: httpx.AsyncClient,
) -> None:
    body = b'{"name": "Q", "address": 12345678901234567890123}'
    headers = {**ADMIN, "Content-Type": "application/json"}
    response = await client.post("/customers", content=body, headers=headers)
    assert response.status_code == 422
    (error,) = response.json()["errors"]
    assert error["message"] == "must be a string, got a number too large to be kept exactly"
    small = await client.post("/customers", json={"name": "Q", "address": 7}, headers=ADMIN)
    assert small.json()["errors"][0]["message"] == "must be a string, got the number 7"


async def test_v2_address_parts_are_checked_one_by_one(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v2/customers",
        json={"name": "X", "address": {"streetAddress": "", "city": 3, "zip": "1"}},
        headers=ADMIN,
    )
    assert response.status_code == 422
    fields = {e["field"] for e in response.json()["errors"]}
    assert fields == {
        "address.zip",
        "address.streetAddress",
        "address.city",
        "address.state",
        "address.zipCode",
    }


async def test_name_filter_is_a_case_insensitive_substring(client: httpx.AsyncClient) -> None:
    body = (await client.get("/customers", params={"name": "LOVE"})).json()
    assert [c["name"] for c in body["_embedded"]["customers"]] == ["Ada Lovelace"]


async def test_city_filter(client: httpx.AsyncClient) -> None:
    body = (await client.get("/customers", params={"city": "cambridge"})).json()
    assert body["total"] == 3
    assert {c["id"] for c in body["_embedded"]["customers"]} == {5, 7, 8}


async def test_legal_hold_answers_451_with_blocked_by(client: httpx.AsyncClient) -> None:
    response = await client.get("/customers/12")
    assert response.status_code == 451
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert response.headers["link"] == '</docs/legal-hold>; rel="blocked-by"'
    assert (await client.get("/docs/legal-hold")).status_code == 200
    put = await client.put("/customers/12", json={"name": "Y", "address": "z"}, headers=ADMIN)
    assert put.status_code == 451
    assert (await client.delete("/customers/12", headers=ADMIN)).status_code == 451


@pytest.mark.parametrize(
    ("text", "street", "city", "state", "zip_code"),
    [
        ("12 High St, Springfield, IL 62701", "12 High St", "Springfield", "IL", "62701"),
        ("Flat 2, 12 High St, Leeds, WYK LS1 1AA", "Flat 2, 12 High St", "Leeds", "WYK", "LS1 1AA"),
        ("350 5th Ave, Manhattan, New York 10118", "350 5th Ave", "Manhattan", "New York", "10118"),
        ("1 Main St, Albany, NY 12207-1234", "1 Main St", "Albany", "NY", "12207-1234"),
        ("1 Rue A, Ottawa, ON K1A 0B1", "1 Rue A", "Ottawa", "ON", "K1A 0B1"),
        ("12 High St, Springfield, IL", "12 High St, Springfield, IL", "", "", ""),
        ("just words", "just words", "", "", ""),
    ],
)
def test_parse_address(text: str, street: str, city: str, state: str, zip_code: str) -> None:
    assert parse_address(text) == {
        "streetAddress": street,
        "city": city,
        "state": state,
        "zipCode": zip_code,
    }


def test_render_then_parse_round_trips() -> None:
    address = {"streetAddress": "1 A St", "city": "Town", "state": "ST", "zipCode": "AB1 2CD"}
    assert parse_address(render_address(address)) == address
    two_words = {"streetAddress": "1 A St", "city": "NYC", "state": "New York", "zipCode": "10001"}
    assert parse_address(render_address(two_words)) == two_words
    whole = {"streetAddress": "odd, text", "city": "", "state": "", "zipCode": ""}
    assert parse_address(render_address(whole)) == whole
