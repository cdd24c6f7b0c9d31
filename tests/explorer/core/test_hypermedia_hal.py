"""HAL and HAL-FORMS documents through find_links."""

from __future__ import annotations

import orjson
import pytest

from explorer.core.hypermedia import find_links, search_links
from explorer.core.hypermedia.collector import Collector
from explorer.core.hypermedia.hal import add_hal_links
from explorer.core.hypermedia.link import FormField, Link
from explorer.core.hypermedia.resolve import Resolver

BASE = "http://127.0.0.1:8000/customers/1"
HAL = "application/hal+json"


def hal_links(doc: object, url: str = BASE, media_type: str | None = HAL) -> list[Link]:
    return find_links(url, 200, [], orjson.dumps(doc), media_type)


#: The shape our mock server answers with (see mock_server/representations/hal.py).
MOCK_CUSTOMER = {
    "id": 1,
    "name": "Ada Lovelace",
    "address": "12 St James's Square, London, LN 10001",
    "_links": {
        "self": {"href": "/customers/1"},
        "collection": {"href": "/customers"},
        "search": {"href": "/customers{?name,city,limit,offset}", "templated": True},
        "rw:orders": {"href": "/orders?customerId=1", "title": "Orders of Ada Lovelace"},
        "curies": [{"name": "rw", "href": "/docs/rels/{rel}", "templated": True}],
    },
    "_embedded": {
        "orders": [
            {
                "id": 3,
                "status": "draft",
                "_links": {
                    "self": {"href": "/orders/3"},
                    "rw:product": [{"href": "/products/1"}, {"href": "/products/2"}],
                },
                "_templates": {
                    "place": {
                        "title": "Place the order",
                        "method": "POST",
                        "target": "/orders/3/place",
                        "contentType": "application/json",
                        "properties": [
                            {"name": "note", "type": "text", "required": False},
                            {
                                "name": "delivery",
                                "type": "text",
                                "required": True,
                                "prompt": "How to deliver",
                                "value": "standard",
                                "options": {"inline": ["standard", "express"]},
                            },
                        ],
                    }
                },
            }
        ]
    },
    "_templates": {
        "update": {
            "title": "Replace the customer",
            "method": "PUT",
            "contentType": "application/json",
            "properties": [{"name": "name", "type": "text", "required": True}],
        }
    },
}

CURIE = "http://127.0.0.1:8000/docs/rels/"


def test_mock_server_hal_shape() -> None:
    assert hal_links(MOCK_CUSTOMER) == [
        Link(rel="self", href="http://127.0.0.1:8000/customers/1", source="/_links/self"),
        Link(rel="collection", href="http://127.0.0.1:8000/customers", source="/_links/collection"),
        Link(
            rel="search",
            href="http://127.0.0.1:8000/customers{?name,city,limit,offset}",
            templated=True,
            source="/_links/search",
        ),
        Link(
            rel="rw:orders",
            href="http://127.0.0.1:8000/orders?customerId=1",
            title="Orders of Ada Lovelace",
            source="/_links/rw:orders",
            attributes=(("rel-uri", CURIE + "orders"),),
        ),
        Link(
            rel="curies",
            href="http://127.0.0.1:8000/docs/rels/{rel}",
            templated=True,
            source="/_links/curies/0",
            name="rw",
        ),
        Link(
            rel="self",
            href="http://127.0.0.1:8000/orders/3",
            source="/_embedded/orders/0/_links/self",
        ),
        Link(
            rel="rw:product",
            href="http://127.0.0.1:8000/products/1",
            source="/_embedded/orders/0/_links/rw:product/0",
            attributes=(("rel-uri", CURIE + "product"),),
        ),
        Link(
            rel="rw:product",
            href="http://127.0.0.1:8000/products/2",
            source="/_embedded/orders/0/_links/rw:product/1",
            attributes=(("rel-uri", CURIE + "product"),),
        ),
        Link(
            rel="place",
            href="http://127.0.0.1:8000/orders/3/place",
            method="POST",
            title="Place the order",
            source="/_embedded/orders/0/_templates/place",
            fields=(
                FormField(name="note"),
                FormField(
                    name="delivery",
                    required=True,
                    value="standard",
                    prompt="How to deliver",
                    options=("standard", "express"),
                ),
            ),
            content_type="application/json",
            name="place",
        ),
        Link(
            rel="update",
            href="http://127.0.0.1:8000/customers/1",
            method="PUT",
            title="Replace the customer",
            source="/_templates/update",
            fields=(FormField(name="name", required=True),),
            content_type="application/json",
            name="update",
        ),
    ]


