"""``POST /customers/batch``: 207 with one status per item."""

from __future__ import annotations

import httpx
import pytest
from defusedxml import ElementTree

from mock_server.resources.batch import MAX_ITEMS
from tests.mock_server.conftest import ADMIN, VIEWER

JSON = {**ADMIN, "Accept": "application/json"}


async def test_each_item_gets_its_status(client: httpx.AsyncClient) -> None:
    items = [
        {"name": "Batch One", "address": "1 Main St, Springfield, IL 62701"},
        {"name": ""},
        {"name": "Ada Lovelace", "address": "1 Else St, Town, ST 00001"},
        {"name": "Batch Two", "address": "2 Main St, Springfield, IL 62701"},
    ]
    response = await client.post("/customers/batch", json=items, headers=JSON)
    assert response.status_code == 207
    assert response.headers["content-type"].startswith("application/json")
    entries = response.json()["multistatus"]
    assert [e["status"] for e in entries] == [201, 422, 409, 201]
    created = entries[0]
    assert created["href"].startswith("/customers/")
    assert created["body"]["name"] == "Batch One"
    assert created["body"]["_links"]["self"]["href"] == created["href"]
    assert entries[1]["body"]["errors"]
    assert entries[1]["body"]["instance"] == "/customers/batch#/1"
    assert entries[2]["body"]["status"] == 409
    read = await client.get(entries[3]["href"])
    assert read.status_code == 200
    assert read.json()["name"] == "Batch Two"


async def test_version_2_items(client: httpx.AsyncClient) -> None:
    address = {"streetAddress": "3 Main St", "city": "Springfield", "state": "IL", "zipCode": "1"}
    response = await client.post(
        "/v2/customers/batch", json=[{"name": "V2 Batch", "address": address}], headers=JSON
    )
    (entry,) = response.json()["multistatus"]
    assert entry["status"] == 201
    assert entry["href"].startswith("/v2/customers/")
    assert entry["body"]["address"] == address


async def test_xml_multistatus_by_default(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/customers/batch",
        json=[{"name": "Xml One", "address": "1 A St, B, CC 1"}, {"nope": 1}],
        headers={**ADMIN, "Accept": "*/*"},
    )
    assert response.status_code == 207
    assert response.headers["content-type"].startswith("application/xml")
    root = ElementTree.fromstring(response.content)
    statuses = [el.text for el in root.iter("{DAV:}status")]
    assert statuses == ["HTTP/1.1 201 Created", "HTTP/1.1 422 Unprocessable Content"]


@pytest.mark.parametrize("body", [[], {"name": "x"}, [{}] * (MAX_ITEMS + 1), "x"])
async def test_batch_must_be_a_bounded_array(client: httpx.AsyncClient, body: object) -> None:
    response = await client.post("/customers/batch", json=body, headers=JSON)
    assert response.status_code == 422


async def test_batch_body_rules(client: httpx.AsyncClient) -> None:
    bad_json = await client.post(
        "/customers/batch", content=b"[", headers={**JSON, "Content-Type": "application/json"}
    )
    assert bad_json.status_code == 400
    wrong_type = await client.post(
        "/customers/batch", content=b"[]", headers={**JSON, "Content-Type": "text/csv"}
    )
    assert wrong_type.status_code == 415
    assert "application/json" in wrong_type.headers["accept-post"]


async def test_batch_needs_an_editor(client: httpx.AsyncClient) -> None:
    body = [{"name": "Nobody", "address": "1 A St, B, CC 1"}]
    assert (await client.post("/customers/batch", json=body)).status_code == 401
    assert (await client.post("/customers/batch", json=body, headers=VIEWER)).status_code == 403


async def test_the_customers_collection_offers_the_batch(client: httpx.AsyncClient) -> None:
    templates = (await client.get("/v2/customers")).json()["_templates"]
    assert templates["batch"]["method"] == "POST"
    assert templates["batch"]["target"] == "/v2/customers/batch"


async def test_get_describes_the_batch(client: httpx.AsyncClient) -> None:
    body = (await client.get("/v2/customers/batch")).json()
    assert body["maxItems"] == MAX_ITEMS
    assert body["_links"]["self"]["href"] == "/v2/customers/batch"
    assert body["_templates"]["batch"]["method"] == "POST"
