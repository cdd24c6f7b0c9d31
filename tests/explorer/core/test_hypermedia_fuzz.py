"""find_links never raises, whatever the body, header or media type."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.core.hypermedia import JSON_FORMATS, find_links, search_links
from explorer.core.hypermedia.link import Link

BASE = "http://127.0.0.1:8000/a/b?c=d"
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Keys the formats look for, so random documents reach their code.
KEYS = st.sampled_from(
    [
        "_links", "_embedded", "_templates", "href", "templated", "curies", "name", "rel",
        "links", "data", "included", "relationships", "related", "self", "meta", "actions",
        "entities", "fields", "method", "type", "value", "collection", "items", "queries",
        "template", "@id", "@graph", "@context", "hydra:view", "member", "operation", "search",
        "@odata.context", "@odata.nextLink", "X@odata.navigationLink", "url", "avatar_url",
        "properties", "options", "inline", "target", "jsonapi", "errors", "class", "title",
    ]
)  # fmt: skip
URLISH = st.sampled_from(
    ["/x", "http://h/y", "{?q}", "a{/b}", "/{", "}", "", "../..", "//h", "http://[::1", "?p=1"]
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | URLISH | st.text(),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(KEYS | st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=30,
)
MEDIA_TYPES = st.sampled_from(
    [
        None, "application/json", "application/hal+json", "application/vnd.api+json",
        "application/vnd.siren+json", "application/vnd.collection+json", "application/ld+json",
        "text/html", "application/xml", "application/atom+xml", "text/plain", "image/png", "",
    ]
)  # fmt: skip


def check(found: list[Link]) -> None:
    assert isinstance(found, list)
    assert all(isinstance(link, Link) and isinstance(link.href, str) for link in found)


@FUZZ
@given(doc=JSON, media_type=MEDIA_TYPES)
def test_any_json(doc: object, media_type: str | None) -> None:
    # The stdlib encoder: it takes any int and lone surrogates (orjson refuses both).
    check(find_links(BASE, 200, [], json.dumps(doc).encode(), media_type))


@FUZZ
@given(doc=JSON, media_type=MEDIA_TYPES, max_links=st.integers(min_value=0, max_value=6))
def test_any_json_within_the_link_bound(
    doc: object, media_type: str | None, max_links: int
) -> None:
    body = json.dumps(doc).encode()
    search = search_links(
        BASE, 200, [("Link", "<x>; rel=y")], body, media_type, max_links=max_links
    )
    check(search.links)
    assert len(search.links) <= max_links
    # Stopped by the bound exactly when there were more links (a JSON body sent as XML
    # is not read, and says so in another way).
    assert (search.stopped == f"the search stops at {max_links:,} links") == (
        len(find_links(BASE, 200, [("Link", "<x>; rel=y")], body, media_type)) > max_links
    )


@FUZZ
@given(doc=JSON)
def test_every_json_reader_directly(doc: object) -> None:
    from explorer.core.hypermedia.collector import Collector
    from explorer.core.hypermedia.resolve import Resolver

    for _, sniff, read in JSON_FORMATS:
        sniff(doc)
        read(doc, Collector(Resolver(BASE)))


TAGS = st.sampled_from(
    ["<a href='", "<link rel=", "<form", "<input name=x", "<select name=s>", "<option",
     "</a>", "</form>", "<base href=", "<textarea name=t>", "<label for=", ">", "'", '"', "<",
     "<!--", "<![CDATA[", "&amp;", "&#x", "<p>", "</div>", " method=post", "/>"]
)  # fmt: skip
MARKUP = st.lists(TAGS | st.text(max_size=10), max_size=30).map("".join)


@FUZZ
@given(text=MARKUP, media_type=st.sampled_from(["text/html", None]))
def test_any_html(text: str, media_type: str | None) -> None:
    check(find_links(BASE, 200, [], text.encode("utf-8", "surrogatepass"), media_type))


XML_PARTS = st.sampled_from(
    ["<feed>", "</feed>", "<link href='/x'", " rel='next'", "/>", "<entry>", "</entry>",
     "<?xml version='1.0'?>", "<!DOCTYPE x [<!ENTITY e 'v'>]>", "&e;", "xml:base='/b/'",
     "<action name='a' href='/a'>", "<field name='f'/>", "</action>", "<link>", "</link>",
     "http://h/", ">", "<"]
)  # fmt: skip
XML_TEXT = st.lists(XML_PARTS | st.text(max_size=10), max_size=30).map("".join)


@FUZZ
@given(text=XML_TEXT, media_type=st.sampled_from(["application/xml", "application/atom+xml"]))
def test_any_xml(text: str, media_type: str) -> None:
    check(find_links(BASE, 200, [], text.encode("utf-8", "surrogatepass"), media_type))


HEADER_PARTS = st.sampled_from(
    ["<", ">", "/x", ";", ",", "rel=", '"', "\\", "next last", "title*=", "UTF-8''%E2",
     "anchor=", " ", "=", "{?q}", "http://[", "%"]
)  # fmt: skip
HEADER_TEXT = st.lists(HEADER_PARTS | st.text(max_size=8), max_size=25).map("".join)


@FUZZ
@given(
    value=HEADER_TEXT,
    name=st.sampled_from(["Link", "Location", "Content-Location", "Link-Template"]),
    status=st.integers(min_value=100, max_value=599),
)
def test_any_header(value: str, name: str, status: int) -> None:
    check(find_links(BASE, status, [(name, value)], b""))


@FUZZ
@given(url=st.text(max_size=30), body=st.binary(max_size=200), media_type=MEDIA_TYPES)
def test_any_url_and_bytes(url: str, body: bytes, media_type: str | None) -> None:
    check(find_links(url, 200, [("Link", "<x>; rel=y"), ("Location", "z")], body, media_type))