def test_plain_json_with_hal_shape_is_sniffed() -> None:
    assert hal_links(MOCK_CUSTOMER, media_type="application/json") == hal_links(MOCK_CUSTOMER)
    assert hal_links(MOCK_CUSTOMER, media_type=None) == hal_links(MOCK_CUSTOMER)


def test_nested_embedding_curies_deprecation_and_link_properties() -> None:
    doc = {
        "_links": {
            "self": [{"href": "."}, {"href": "?page=1", "name": "page1"}],
            "curies": {"name": "ex", "href": "https://docs.example.com/{rel}.html"},
            "ex:old": {
                "href": "old/{id}",
                "templated": True,
                "deprecation": "https://docs.example.com/deprecations/old",
                "type": "text/html",
                "hreflang": "en",
                "profile": "https://example.com/profiles/old",
                "title": "Old thing",
            },
            "broken": {"title": "no href"},
            "numbers": [1, {"href": 7}, {"href": "/ok"}],
        },
        "_embedded": {
            "level1": {
                "_links": {
                    "curies": [{"name": "in", "href": "/inner/{rel}"}],
                    "in:deep": {"href": "deep"},
                    "ex:also": {"href": "also"},
                },
                "_embedded": {
                    "level2": [
                        {"_links": {"self": {"href": "/l2/a~b/c"}}, "_templates": {"x": {}}},
                        "not a resource",
                    ]
                },
            },
            "weird/key~": {"_links": {"up": {"href": ".."}}},
        },
    }
    url = "https://api.example.com/things/?page=2"
    assert hal_links(doc, url=url) == [
        Link(rel="self", href="https://api.example.com/things/", source="/_links/self/0"),
        Link(
            rel="self",
            href="https://api.example.com/things/?page=1",
            source="/_links/self/1",
            name="page1",
        ),
        Link(
            rel="curies",
            href="https://docs.example.com/{rel}.html",
            source="/_links/curies",
            name="ex",
        ),
        Link(
            rel="ex:old",
            href="https://api.example.com/things/old/{id}",
            title="Old thing",
            media_type="text/html",
            templated=True,
            deprecation="https://docs.example.com/deprecations/old",
            source="/_links/ex:old",
            hreflang="en",
            attributes=(
                ("profile", "https://example.com/profiles/old"),
                ("rel-uri", "https://docs.example.com/old.html"),
            ),
        ),
        Link(rel="numbers", href="https://api.example.com/ok", source="/_links/numbers/2"),
        Link(
            rel="curies",
            href="https://api.example.com/inner/{rel}",
            source="/_embedded/level1/_links/curies/0",
            name="in",
        ),
        Link(
            rel="in:deep",
            href="https://api.example.com/things/deep",
            source="/_embedded/level1/_links/in:deep",
            attributes=(("rel-uri", "https://api.example.com/inner/deep"),),
        ),
        Link(
            rel="ex:also",
            href="https://api.example.com/things/also",
            source="/_embedded/level1/_links/ex:also",
            attributes=(("rel-uri", "https://docs.example.com/also.html"),),
        ),
        Link(
            rel="self",
            href="https://api.example.com/l2/a~b/c",
            source="/_embedded/level1/_embedded/level2/0/_links/self",
        ),
        Link(
            rel="x",
            href="https://api.example.com/l2/a~b/c",
            source="/_embedded/level1/_embedded/level2/0/_templates/x",
            content_type="application/json",
            name="x",
        ),
        Link(
            rel="up",
            href="https://api.example.com/",
            source="/_embedded/weird~1key~0/_links/up",
        ),
    ]


