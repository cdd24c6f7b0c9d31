"""Choosing a link by words: relation, title or name, position, short form of a URI relation."""

from __future__ import annotations

import pytest

from explorer.core.hypermedia.link import Link
from explorer.core.session import choice
from explorer.core.session.choice import Wanted, choose_link, parse_words, rel_labels, short_rel

LINKS = (
    Link(rel="next", href="http://h/a?page=2", source="/_links/next"),
    Link(rel="child", href="http://h/books", title="books", source="/_links/child/0"),
    Link(rel="child", href="http://h/authors", title="authors", source="/_links/child/1"),
    Link(rel="next", href="http://h/b?page=2", source="/_links/next/1"),
    Link(rel="http://x.io/rels/order-items", href="http://h/orders/42/items", source="/links/0"),
    Link(rel="http://x.io/rels/customer", href="http://h/c/1", source="/links/1"),
    Link(rel="http://y.io/rels/customer", href="http://h/c/2", source="/links/2"),
    Link(rel="related", href="http://h/au/1", name="author", source="/_links/related/author"),
    Link(rel="self", href="http://h/books/1", source="/_embedded/books/0/_links/self"),
    Link(rel="self", href="http://h/books/2", source="/_embedded/books/1/_links/self"),
)


def href(words: str) -> str | None:
    link = choose_link(LINKS, words)
    return link.href if link is not None else None


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("next", "http://h/a?page=2"),
        ("next#2", "http://h/b?page=2"),
        ("next#3", None),  # there are two
        ("child[title=books]", "http://h/books"),
        ("child[title=Authors]", "http://h/authors"),  # ignoring case
        ("child[title=auth]", "http://h/authors"),  # contained
        ('child[title="books"]', "http://h/books"),
        ("child[title=nothing]", None),
        ("child#2", "http://h/authors"),
        ("related[name=author]", "http://h/au/1"),
        ("order-items", "http://h/orders/42/items"),  # the short form of a URI relation
        ("customer", None),  # two relations end in 'customer': ambiguous
        ("http://y.io/rels/customer", "http://h/c/2"),
        ("item", "http://h/books/1"),  # no 'item': the first embedded self
        ("item#2", "http://h/books/2"),
        ("books", "http://h/books"),  # a title alone
        ("3", "http://h/authors"),  # link number 3
    ],
)
def test_choose(words: str, expected: str | None) -> None:
    assert href(words) == expected


def test_a_uri_relation_with_a_fragment_is_read_whole_first() -> None:
    links = (Link(rel="http://x.io/rels#2", href="http://h/two", source="/links/0"),)
    chosen = choose_link(links, "http://x.io/rels#2")
    assert chosen is not None
    assert chosen.href == "http://h/two"


@pytest.mark.parametrize(
    ("words", "wanted"),
    [
        ("next", Wanted("next")),
        ("next#2", Wanted("next", nth=2)),
        ("child[title=books]", Wanted("child", "title", "books")),
        ("child [ title = two words ] #3", Wanted("child", "title", "two words", 3)),
        ("item[name='x]y']", Wanted("item", "name", "x]y")),
        ("[title=books]", None),
        ("child[title=books]trailing", None),
    ],
)
def test_parse_words(words: str, wanted: Wanted | None) -> None:
    assert parse_words(words) == wanted


@pytest.mark.parametrize(
    ("rel", "short"),
    [
        ("http://x.io/rels/order-items", "order-items"),
        ("http://x.io/rels/order-items/", "order-items"),
        ("https://schema.org/author", "author"),
        ("http://x.io/vocab#next", "next"),
        ("rw:orders", "orders"),
        ("next", "next"),
    ],
)
def test_short_rel(rel: str, short: str) -> None:
    assert short_rel(rel) == short


def test_rel_labels_show_uri_relations_by_the_word_that_follows_them() -> None:
    links = (
        Link(rel="http://x.io/rels/order-items", href="http://h/1"),
        Link(rel="http://x.io/rels/customer", href="http://h/2"),
        Link(rel="http://y.io/rels/customer", href="http://h/3"),
        Link(rel="http://x.io/rels/next", href="http://h/4"),
        Link(rel="next", href="http://h/5"),
        Link(rel="rw:orders", href="http://h/6"),
    )
    assert rel_labels(links) == [
        "order-items",
        "http://x.io/rels/customer",  # two relations end in 'customer': both shown whole
        "http://y.io/rels/customer",
        "http://x.io/rels/next",  # 'next' would name the IANA relation
        "next",
        "rw:orders",
    ]
    # Each label, typed, chooses its own link.
    for link, label in zip(links, rel_labels(links), strict=True):
        assert choose_link(links, label) == link


def test_choosing_looks_at_each_links_source_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A page's hint asks for its ``next`` on every page shown: the links are told apart,
    the response's own from those of what it embeds, once (they were four times, a
    pattern searched in each link's source each time, when no ``next`` was found)."""
    looked: list[str] = []
    seen = choice.is_embedded

    def counted(link: Link) -> bool:
        looked.append(link.source)
        return seen(link)

    monkeypatch.setattr(choice, "is_embedded", counted)
    links = [
        Link(rel="self", href="http://x.test/", source="/_links/self"),
        Link(rel="item", href="http://x.test/1", source="/_embedded/items/0/_links/self"),
        Link(rel="up", href="http://x.test/up", source="/_links/up", title="Up"),
    ]
    assert choose_link(links, "next") is None
    assert choose_link(links, "Up") is links[2]
    assert len(looked) == 2 * len(links)
