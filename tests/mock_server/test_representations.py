"""HAL, Siren, JSON:API and XML: each renders the neutral model, with the same links."""

from __future__ import annotations

import httpx
import orjson
import pytest
from defusedxml import ElementTree

from mock_server.representations.jsonapi import to_jsonapi
from mock_server.representations.model import Action, Field, Link, Resource
from mock_server.representations.renderers import render
from mock_server.representations.siren import to_siren
from mock_server.representations.xml import to_xml
from tests.mock_server import links_in
from tests.mock_server.conftest import ADMIN

HAL = "application/hal+json"
SIREN = "application/vnd.siren+json"
JSONAPI = "application/vnd.api+json"
XML = "application/xml"


def _customer(ident: int) -> Resource:
    return Resource(
        kind="customer",
        id=ident,
        properties={"id": ident, "name": f"Customer {ident}", "address": {"city": "Cambridge"}},
        links=[
            Link("self", f"/customers/{ident}"),
            Link("collection", "/customers"),
            Link("rw:orders", f"/orders?customerId={ident}", title="Their orders"),
        ],
    )


def _root() -> Resource:
    return Resource(
        kind="root",
        properties={"name": "restwalk-mock"},
        links=[
            Link("self", "/"),
            Link("rw:customers", "/customers", title="Customers"),
            Link("search", "/products{?minCost,maxCost,name}", templated=True),
        ],
    )


def _page() -> Resource:
    return Resource(
        kind="customers",
        properties={"count": 2, "total": 12, "limit": 2, "offset": 2},
        links=[
            Link("self", "/customers?limit=2&offset=2"),
            Link("first", "/customers?limit=2&offset=0"),
            Link("prev", "/customers?limit=2&offset=0"),
            Link("next", "/customers?limit=2&offset=4"),
            Link("last", "/customers?limit=2&offset=10"),
            Link("search", "/customers{?name,city}", templated=True),
        ],
        embedded={"customers": [_customer(3), _customer(4)]},
        actions=[
            Action(
                "create",
                "POST",
                "/customers",
                "Create a customer",
                fields=(Field("name", required=True), Field("address")),
            )
        ],
    )


def _order() -> Resource:
    return Resource(
        kind="order",
        id=7,
        properties={
            "id": 7,
            "customerId": 1,
            "items": [{"productId": 1, "quantity": 2}, {"productId": 2, "quantity": 1}],
            "status": "draft",
        },
        links=[
            Link("self", "/orders/7"),
            Link("collection", "/orders"),
            Link("rw:customer", "/customers/1"),
            Link("rw:product", "/products/1"),
            Link("rw:product", "/products/2"),
        ],
        actions=[
            Action("place", "POST", "/orders/7/place", "Place the order"),
            Action(
                "cancel",
                "POST",
                "/orders/7/cancel",
                "Cancel the order",
                fields=(Field("reason", value="changed my mind", prompt="Why?"),),
            ),
        ],
    )


RESOURCES = {"root": _root, "page": _page, "item": lambda: _customer(1), "order": _order}


@pytest.mark.parametrize("name", list(RESOURCES))
def test_same_links_and_actions_in_every_representation(name: str) -> None:
    resource = RESOURCES[name]()
    hal = orjson.loads(render(resource, HAL))
    siren = orjson.loads(render(resource, SIREN))
    jsonapi = orjson.loads(render(resource, JSONAPI))
    xml = render(resource, XML)
    expected = links_in.hal_links(hal)
    assert expected  # every resource links at least to itself
    assert links_in.siren_links(siren) == expected
    assert links_in.jsonapi_links(jsonapi) == expected
    assert links_in.xml_links(xml) == expected
    actions = links_in.hal_actions(hal)
    assert links_in.siren_actions(siren) == actions
    assert links_in.jsonapi_actions(jsonapi) == actions
    assert links_in.xml_actions(xml) == actions


def test_siren_entity_shape() -> None:
    doc = to_siren(_page())
    assert doc["class"] == ["customers"]
    assert doc["properties"] == {"count": 2, "total": 12, "limit": 2, "offset": 2}
    first = doc["entities"][0]
    assert first["rel"] == ["item", "customers"]
    assert first["class"] == ["customer"]
    assert {"rel": ["self"], "href": "/customers/3"} in first["links"]
    search = next(link for link in doc["links"] if link["rel"] == ["search"])
    assert search["class"] == ["templated"]
    (create,) = doc["actions"]
    assert create["method"] == "POST"
    assert create["type"] == "application/json"
    assert create["fields"] == [
        {"name": "name", "type": "text", "required": True},
        {"name": "address", "type": "text"},
    ]


def test_siren_action_field_value_and_title() -> None:
    cancel = next(a for a in to_siren(_order())["actions"] if a["name"] == "cancel")
    assert cancel["fields"] == [
        {"name": "reason", "type": "text", "value": "changed my mind", "title": "Why?"}
    ]


def test_jsonapi_member_document() -> None:
    doc = to_jsonapi(_order())
    data = doc["data"]
    assert data["type"] == "orders"
    assert data["id"] == "7"
    assert "id" not in data["attributes"]
    assert data["attributes"]["status"] == "draft"
    assert data["relationships"]["customer"] == {
        "links": {"related": "/customers/1"},
        "data": {"type": "customers", "id": "1"},
    }
    assert data["relationships"]["product"] == {
        "data": [{"type": "products", "id": "1"}, {"type": "products", "id": "2"}]
    }
    assert data["links"]["self"] == {"href": "/orders/7", "rel": "self"}
    assert data["links"]["product-2"] == {"href": "/products/2", "rel": "rw:product"}
    assert [a["name"] for a in data["meta"]["actions"]] == ["place", "cancel"]
    assert doc["links"] == {"self": {"href": "/orders/7", "rel": "self"}}


