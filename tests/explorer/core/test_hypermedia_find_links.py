"""find_links as a whole: order, dispatch by media type, sniffing, resolution rules."""

from __future__ import annotations

import gc

import orjson
import pytest

from explorer.core import gc_pause
from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.collector import escape, fast_field, fast_link, plain_link
from explorer.core.hypermedia.link import FormField, Link
from explorer.core.hypermedia.resolve import Resolver

BASE = "http://127.0.0.1:8000/orders/3?view=full#top"
HAL_DOC = orjson.dumps({"_links": {"self": {"href": "/orders/3"}}, "see": "/elsewhere"})


def test_headers_first_in_wire_order_then_body() -> None:
    headers = [
        ("Location", "/orders/4"),
        ("Link", "</orders>; rel=collection"),
        ("Content-Location", "/orders/3"),
    ]
    found = find_links(BASE, 200, headers, HAL_DOC, "application/hal+json")
    assert [(link.rel, link.source) for link in found] == [
        ("location", "header:Location"),
        ("collection", "header:Link"),
        ("content-location", "header:Content-Location"),
        ("self", "/_links/self"),
        ("see", "/see"),
    ]


@pytest.mark.parametrize(
    ("body", "media_type", "sources"),
    [
        (HAL_DOC, None, ["/_links/self", "/see"]),
        (b"\xef\xbb\xbf" + HAL_DOC, "text/plain", ["/_links/self", "/see"]),
        (HAL_DOC, "application/octet-stream", ["/_links/self", "/see"]),
        (HAL_DOC, "application/problem+json", ["/_links/self", "/see"]),
        (HAL_DOC, "image/png", []),
        (HAL_DOC, "text/html", []),
        (b"  <html><a href='/a'>a</a></html>", None, ["html/a[1]"]),
        (b"<!DOCTYPE html><a href='/a'>a</a>", "", ["a[1]"]),
        (b"<?xml version='1.0'?><r><link href='/a'/></r>", None, ["r/link[1]"]),
        (b"<r><link href='/a'/></r>", "application/vnd.custom+xml", ["r/link[1]"]),
        (b"plain words /not/a/link", None, []),
        (b"{not json", "application/json", []),
    ],
)
def test_dispatch_and_sniffing(body: bytes, media_type: str | None, sources: list[str]) -> None:
    found = find_links(BASE, 200, [], body, media_type)
    assert [link.source for link in found] == sources


def test_declared_format_is_read_whatever_its_shape() -> None:
    # Not Siren-shaped (no class, no entities): only the declared type says it is.
    doc = {"links": [{"rel": "self", "href": "/x"}]}
    found = find_links(BASE, 200, [], orjson.dumps(doc), "application/vnd.siren+json")
    assert [(link.rel, link.href) for link in found] == [("self", "http://127.0.0.1:8000/x")]


def test_jsonapi_and_siren_are_not_both_sniffed() -> None:
    doc = {
        "data": {"type": "t", "id": "1", "links": {"self": "/t/1"}},
        "actions": [{"name": "go", "href": "/go"}],
    }
    found = find_links(BASE, 200, [], orjson.dumps(doc), "application/json")
    assert [link.source for link in found] == ["/data/links/self", "/actions/0/href"]


def test_garbage_collection_is_back_on_afterwards() -> None:
    assert gc.isenabled()
    find_links(BASE, 200, [], HAL_DOC, None)
    assert gc.isenabled()
    gc_pause.switch(False)  # (as restwalk's start-up does)
    try:
        find_links(BASE, 200, [], HAL_DOC, None)
        assert not gc.isenabled()
    finally:
        gc_pause.switch(True)
    assert gc.isenabled()
    assert gc_pause.pausing() == 0


def test_a_large_search_leaves_its_links_to_the_oldest_generation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import explorer.core.hypermedia as hypermedia

    # A search that made more young objects than PROMOTE_AT hands them to the oldest
    # generation: the young collections due next do not examine them again.
    monkeypatch.setattr(hypermedia, "PROMOTE_AT", 0)
    doc = {"_links": {f"r{n}": {"href": f"/r/{n}"} for n in range(50)}}
    found = find_links(BASE, 200, [], orjson.dumps(doc), "application/hal+json")
    assert len(found) == 50
    assert gc.isenabled()
    young = {id(o) for o in gc.get_objects(0)} | {id(o) for o in gc.get_objects(1)}
    assert not any(id(link) in young for link in found)
    assert all(gc.is_tracked(link) for link in found)


@pytest.mark.parametrize(
    ("href", "templated", "expected"),
    [
        ("/customers{?name}", True, "http://h/customers{?name}"),
        ("orders/{id}", True, "http://h/a/orders/{id}"),
        ("../up/{id}", True, "http://h/up/{id}"),
        ("https://x.example/{a}", True, "https://x.example/{a}"),
        ("?fixed=1{&more}", True, "http://h/a/b?fixed=1{&more}"),
        ("page?{x}", True, "http://h/a/page?{x}"),
        ("{?page}", True, "http://h/a/b{?page}"),
        ("{&page}", True, "http://h/a/b{&page}"),
        ("{#section}", True, "http://h/a/b?q=1{#section}"),
        ("{/owner}", True, "http://h{/owner}"),
        ("{+url}", True, "{+url}"),
        ("{var}/x", True, "{var}/x"),
        ("/plain", True, "http://h/plain"),
        ("/a/./b/../c", False, "http://h/a/c"),
        ("", False, "http://h/a/b?q=1"),
        ("#frag", False, "http://h/a/b?q=1#frag"),
        ("//other.example/x", False, "http://other.example/x"),
        ("  /trimmed ", False, "http://h/trimmed"),
        # The root-relative fast path leaves to urljoin what it would change:
        ("/trailing \t", False, "http://h/trailing"),
        ("/x\u3000", False, "http://h/x"),  # a Unicode space, stripped as urljoin's caller does
        ("/x/../y", False, "http://h/y"),
        ("/a\\b", False, "http://h/a\\b"),
        ("/ok?q=/./#f", False, "http://h/ok?q=/./#f"),
        ("/\u00e9t\u00e9", False, "http://h/\u00e9t\u00e9"),
        ("http://[broken", False, "http://[broken"),
    ],
)
def test_resolution_rule(href: str, templated: bool, expected: str) -> None:
    assert Resolver("http://h/a/b?q=1#f").resolve(href, templated) == expected