def test_template_without_self_targets_the_request_url_and_keeps_templated_targets() -> None:
    doc = {
        "_templates": {
            "default": {"method": "patch", "contentType": "application/merge-patch+json"},
            "search": {"method": "GET", "target": "/orders{?status}"},
            "odd": "not an object",
        }
    }
    assert hal_links(doc, url="http://h/orders/7") == [
        Link(
            rel="default",
            href="http://h/orders/7",
            method="PATCH",
            source="/_templates/default",
            content_type="application/merge-patch+json",
            name="default",
        ),
        Link(
            rel="search",
            href="http://h/orders{?status}",
            templated=True,
            source="/_templates/search",
            content_type="application/json",
            name="search",
        ),
    ]


def test_malformed_hal_gives_what_it_can() -> None:
    # Not HAL any more; what is left is an ``href`` field, found as such.
    assert hal_links({"_links": [{"href": "/x"}], "_embedded": "nope"}) == [
        Link(rel="_links", href="http://127.0.0.1:8000/x", source="/_links/0/href")
    ]
    assert hal_links({"_links": {"self": {"href": "/ok"}}, "_embedded": {"a": [None, 3]}}) == [
        Link(rel="self", href="http://127.0.0.1:8000/ok", source="/_links/self")
    ]
    assert find_links(BASE, 200, [], b'{"_links": {"self": {"href": "/x"}', HAL) == []


def nested(depth: int) -> bytes:
    inner = '{"_links": {"self": {"href": "/bottom"}}}'
    return ('{"_embedded": {"e": ' * depth + inner + "}}" * depth).encode()


def test_deeply_nested_embedding_does_not_raise() -> None:
    found = find_links(BASE, 200, [], nested(300), HAL)
    assert [link.source for link in found] == ["/_embedded/e" * 300 + "/_links/self"]
    assert find_links(BASE, 200, [], nested(5000), HAL) == []


def test_repeated_properties_share_fields_but_exact_values_differ() -> None:
    template = {"method": "POST", "properties": [{"name": "a", "required": True}]}
    loose = {"method": "POST", "properties": [{"name": "a", "required": 1}]}
    doc = {
        "_embedded": {"x": [{"_templates": {"t": template}}] * 2 + [{"_templates": {"t": loose}}]}
    }
    found = hal_links(doc)
    assert [link.fields for link in found] == [
        (FormField(name="a", required=True),),
        (FormField(name="a", required=True),),
        (FormField(name="a"),),
    ]
    assert found[0].fields[0] is found[1].fields[0]


def page_of(items: int) -> bytes:
    """A HAL page of ``items`` items with three links each (and the page's own self)."""
    item = {"_links": {"self": {"href": "/o/1"}, "up": {"href": "/o"}, "x": [{"href": "/x"}]}}
    return orjson.dumps({"_links": {"self": {"href": "/o"}}, "_embedded": {"o": [item] * items}})


def test_a_large_page_stops_at_the_link_bound_and_says_so() -> None:
    search = search_links(BASE, 200, [], page_of(500), HAL, max_links=1000)
    assert len(search.links) == 1000
    assert search.stopped == "the search stops at 1,000 links"
    assert search.links[-1].source == "/_embedded/o/332/_links/x/0"  # the 1,000th, in order
    everything = search_links(BASE, 200, [], page_of(500), HAL, max_links=1501)
    assert (len(everything.links), everything.stopped) == (1501, None)


