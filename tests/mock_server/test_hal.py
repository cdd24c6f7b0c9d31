"""HAL: links on every response, curies to served docs, search templates, valid-now templates."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from mock_server.domain.relations import RELATIONS
from mock_server.representations.hal import to_hal
from mock_server.representations.model import Link, Resource
from tests.mock_server.conftest import ADMIN

READS = [
    "/",
    "/customers",
    "/customers/1",
    "/v2/customers/2",
    "/products",
    "/products/1",
    "/orders",
    "/orders/1",
    "/docs/rels",
    "/docs/rels/customer",
]


@pytest.mark.parametrize("path", READS)
async def test_every_response_has_self_and_absolute_path_links(
    client: httpx.AsyncClient, path: str
) -> None:
    response = await client.get(path, headers=ADMIN)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/hal+json; charset=utf-8"
    links: dict[str, Any] = response.json()["_links"]
    assert "self" in links
    for rel, value in links.items():
        for link in value if isinstance(value, list) else [value]:
            assert link["href"].startswith("/"), (rel, link)


@pytest.mark.parametrize("path", READS)
async def test_every_rw_relation_is_documented(client: httpx.AsyncClient, path: str) -> None:
    body = (await client.get(path, headers=ADMIN)).json()
    rels = set(body["_links"])
    for items in body.get("_embedded", {}).values():
        for item in items:
            rels |= set(item["_links"])
    for rel in rels:
        if rel.startswith("rw:"):
            assert body["_links"]["curies"][0]["name"] == "rw"
            doc = await client.get(f"/docs/rels/{rel[3:]}")
            assert doc.status_code == 200, rel
            assert doc.json()["description"] == RELATIONS[rel[3:]]


async def test_unknown_relation_doc_is_a_404_problem(client: httpx.AsyncClient) -> None:
    response = await client.get("/docs/rels/teleport")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert "/docs/rels" in response.json()["detail"]


async def test_plain_json_gets_the_same_body(client: httpx.AsyncClient) -> None:
    hal = await client.get("/customers/1")
    plain = await client.get("/customers/1", headers={"Accept": "application/json"})
    assert plain.json() == hal.json()


async def test_root_links_everything(client: httpx.AsyncClient) -> None:
    links = (await client.get("/")).json()["_links"]
    for rel in ("rw:customers", "rw:products", "rw:orders", "rw:auth"):
        assert rel in links
    # Every link of the entry point can be followed with GET (none answers 405).
    for rel in ("rw:token", "rw:session"):
        assert rel not in links
    assert links["rw:status"] == {
        "href": "/status/{code}",
        "templated": True,
        "title": "Any status code, explained",
    }
    assert links["rw:product-search"]["templated"] is True
    assert links["service-desc"]["href"] == "/openapi.json"
    assert links["service-doc"]["href"] == "/docs/rels"


async def test_collection_offers_create_with_fields(client: httpx.AsyncClient) -> None:
    template = (await client.get("/v2/products")).json()["_templates"]["create"]
    assert template["method"] == "POST"
    assert template["target"] == "/v2/products"
    assert [p["name"] for p in template["properties"]] == ["name", "cost", "currency"]


async def test_item_offers_update_patch_delete(client: httpx.AsyncClient) -> None:
    templates = (await client.get("/products/1")).json()["_templates"]
    assert set(templates) == {"update", "patch", "delete"}
    assert templates["update"]["method"] == "PUT"
    assert templates["patch"]["contentType"] == "application/merge-patch+json"
    assert templates["delete"]["method"] == "DELETE"
    name = templates["update"]["properties"][0]
    assert name == {
        "name": "name",
        "type": "text",
        "required": True,
        "prompt": "Name",
        "value": "Keyboard",
    }


async def test_embedded_items_carry_links_but_no_templates(client: httpx.AsyncClient) -> None:
    body = (await client.get("/customers?limit=2")).json()
    for item in body["_embedded"]["customers"]:
        assert "_templates" not in item
        assert item["_links"]["self"]["href"] == f"/customers/{item['id']}"
    assert body["_links"]["curies"][0]["href"] == "/docs/rels/{rel}"


def test_curies_only_at_the_top_and_only_when_used() -> None:
    plain = Resource("x", links=[Link("self", "/x")])
    assert "curies" not in to_hal(plain)["_links"]
    inner = Resource("y", links=[Link("rw:customer", "/customers/1")])
    outer = Resource("x", links=[Link("self", "/x")], embedded={"ys": [inner]})
    doc = to_hal(outer)
    assert "curies" in doc["_links"]
    assert "curies" not in doc["_embedded"]["ys"][0]["_links"]


async def test_every_entry_point_link_can_be_followed(client: httpx.AsyncClient) -> None:
    """An event stream never ends (its link says text/event-stream): it is asked with HEAD."""
    links = (await client.get("/")).json()["_links"]
    followed = 0
    for rel, value in links.items():
        for link in value if isinstance(value, list) else [value]:
            if link.get("templated") or rel == "curies":
                continue
            method = "HEAD" if link.get("type") == "text/event-stream" else "GET"
            answer = await client.request(
                method, link["href"], headers=ADMIN, follow_redirects=True
            )
            assert answer.status_code == 200, (rel, link["href"], answer.status_code)
            followed += 1
    assert followed >= 8
