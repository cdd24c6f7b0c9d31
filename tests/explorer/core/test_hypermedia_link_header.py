"""RFC 8288 Link header fields (and RFC 9652 Link-Template) through find_links."""

from __future__ import annotations

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.link_header import decode_ext_value, parse_link_values

BASE = "http://api.example.com/customers/?offset=10"


def links_of(*values: str, name: str = "Link") -> list[Link]:
    return find_links(BASE, 200, [(name, value) for value in values], b"")


def test_every_parameter_several_rels_quoted_commas_and_semicolons() -> None:
    value = (
        '</customers/?offset=20>; rel="next last"; title="Next, then; more"; '
        'type="application/hal+json"; hreflang=en; anchor="/customers/"; media=screen; '
        "ext=1; flag, "
        "<https://cdn.example.com/a,b;c.css>; rel=Stylesheet; "
        "title*=UTF-8'de'n%C3%A4chste%20Seite; title=\"plain\", "
        '<relative>; rel="related"; rel="ignored"; title="first"; title="second", '
        '<http://example.com/x>; rel="http://example.com/rels/Custom"'
    )
    assert links_of(value) == [
        Link(
            rel=rel,
            href="http://api.example.com/customers/?offset=20",
            title="Next, then; more",
            media_type="application/hal+json",
            source="header:Link",
            hreflang="en",
            anchor="http://api.example.com/customers/",
            attributes=(("media", "screen"), ("ext", "1"), ("flag", "")),
        )
        for rel in ("next", "last")
    ] + [
        Link(
            rel="stylesheet",
            href="https://cdn.example.com/a,b;c.css",
            title="nächste Seite",
            source="header:Link",
        ),
        Link(
            rel="related",
            href="http://api.example.com/customers/relative",
            title="first",
            source="header:Link",
        ),
        Link(
            rel="http://example.com/rels/Custom",
            href="http://example.com/x",
            source="header:Link",
        ),
    ]


def test_several_fields_keep_wire_order_and_duplicates() -> None:
    found = find_links(
        BASE,
        200,
        [
            ("link", "</a>; rel=next"),
            ("Content-Type", "text/plain"),
            ("LINK", "</b>; rel=next, </b>; rel=next"),
        ],
        b"",
    )
    assert [(link.rel, link.href) for link in found] == [
        ("next", "http://api.example.com/a"),
        ("next", "http://api.example.com/b"),
        ("next", "http://api.example.com/b"),
    ]


def test_link_without_rel_is_related_and_escapes_in_quoted_strings() -> None:
    assert links_of(r'</x>; title="say \"hi\", ok"') == [
        Link(
            rel="related",
            href="http://api.example.com/x",
            title='say "hi", ok',
            source="header:Link",
        )
    ]


def test_malformed_parts_are_skipped_and_the_rest_kept() -> None:
    value = (
        'garbage; rel=next, </good>; rel="up"; junk here; title=T, '
        '"<quoted>"; rel=x, </unterminated>; rel="next, </lost>; rel=lost'
    )
    assert links_of(value) == [
        Link(rel="up", href="http://api.example.com/good", title="T", source="header:Link"),
        Link(rel="related", href="http://api.example.com/unterminated", source="header:Link"),
    ]
    assert links_of("<never-closed; rel=next") == []
    assert links_of("") == []
    assert links_of(", , ,") == []


def test_bad_title_star_falls_back_to_title() -> None:
    found = links_of("</x>; rel=a; title*=KOI8-R''%C1; title=plain")
    assert found[0].title == "plain"


def test_link_template_header_is_templated() -> None:
    assert links_of('</users/{user}{?fields}>; rel="user"', name="Link-Template") == [
        Link(
            rel="user",
            href="http://api.example.com/users/{user}{?fields}",
            templated=True,
            source="header:Link-Template",
        )
    ]


def test_parse_link_values_keeps_raw_parameters() -> None:
    assert parse_link_values('<a>;rel=next;x="1,2", <b> ; rel = "prev" ') == [
        ("a", [("rel", "next"), ("x", "1,2")]),
        ("b", [("rel", "prev")]),
    ]


def test_decode_ext_value() -> None:
    assert decode_ext_value("UTF-8'en'%E2%82%AC%20rates") == "€ rates"
    assert decode_ext_value("iso-8859-1''%A3") == "£"
    assert decode_ext_value("UTF-8'en'%FF") is None
    assert decode_ext_value("no quotes") is None
    assert decode_ext_value("utf-16''%00") is None


def test_a_relation_named_twice_in_one_value_counts_once() -> None:
    assert [link.rel for link in links_of('</a>; rel="next NEXT up next"')] == ["next", "up"]
