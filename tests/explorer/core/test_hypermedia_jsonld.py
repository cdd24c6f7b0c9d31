"""JSON-LD and Hydra collections through find_links."""

from __future__ import annotations

import orjson

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import FormField, Link

BASE = "https://api.example.com/books?page=2"
LD = "application/ld+json"
H = "https://api.example.com"

BOOKS = {
    "@context": "/contexts/Book",
    "@id": "/books",
    "@type": "hydra:Collection",
    "hydra:totalItems": 2,
    "hydra:member": [
        {
            "@id": "/books/1",
            "@type": "http://schema.org/Book",
            "title": "Dune",
            "author": {"@id": "/people/herbert", "name": "Frank Herbert"},
            "sameAs": "https://en.wikipedia.org/wiki/Dune_(novel)",
        },
        {"@id": "_:b0", "title": "Anonymous"},
        "/books/3",
    ],
    "hydra:view": {
        "@id": "/books?page=2",
        "@type": "hydra:PartialCollectionView",
        "hydra:first": "/books?page=1",
        "hydra:previous": "/books?page=1",
        "hydra:next": {"@id": "/books?page=3"},
        "hydra:last": "/books?page=5",
    },
    "hydra:search": {
        "@type": "hydra:IriTemplate",
        "hydra:template": "/books{?title,author}",
        "hydra:mapping": [
            {"@type": "IriTemplateMapping", "variable": "title", "required": False},
            {"@type": "IriTemplateMapping", "variable": "author", "required": True},
        ],
    },
    "operation": [
        {"@type": "schema:CreateAction", "method": "POST", "title": "Add a book"},
        {"@type": ["hydra:Operation"], "hydra:method": "get"},
    ],
}


def test_hydra_collection() -> None:
    found = find_links(BASE, 200, [], orjson.dumps(BOOKS), LD)
    assert found == [
        Link(rel="self", href=f"{H}/books", source="/@id"),
        Link(rel="member", href=f"{H}/books/1", source="/hydra:member/0/@id"),
        Link(rel="author", href=f"{H}/people/herbert", source="/hydra:member/0/author/@id"),
        Link(rel="member", href=f"{H}/books/3", source="/hydra:member/2"),
        Link(rel="view", href=f"{H}/books?page=2", source="/hydra:view/@id"),
        Link(rel="first", href=f"{H}/books?page=1", source="/hydra:view/hydra:first"),
        Link(
            rel="prev",
            href=f"{H}/books?page=1",
            source="/hydra:view/hydra:previous",
            label="previous",
        ),
        Link(rel="next", href=f"{H}/books?page=3", source="/hydra:view/hydra:next/@id"),
        Link(rel="last", href=f"{H}/books?page=5", source="/hydra:view/hydra:last"),
        Link(
            rel="search",
            href=f"{H}/books{{?title,author}}",
            templated=True,
            source="/hydra:search",
            fields=(FormField(name="title"), FormField(name="author", required=True)),
        ),
        Link(
            rel="operation",
            href=f"{H}/books",
            method="POST",
            title="Add a book",
            source="/operation/0",
            name="schema:CreateAction",
        ),
        Link(
            rel="operation",
            href=f"{H}/books",
            source="/operation/1",
            name="hydra:Operation",
        ),
        Link(
            rel="@context",
            href=f"{H}/contexts/Book",
            source="/@context",
            guess=True,
        ),
        Link(
            rel="sameAs",
            href="https://en.wikipedia.org/wiki/Dune_(novel)",
            source="/hydra:member/0/sameAs",
            guess=True,
        ),
    ]


def test_graph_base_and_unprefixed_terms() -> None:
    doc = {
        "@context": [{"@base": "https://data.example.org/v1/"}, "https://schema.org"],
        "@graph": [
            {"@id": "people/1", "knows": [{"@id": "people/2"}], "operation": {"method": "DELETE"}},
            {"@id": "people/2", "view": {"@id": "people/?p=1", "next": "people/?p=2"}},
        ],
    }
    found = find_links(BASE, 200, [], orjson.dumps(doc), "application/json")
    d = "https://data.example.org/v1"
    assert found == [
        Link(rel="item", href=f"{d}/people/1", source="/@graph/0/@id"),
        Link(rel="knows", href=f"{d}/people/2", source="/@graph/0/knows/0/@id"),
        Link(
            rel="operation",
            href=f"{d}/people/1",
            method="DELETE",
            source="/@graph/0/operation",
        ),
        Link(rel="item", href=f"{d}/people/2", source="/@graph/1/@id"),
        Link(rel="view", href=f"{d}/people/?p=1", source="/@graph/1/view/@id"),
        Link(rel="next", href=f"{d}/people/?p=2", source="/@graph/1/view/next"),
        Link(rel="@context", href="https://schema.org", source="/@context/1", guess=True),
    ]


def test_top_level_array_and_malformed_nodes() -> None:
    doc = [{"@id": "/a", "@type": "x"}, {"@id": 5}, {"@id": ""}, 3]
    assert find_links(BASE, 200, [], orjson.dumps(doc), LD) == [
        Link(rel="item", href=f"{H}/a", source="/0/@id")
    ]
    doc2 = {"@id": "/x", "hydra:search": {"template": 3}, "operation": [None, "x"]}
    assert find_links(BASE, 200, [], orjson.dumps(doc2), LD) == [
        Link(rel="self", href=f"{H}/x", source="/@id")
    ]