def test_resolver_without_an_origin_and_with_base() -> None:
    assert Resolver("").resolve("/x") == "/x"
    assert Resolver("not a url").resolve("{/x}", True) == "{/x}"
    assert Resolver("http://h/a/").with_base("sub/").resolve("x") == "http://h/a/sub/x"


def test_fast_constructors_equal_the_dataclasses() -> None:
    values = {"rel": "next", "href": "http://h/2", "title": "Next", "source": "/x"}
    assert fast_link(**values) == Link(**values)  # type: ignore[arg-type]
    assert hash(fast_link(**values)) == hash(Link(**values))  # type: ignore[arg-type]
    assert fast_field(name="q", required=True) == FormField(name="q", required=True)
    attributes = (("rel-uri", "http://h/rels/x"),)
    assert plain_link("x", "http://h/", "/_links/x", attributes) == Link(
        rel="x", href="http://h/", source="/_links/x", attributes=attributes
    )
    with pytest.raises(TypeError):
        fast_link(rel="x")
    with pytest.raises(TypeError):
        fast_field(type="text")


def test_pointer_escaping() -> None:
    assert escape("a/b~c") == "a~1b~0c"
    assert escape("~1") == "~01"
    assert escape("plain") == "plain"


def test_a_failing_reader_costs_its_links_only(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import explorer.core.hypermedia as hypermedia

    def broken(*args: object) -> None:
        raise RuntimeError("parser bug")

    monkeypatch.setattr(hypermedia, "add_url_fields", broken)
    with caplog.at_level("DEBUG", logger="explorer.core.hypermedia"):
        found = find_links(BASE, 200, [("Link", "</up>; rel=up")], HAL_DOC, None)
    assert [link.rel for link in found] == ["up", "self"]
    assert "link finding stopped" in caplog.text
    assert gc.isenabled()


def test_a_body_that_is_not_json_says_why_its_links_are_missing() -> None:
    from explorer.core.hypermedia import search_links

    cut = search_links("http://h/", 200, [], b'{"_links": {', "application/hal+json")
    assert (
        cut.stopped
        == "the body is not valid JSON (unexpected end of data: line 1 column 13 (char 12))"
    )
    # orjson says "str is not valid UTF-8: surrogates not allowed" for any such byte:
    # the byte and where it is say more.
    latin1 = search_links("http://h/", 200, [], b'{"name": "Zo\xeb"}', "application/json")
    assert latin1.stopped == "the body is not valid JSON (not UTF-8: byte 0xeb at offset 12)"
    deep = search_links("http://h/", 200, [], b"[" * 2000 + b"]" * 2000, "application/json")
    assert deep.stopped is not None
    assert deep.stopped.startswith("the body is JSON nested deeper than 1,024 levels, more than")
    assert search_links("http://h/", 204, [], b"", "application/json").stopped is None
    assert search_links("http://h/", 200, [], b"{}", "application/json").stopped is None


def test_json_lines_sent_as_json_have_their_links_found_in_each_text() -> None:
    from explorer.core.hypermedia import search_links

    body = (
        b'{"id": 0, "_links": {"self": {"href": "/items/0"}}}\n'
        b'{"id": 1, "_links": {"self": {"href": "/items/1"}}}\n'
    )
    found = search_links("http://h/stream", 200, [], body, "application/json")
    assert found.stopped is None  # not "the body is not valid JSON"
    assert {link.href for link in found.links} >= {"http://h/items/0", "http://h/items/1"}


def test_a_body_over_the_parsed_size_is_not_read_and_says_so() -> None:
    from explorer.core.hypermedia import MAX_PARSED, search_links

    body = b"[" + b" " * MAX_PARSED + b"]"
    search = search_links("http://h/", 200, [("Link", "</x>; rel=next")], body, "application/json")
    assert [link.rel for link in search.links] == ["next"]
    assert search.stopped == "the body is larger than 32 MiB, so its links were not looked for"


def test_a_body_only_sniffed_as_json_or_xml_that_is_neither_says_nothing() -> None:
    from explorer.core.hypermedia import search_links

    for body in (b"[INFO] started", b"<<< conflict >>>"):
        assert search_links("http://h/", 200, [], body, "text/plain").stopped is None
        assert search_links("http://h/", 200, [], body, None).stopped is None
    # But an XML document declaring entities is refused whatever its type said.
    entities = b'<!DOCTYPE x [<!ENTITY a "b">]><x><link href="/a"/></x>'
    refused = search_links("http://h/", 200, [], entities, "text/plain")
    assert refused.stopped == "the XML declares entities (a DTD), which restwalk does not read"
