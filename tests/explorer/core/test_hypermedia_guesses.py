"""Bare URL strings, marked as guesses, through find_links."""

from __future__ import annotations

import orjson
import pytest

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.guesses import looks_like_url
from explorer.core.hypermedia.link import Link

BASE = "http://127.0.0.1:8000/orders/9"


def test_plain_json_document() -> None:
    doc = {
        "kind": "https://restwalk.example/kinds/order",
        "note": "Order 9 is placed; /place is only for drafts.",
        "next_step": "/orders/9/ship",
        "see": ["/orders/9", "/orders/9", "//cdn.example.com/x", "/", "ftp://x/y"],
        "nested": {"deeper": [{"photo": "https://img.example/9.png"}]},
    }
    found = find_links(BASE, 200, [], orjson.dumps(doc), "application/json")
    assert found == [
        Link(
            rel="kind",
            href="https://restwalk.example/kinds/order",
            source="/kind",
            guess=True,
        ),
        Link(
            rel="next_step",
            href="http://127.0.0.1:8000/orders/9/ship",
            source="/next_step",
            guess=True,
        ),
        Link(rel="see", href="http://127.0.0.1:8000/orders/9", source="/see/0", guess=True),
        Link(
            rel="photo",
            href="https://img.example/9.png",
            source="/nested/deeper/0/photo",
            guess=True,
        ),
    ]


def test_guess_already_found_by_a_format_is_dropped() -> None:
    # The same relation and URL a format declared: no new link. Another relation to the
    # same URL is another link (a "previous" that is this page's self is still a prev).
    doc = {
        "_links": {"self": {"href": "/orders/9"}},
        "self": "/orders/9",
        "previous": "/orders/9",
        "z": "/odd{?x}",
        "odd": "/odd{?x}",
    }
    assert find_links(BASE, 200, [("Link", "</odd{?x}>; rel=z")], orjson.dumps(doc)) == [
        Link(rel="z", href="http://127.0.0.1:8000/odd{?x}", source="header:Link"),
        Link(rel="self", href="http://127.0.0.1:8000/orders/9", source="/_links/self"),
        Link(
            rel="prev",
            href="http://127.0.0.1:8000/orders/9",
            source="/previous",
            guess=True,
            label="previous",
        ),
        Link(
            rel="odd",
            href="http://127.0.0.1:8000/odd{?x}",
            templated=True,
            source="/odd",
            guess=True,
        ),
    ]


def test_one_url_under_two_names_of_one_object_is_two_links() -> None:
    # fastapi-hypermodel's UrlFor fields: "href" and "update" name the same URL.
    doc = {"id_": "item01", "href": "/items/item01", "update": "/items/item01"}
    found = find_links("http://localhost:18606/items/item01", 200, [], orjson.dumps(doc))
    assert [(link.rel, link.href, link.guess) for link in found] == [
        ("self", "http://localhost:18606/items/item01", False),
        ("update", "http://localhost:18606/items/item01", True),
    ]


def test_bare_string_body() -> None:
    assert find_links(BASE, 200, [], b'"https://example.com/x"', "application/json") == [
        Link(rel="related", href="https://example.com/x", source="", guess=True)
    ]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("/orders", True),
        ("https://example.com", True),
        ("http://x", True),
        ("/", False),
        ("//host/path", False),
        ("http://", False),
        ("/with space", False),
        ("orders/1", False),
        ("mailto:a@b.c", False),
        ("/" + "a" * 9000, False),
    ],
)
def test_looks_like_url(value: str, expected: bool) -> None:
    assert looks_like_url(value) is expected
