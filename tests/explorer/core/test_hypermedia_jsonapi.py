"""JSON:API compound documents through find_links."""

from __future__ import annotations

import orjson

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import FormField, Link

BASE = "https://example.com/articles?page[number]=2"
JSONAPI = "application/vnd.api+json"
H = "https://example.com"

COMPOUND = {
    "links": {
        "self": "/articles?page[number]=2",
        "next": {"href": "/articles?page[number]=3", "title": "Next page", "meta": {"count": 10}},
        "prev": None,
        "describedby": {"href": "/schemas/articles", "type": "application/schema+json"},
    },
    "data": [
        {
            "type": "articles",
            "id": "1",
            "attributes": {"title": "JSON:API paints my bikeshed!"},
            "relationships": {
                "author": {
                    "links": {"self": "/articles/1/relationships/author", "related": "author"},
                    "data": {"type": "people", "id": "9"},
                },
                "comments": {"data": [{"type": "comments", "id": "5"}]},
                "tags": {
                    "links": {"related": {"href": "/articles/1/tags", "hreflang": ["en", "fr"]}}
                },
            },
            "links": {"self": "/articles/1"},
        }
    ],
    "included": [
        {
            "type": "people",
            "id": "9",
            "attributes": {"firstName": "Dan", "twitter": "https://twitter.com/dgeb"},
            "links": {"self": "/people/9"},
        },
        {
            "type": "comments",
            "id": "5",
            "attributes": {"body": "First!"},
            "relationships": {"author": {"links": {"related": "/people/2"}}},
            "links": {"self": {"href": "/comments/5", "rel": "canonical"}},
        },
    ],
    "meta": {"total": 11},
}


def test_compound_document() -> None:
    found = find_links(BASE, 200, [], orjson.dumps(COMPOUND), JSONAPI)
    assert found == [
        Link(rel="self", href=f"{H}/articles?page[number]=2", source="/links/self"),
        Link(
            rel="next",
            href=f"{H}/articles?page[number]=3",
            title="Next page",
            source="/links/next",
        ),
        Link(
            rel="describedby",
            href=f"{H}/schemas/articles",
            media_type="application/schema+json",
            source="/links/describedby",
        ),
        Link(
            rel="self",
            href=f"{H}/articles/1/relationships/author",
            source="/data/0/relationships/author/links/self",
            name="author",
        ),
        Link(
            rel="author",
            href=f"{H}/author",
            source="/data/0/relationships/author/links/related",
            name="author",
        ),
        Link(
            rel="tags",
            href=f"{H}/articles/1/tags",
            source="/data/0/relationships/tags/links/related",
            name="tags",
            hreflang="en,fr",
        ),
        Link(rel="self", href=f"{H}/articles/1", source="/data/0/links/self"),
        Link(rel="self", href=f"{H}/people/9", source="/included/0/links/self"),
        Link(
            rel="author",
            href=f"{H}/people/2",
            source="/included/1/relationships/author/links/related",
            name="author",
        ),
        Link(rel="canonical", href=f"{H}/comments/5", source="/included/1/links/self"),
        Link(
            rel="twitter",
            href="https://twitter.com/dgeb",
            source="/included/0/attributes/twitter",
            guess=True,
        ),
    ]


def test_single_resource_errors_meta_actions_and_templates() -> None:
    doc = {
        "jsonapi": {"version": "1.1"},
        "data": {
            "type": "orders",
            "id": "3",
            "links": {
                "self": {"href": "/orders/3", "rel": "self"},
                "search": {
                    "href": "/orders{?status}",
                    "rel": "search",
                    "meta": {"templated": True},
                },
            },
            "meta": {
                "actions": [
                    {
                        "name": "place",
                        "title": "Place it",
                        "method": "post",
                        "href": "/orders/3/place",
                        "type": "application/json",
                        "fields": [
                            {"name": "note", "type": "text", "required": False, "title": "Note"},
                            {"name": "speed", "options": ["slow", "fast"], "value": "slow"},
                            {"type": "no name"},
                        ],
                    },
                    {"name": "no href"},
                ]
            },
        },
        "errors": [{"status": "409", "links": {"about": "/problems/conflict", "type": 7}}],
    }
    found = find_links("https://example.com/orders/3", 200, [], orjson.dumps(doc), JSONAPI)
    assert found == [
        Link(rel="self", href=f"{H}/orders/3", source="/data/links/self"),
        Link(
            rel="search",
            href=f"{H}/orders{{?status}}",
            templated=True,
            source="/data/links/search",
        ),
        Link(
            rel="place",
            href=f"{H}/orders/3/place",
            method="POST",
            title="Place it",
            source="/data/meta/actions/0",
            fields=(
                FormField(name="note", prompt="Note"),
                FormField(name="speed", value="slow", options=("slow", "fast")),
            ),
            content_type="application/json",
            name="place",
        ),
        Link(rel="about", href=f"{H}/problems/conflict", source="/errors/0/links/about"),
    ]


def test_sniffed_from_plain_json_and_malformed_members() -> None:
    doc = {"data": {"type": "x", "id": "1", "links": ["not", "an", "object"]}, "links": "nope"}
    assert find_links(BASE, 200, [], orjson.dumps(doc), "application/json") == []
    doc = {"data": {"type": "x", "id": "1", "relationships": {"r": {"links": {"related": ""}}}}}
    assert find_links(BASE, 200, [], orjson.dumps(doc), None) == []
