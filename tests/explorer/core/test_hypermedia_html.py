"""HTML pages through find_links: anchors, <link>, forms, <base>, bad markup."""

from __future__ import annotations

import pytest

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import FormField, Link

BASE = "http://shop.example.com/catalog/page.html"
FORM = "application/x-www-form-urlencoded"

PAGE = b"""<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Catalog</title>
  <base href="http://cdn.example.com/base/">
  <link rel="stylesheet" href="style.css" type="text/css" media="screen">
  <link rel="Alternate next" href="/catalog?page=2" hreflang="en" title="Page 2">
</head>
<body>
  <nav>
    <a href="/">Home</a>
    <a href="products/1" rel="item" title="ignored when there is text">Tea &amp; <b>Cake</b></a>
    <a name="no-href">not a link</a>
    <a href="#top" title="Back to top"><img src="up.png" alt=""></a>
  </nav>
  <form id="search" action="/search" method="get">
    <label for="q">Search for</label>
    <input id="q" name="q" type="search" placeholder="tea" required>
    <select name="sort">
      <option value="price">Price<option value="name" selected>Name</option>
    </select>
    <input type="submit" value="Go">
  </form>
  <form name="order" method="POST" enctype="multipart/form-data" title="Order">
    <input type="hidden" name="csrf" value="t0k3n">
    <label>Quantity <input name="quantity" type="number" value="1"></label>
    <input type="radio" name="size" value="S">
    <input type="radio" name="size" value="M" checked>
    <input type="checkbox" name="gift" value="yes">
    <input type="checkbox" name="wrap" value="yes" checked>
    <textarea name="note" title="A note">Leave at the door</textarea>
    <button type="submit" name="go">Order</button>
  </form>
  <form method="dialog"><input name="x"></form>
  <p>Broken <div><a href="/unclosed">unclosed</div></p></span>
  <area href="/map" alt="Map">
</body>
</html>
"""


def test_page_with_base_links_and_forms() -> None:
    cdn = "http://cdn.example.com"
    found = find_links(BASE, 200, [], PAGE, "text/html")
    assert found == [
        Link(
            rel="stylesheet",
            href=f"{cdn}/base/style.css",
            media_type="text/css",
            source="html/head/link[1]",
            attributes=(("media", "screen"),),
        ),
        *[
            Link(
                rel=rel,
                href=f"{cdn}/catalog?page=2",
                title="Page 2",
                source="html/head/link[2]",
                hreflang="en",
            )
            for rel in ("alternate", "next")
        ],
        Link(rel="related", href=f"{cdn}/", title="Home", source="html/body/nav/a[1]"),
        Link(
            rel="item",
            href=f"{cdn}/base/products/1",
            title="Tea & Cake",
            source="html/body/nav/a[2]",
        ),
        Link(
            rel="related",
            href=f"{cdn}/base/#top",
            title="Back to top",
            source="html/body/nav/a[4]",
        ),
        Link(
            rel="form",
            href=f"{cdn}/search",
            source="html/body/form[1]",
            fields=(
                FormField(name="q", type="search", required=True, prompt="Search for"),
                FormField(name="sort", type="select", value="name", options=("price", "name")),
            ),
            content_type=FORM,
            name="search",
        ),
        Link(
            rel="form",
            href=BASE,
            method="POST",
            title="Order",
            source="html/body/form[2]",
            fields=(
                FormField(name="csrf", type="hidden", value="t0k3n"),
                FormField(name="quantity", type="number", value="1", prompt="Quantity"),
                FormField(name="size", type="radio", value="M", options=("S", "M")),
                FormField(name="gift", type="checkbox"),
                FormField(name="wrap", type="checkbox", value="yes"),
                FormField(name="note", type="textarea", value="Leave at the door", prompt="A note"),
            ),
            content_type="multipart/form-data",
            name="order",
        ),
        Link(
            rel="related", href=f"{cdn}/unclosed", title="unclosed", source="html/body/p/div/a[1]"
        ),
        Link(rel="related", href=f"{cdn}/map", source="html/body/area[1]"),
    ]


def test_fragment_without_html_element_and_sniffing() -> None:
    body = b"<!doctype html><p><a href='a'>A</a><p><a href='b'>B</a>"
    assert find_links("http://h/x/", 200, [], body, None) == [
        Link(rel="related", href="http://h/x/a", title="A", source="p/a[1]"),
        Link(rel="related", href="http://h/x/b", title="B", source="p[2]/a[1]"),
    ]


def test_bad_bytes_and_garbage_do_not_raise() -> None:
    body = b"<a href='/\xff\xfe'>\x00<<<</a><form action=><input name=a></form><![CDATA[x"
    found = find_links("http://h/", 200, [], body, "text/html")
    assert [(link.rel, link.href) for link in found] == [
        ("related", "http://h/\ufffd\ufffd"),
        ("form", "http://h/"),
    ]
    assert found[1].fields == (FormField(name="a"),)


def test_tag_soup_nesting_is_flattened_past_the_depth_cap() -> None:
    body = b"<div>" * 20000 + b"<a href='/deep'>deep</a>" + b"</span>" * 20000
    (found,) = find_links("http://h/", 200, [], body, "text/html")
    assert found.href == "http://h/deep"
    assert found.source == "/".join(["div"] * 511 + ["a[1]"])


def test_radio_groups_stay_one_field_each() -> None:
    radios = b"".join(b"<input type=radio name=r%d value=%d>" % (i % 3, i) for i in range(30))
    (form,) = find_links("http://h/", 200, [], b"<form>" + radios + b"</form>", "text/html")
    assert [(f.name, len(f.options)) for f in form.fields] == [("r0", 10), ("r1", 10), ("r2", 10)]


def test_a_relation_named_twice_counts_once() -> None:
    found = find_links("http://h/", 200, [], b'<a rel="up Up" href="/x">x</a>', "text/html")
    assert [link.rel for link in found] == ["up"]


def test_a_page_cut_short_by_the_link_bound_says_so() -> None:
    from explorer.core.hypermedia import search_links

    body = b"".join(b"<a href='/%d'>%d</a>" % (i, i) for i in range(20))
    search = search_links("http://h/", 200, [], body, "text/html", max_links=5)
    assert (len(search.links), search.stopped) == (5, "the search stops at 5 links")


def test_a_parser_failure_keeps_the_links_before_and_says_why(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """html.parser is tolerant, but whatever it raises one day must not pass in silence."""
    from explorer.core.hypermedia import html, search_links

    feed = html._LinkParser.feed

    def failing_feed(parser: html._LinkParser, data: str) -> None:
        if "/late" in data:
            raise AssertionError("unknown status keyword")
        feed(parser, data)

    monkeypatch.setattr(html, "_FEED", 16)
    monkeypatch.setattr(html._LinkParser, "feed", failing_feed)
    body = b"<a href='/a'>a</a>" + b" " * 16 + b"<a href='/late'>late</a>"
    search = search_links("http://h/", 200, [], body, "text/html")
    assert [link.href for link in search.links] == ["http://h/a"]
    assert search.stopped == (
        "the HTML parser gave up (unknown status keyword): the links after were not read"
    )