def test_jsonapi_collection_document() -> None:
    doc = to_jsonapi(_page())
    assert [item["id"] for item in doc["data"]] == ["3", "4"]
    assert all(item["type"] == "customers" for item in doc["data"])
    assert doc["meta"]["count"] == 2
    assert doc["meta"]["total"] == 12
    for rel in ("self", "first", "prev", "next", "last"):
        assert doc["links"][rel]["rel"] == rel
    assert doc["links"]["search"]["meta"] == {"templated": True}
    assert doc["meta"]["actions"][0]["name"] == "create"


def test_jsonapi_root_has_meta_and_links_but_no_data() -> None:
    doc = to_jsonapi(_root())
    assert "data" not in doc
    assert doc["meta"] == {"name": "restwalk-mock"}
    assert doc["links"]["customers"] == {
        "href": "/customers",
        "rel": "rw:customers",
        "title": "Customers",
    }


def test_jsonapi_empty_page_has_empty_data() -> None:
    page = _page()
    page.embedded = {"customers": []}
    assert to_jsonapi(page)["data"] == []


def test_xml_shape() -> None:
    root = ElementTree.fromstring(to_xml(_order()))
    assert root.tag == "order"
    assert root.get("id") == "7"
    assert root.find("status").text == "draft"
    assert [i.find("productId").text for i in root.find("items")] == ["1", "2"]
    place = root.find("action[@name='place']")
    assert place.get("method") == "POST"
    assert place.get("href") == "/orders/7/place"
    field = root.find("action[@name='cancel']/field")
    assert field.attrib == {
        "name": "reason",
        "type": "text",
        "required": "false",
        "value": "changed my mind",
        "title": "Why?",
    }


def test_xml_field_values_that_are_structures_are_json() -> None:
    resource = Resource(
        kind="order",
        actions=[
            Action(
                "update",
                "PUT",
                "/orders/1",
                "Replace",
                fields=(Field("items", value=[{"productId": 1}]), Field("gift", value=False)),
            )
        ],
    )
    root = ElementTree.fromstring(to_xml(resource))
    values = [f.get("value") for f in root.iter("field")]
    assert values == ['[{"productId":1}]', "false"]


def test_xml_embedded_and_templated() -> None:
    root = ElementTree.fromstring(to_xml(_page()))
    group = root.find("embedded[@rel='customers']")
    assert [c.get("id") for c in group.findall("customer")] == ["3", "4"]
    search = root.find("link[@rel='search']")
    assert search.get("templated") == "true"
    assert root.find("link[@rel='self']").get("templated") is None


def test_xml_survives_odd_names_and_control_characters() -> None:
    resource = Resource(kind="thing", properties={"odd name": "a\x00b", "xmlish": None, "ok": True})
    root = ElementTree.fromstring(to_xml(resource))
    odd = root.find("property[@name='odd name']")
    assert odd.text == "a\ufffdb"
    assert root.find("property[@name='xmlish']").get("nil") == "true"
    assert root.find("ok").text == "true"


@pytest.mark.parametrize("media", [HAL, SIREN, JSONAPI, XML])
async def test_root_over_http_has_the_same_links(client: httpx.AsyncClient, media: str) -> None:
    hal = (await client.get("/", headers={"Accept": HAL})).json()
    response = await client.get("/", headers={"Accept": media})
    assert response.status_code == 200
    readers = {
        HAL: lambda r: links_in.hal_links(r.json()),
        SIREN: lambda r: links_in.siren_links(r.json()),
        JSONAPI: lambda r: links_in.jsonapi_links(r.json()),
        XML: lambda r: links_in.xml_links(r.content),
    }
    assert readers[media](response) == links_in.hal_links(hal)


READERS = {
    HAL: (lambda r: links_in.hal_links(r.json()), lambda r: links_in.hal_actions(r.json())),
    SIREN: (lambda r: links_in.siren_links(r.json()), lambda r: links_in.siren_actions(r.json())),
    JSONAPI: (
        lambda r: links_in.jsonapi_links(r.json()),
        lambda r: links_in.jsonapi_actions(r.json()),
    ),
    XML: (lambda r: links_in.xml_links(r.content), lambda r: links_in.xml_actions(r.content)),
}


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/customers?limit=3&offset=3",
        "/v2/customers/2",
        "/products?version=2&limit=2",
        "/orders/1",
        "/orders?status=draft",
        "/reports",
        "/status",
        "/admin/maintenance",
    ],
)
async def test_real_resources_have_the_same_links_everywhere(
    client: httpx.AsyncClient, path: str
) -> None:
    hal = await client.get(path, headers={"Accept": HAL, **ADMIN})
    assert hal.status_code == 200, hal.text
    links, actions = READERS[HAL][0](hal), READERS[HAL][1](hal)
    assert links
    for media in (SIREN, JSONAPI, XML):
        response = await client.get(path, headers={"Accept": media, **ADMIN})
        assert response.status_code == 200
        assert response.headers["content-type"].startswith(media)
        read_links, read_actions = READERS[media]
        assert read_links(response) == links, media
        assert read_actions(response) == actions, media


async def test_an_order_offers_its_actions_everywhere(client: httpx.AsyncClient) -> None:
    hal = (await client.get("/orders/1", headers={"Accept": HAL, **ADMIN})).json()
    assert set(hal["_templates"]) >= {"place", "cancel"}
    siren = (await client.get("/orders/1", headers={"Accept": SIREN, **ADMIN})).json()
    place = next(a for a in siren["actions"] if a["name"] == "place")
    assert place["method"] == "POST"
    assert place["href"].endswith("/orders/1/place")