def test_a_large_page_stops_at_the_time_bound_and_says_so() -> None:
    search = search_links(BASE, 200, [], page_of(500), HAL, max_seconds=0)
    assert search.stopped == "the search stops after 0 s"
    assert len(search.links) < 1501


def test_a_document_is_read_as_it_is_unless_the_reader_may_consume_it() -> None:
    """search_links owns the document it parses and lets the HAL reader drop each
    embedded resource once read (its memory goes to the links made next); a
    caller's own document is left as it was."""
    doc = orjson.loads(orjson.dumps(MOCK_CUSTOMER))
    alone = Collector(Resolver(BASE))
    add_hal_links(doc, alone)
    assert doc == MOCK_CUSTOMER
    consumed = Collector(Resolver(BASE))
    add_hal_links(doc, consumed, consume=True)
    assert doc["_embedded"]["orders"] == [None]
    assert consumed.links == alone.links == hal_links(MOCK_CUSTOMER)[: len(alone.links)]


def test_a_hal_document_read_by_another_format_too_is_not_consumed() -> None:
    """A HAL page that JSON-LD reads as well: the generic passes walk the whole
    document after both readers, so nothing of it may be dropped."""
    doc = {
        "@context": "http://schema.org/",
        "_embedded": {"items": [{"_links": {"self": {"href": "/i/1"}}, "seeAlso": "/i/1/more"}]},
    }
    found = hal_links(doc, media_type="application/json")
    assert ("self", "http://127.0.0.1:8000/i/1") in [(link.rel, link.href) for link in found]
    assert ("seeAlso", "http://127.0.0.1:8000/i/1/more") in [
        (link.rel, link.href) for link in found
    ]


@pytest.mark.parametrize("links_first", [True, False], ids=["links-first", "templates-first"])
@pytest.mark.parametrize(
    "self_link",
    [
        {"href": "/orders/3"},  # plain: as the HAL reader resolved it, when it came first
        {"href": "/orders/3", "title": "Order 3"},  # read with its members
        [{"href": "/orders/3"}],  # an array of self links: the first
    ],
    ids=["plain", "with-title", "array"],
)
def test_a_template_without_target_goes_to_the_self_link_however_it_is_written(
    self_link: object, links_first: bool
) -> None:
    links = {"self": self_link}
    templates = {"default": {"method": "PUT"}}
    doc = (
        {"_links": links, "_templates": templates}
        if links_first
        else {"_templates": templates, "_links": links}
    )
    found = find_links(BASE, 200, [], orjson.dumps(doc), "application/prs.hal-forms+json")
    (template,) = [link for link in found if link.rel == "default"]
    assert (template.href, template.method, template.templated) == (
        "http://127.0.0.1:8000/orders/3",
        "PUT",
        False,
    )


def test_a_curie_expanded_once_is_kept_for_the_next_documents() -> None:
    """Each compact relation's ``rel-uri`` is the curie's expansion, resolved against
    each document's own URL, whether the expansion was kept from another document or
    not; a malformed curie gives none, every time."""
    from explorer.core.hypermedia import hal_relations

    def rel_uri(doc: object, url: str) -> str | None:
        link = next(link for link in hal_links(doc, url) if link.rel == "rw:orders")
        return dict(link.attributes).get("rel-uri")

    hal_relations._curie_uri.cache_clear()
    first = rel_uri(MOCK_CUSTOMER, BASE)
    assert first == "http://127.0.0.1:8000/docs/rels/orders"
    hits = hal_relations._curie_uri.cache_info().hits
    assert rel_uri(MOCK_CUSTOMER, "http://other.test:9000/customers/1") == (
        "http://other.test:9000/docs/rels/orders"
    )
    assert hal_relations._curie_uri.cache_info().hits > hits
    broken = {
        "_links": {
            "rw:orders": {"href": "/orders"},
            "curies": [{"name": "rw", "href": "/docs/{rel", "templated": True}],
        }
    }
    assert rel_uri(broken, BASE) is None
    assert rel_uri(broken, BASE) is None
