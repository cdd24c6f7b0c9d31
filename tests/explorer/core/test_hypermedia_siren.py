"""Siren entities through find_links: the order example of the Siren README, relative."""

from __future__ import annotations

import orjson

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import FormField, Link

BASE = "http://api.x.io/orders/42"
SIREN = "application/vnd.siren+json"

ORDER = {
    "class": ["order"],
    "properties": {"orderNumber": 42, "itemCount": 3, "status": "pending"},
    "entities": [
        {
            "class": ["items", "collection"],
            "rel": ["http://x.io/rels/order-items"],
            "href": "items",
        },
        {
            "class": ["info", "customer"],
            "rel": ["http://x.io/rels/customer"],
            "properties": {"customerId": "pj123", "name": "Peter Joseph"},
            "links": [{"rel": ["self"], "href": "/customers/pj123"}],
            "entities": [{"rel": ["avatar"], "href": "/img/pj123.png", "type": "image/png"}],
        },
        "junk",
    ],
    "actions": [
        {
            "name": "add-item",
            "title": "Add Item",
            "method": "POST",
            "href": "items",
            "type": "application/x-www-form-urlencoded",
            "fields": [
                {"name": "orderNumber", "type": "hidden", "value": "42"},
                {"name": "productCode", "type": "text", "title": "Product", "required": True},
                {"name": "quantity", "type": "number"},
                {
                    "name": "size",
                    "type": "radio",
                    "value": [{"value": "S"}, {"value": "M", "selected": True}, {"value": "L"}],
                },
            ],
        },
        {"name": "refresh", "href": "/orders/42"},
        {"name": "broken"},
    ],
    "links": [
        {"rel": ["self"], "href": "/orders/42"},
        {"rel": ["previous", "prev"], "href": "/orders/41", "title": "Older"},
        {"rel": ["next"], "href": "/orders/43"},
        {"rel": ["search"], "href": "/orders{?q}", "class": ["templated"]},
        {"rel": "not-a-list but-split", "href": "/odd"},
        {"rel": ["x"]},
    ],
}


def test_order_entity() -> None:
    found = find_links(BASE, 200, [], orjson.dumps(ORDER), SIREN)
    assert found == [
        Link(
            rel="http://x.io/rels/order-items",
            href="http://api.x.io/orders/items",
            source="/entities/0",
        ),
        Link(rel="self", href="http://api.x.io/customers/pj123", source="/entities/1/links/0"),
        Link(
            rel="avatar",
            href="http://api.x.io/img/pj123.png",
            media_type="image/png",
            source="/entities/1/entities/0",
        ),
        Link(
            rel="add-item",
            href="http://api.x.io/orders/items",
            method="POST",
            title="Add Item",
            source="/actions/0",
            fields=(
                FormField(name="orderNumber", type="hidden", value="42"),
                FormField(name="productCode", required=True, prompt="Product"),
                FormField(name="quantity", type="number"),
                FormField(name="size", type="radio", value="M", options=("S", "M", "L")),
            ),
            content_type="application/x-www-form-urlencoded",
            name="add-item",
        ),
        Link(
            rel="refresh",
            href="http://api.x.io/orders/42",
            source="/actions/1",
            content_type="application/x-www-form-urlencoded",
            name="refresh",
        ),
        Link(rel="self", href="http://api.x.io/orders/42", source="/links/0"),
        Link(
            rel="prev",
            href="http://api.x.io/orders/41",
            title="Older",
            source="/links/1",
            label="previous",
        ),
        Link(rel="next", href="http://api.x.io/orders/43", source="/links/2"),
        Link(
            rel="search",
            href="http://api.x.io/orders{?q}",
            templated=True,
            source="/links/3",
        ),
        Link(rel="not-a-list", href="http://api.x.io/odd", source="/links/4"),
        Link(rel="but-split", href="http://api.x.io/odd", source="/links/4"),
    ]


def test_sniffed_from_plain_json() -> None:
    body = orjson.dumps(ORDER)
    assert find_links(BASE, 200, [], body, "application/json") == find_links(
        BASE, 200, [], body, SIREN
    )


def test_malformed_siren() -> None:
    doc = {"class": ["x"], "properties": {}, "links": "nope", "actions": [3], "entities": {}}
    assert find_links(BASE, 200, [], orjson.dumps(doc), SIREN) == []


def test_a_relation_named_twice_counts_once() -> None:
    doc = {"class": ["x"], "links": [{"rel": ["a", "a", "b"], "href": "/x"}]}
    found = find_links(BASE, 200, [], orjson.dumps(doc), SIREN)
    assert [(link.rel, link.source) for link in found] == [("a", "/links/0"), ("b", "/links/0")]
