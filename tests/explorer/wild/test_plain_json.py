"""Plain JSON APIs as recorded (issue 25): one vocabulary, every paging style, guesses that hold.

Each test reads what a framework no one here wrote answered (tastypie, Django
Ninja, fastapi-pagination, flask-smorest, Litestar, fastapi-hypermodel,
json-server), through the same link finder and link choice as the CLI and the TUI.
"""

from __future__ import annotations

import orjson
import pytest

from explorer.cli import main
from explorer.core.http.client import Client
from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.items import page_items
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.vocabulary import PAGING_RELATIONS
from explorer.core.session.choice import choose_link, relations
from explorer.core.session.ordering import ordered
from tests.explorer.wild.recordings import NAMES, Recorded, recordings, replaying


def at(name: str, path: str) -> Recorded:
    return next(entry for entry in recordings(name) if entry.url.split("/", 3)[3] == path)


def links_at(name: str, path: str) -> tuple[Link, ...]:
    entry = at(name, path)
    found = find_links(entry.url, entry.status, entry.headers, entry.body, entry.media_type)
    return ordered(tuple(found))


def href(links: tuple[Link, ...], words: str) -> str | None:
    chosen = choose_link(links, words)
    return chosen.href if chosen is not None else None


def test_next_is_kept_when_it_is_also_last() -> None:
    # fastapi-pagination's page 2 of 3: next = last, prev = first; four links, not two.
    links = links_at("fastapi-pagination", "books?page=2")
    assert {(link.rel, link.href) for link in links if link.rel in PAGING_RELATIONS} == {
        ("first", "http://localhost:18603/books?page=1"),
        ("prev", "http://localhost:18603/books?page=1"),
        ("next", "http://localhost:18603/books?page=3"),
        ("last", "http://localhost:18603/books?page=3"),
    }


def test_tastypie_root_entries_are_named_by_their_keys() -> None:
    links = links_at("tastypie", "api/v1/")
    assert href(links, "book") == "http://localhost:18601/api/v1/book/"
    assert href(links, "author") == "http://localhost:18601/api/v1/author/"
    assert href(links, "describedby[title=book]") == "http://localhost:18601/api/v1/book/schema/"
    book = choose_link(links, "book")
    assert book is not None
    assert book.label == "list_endpoint"
    assert href(links, "list_endpoint") == "http://localhost:18601/api/v1/author/"  # the first
    assert href(links, "schema") == "http://localhost:18601/api/v1/author/schema/"


def test_tastypie_pages_items_and_their_own_urls() -> None:
    page = at("tastypie", "api/v1/book/?limit=10&offset=10")
    items = page_items(orjson.loads(page.body))
    assert items is not None
    assert [item["title"] for item in items] == [f"Book {n}" for n in range(11, 21)]  # type: ignore[index]
    links = links_at("tastypie", "api/v1/book/?limit=10&offset=10")
    assert href(links, "item") == "http://localhost:18601/api/v1/book/11/"
    assert href(links, "next") == "http://localhost:18601/api/v1/book/?limit=10&offset=20"
    assert href(links, "prev") == "http://localhost:18601/api/v1/book/?limit=10&offset=0"
    assert href(links, "previous") == href(links, "prev")
    item = links_at("tastypie", "api/v1/book/11/")
    own = choose_link(item, "self")
    assert own is not None
    assert (own.href, own.label) == ("http://localhost:18601/api/v1/book/11/", "resource_uri")
    assert href(item, "resource_uri") == own.href


@pytest.mark.parametrize(
    ("name", "path", "expected"),
    [
        ("tastypie", "api/v1/book/?limit=10&offset=20", "api/v1/book/?limit=10&offset=10"),
        (
            "django-ninja",
            "api/cursor/books?cursor=cD0xMQ%3D%3D",
            "api/cursor/books?cursor=cD0xMSZyPVRydWUmbz0x",
        ),
        ("drf-plain", "books/?page=3", "books/?page=2"),
        ("drf-hal-json", "books/?page=2", "books/"),
    ],
)
def test_previous_is_prev(name: str, path: str, expected: str) -> None:
    links = links_at(name, path)
    prev = choose_link(links, "prev")
    assert prev is not None
    assert prev.href.split("/", 3)[3] == expected
    assert prev.label == "previous"
    assert choose_link(links, "previous") is prev
    assert "prev (previous)" in relations(links)


@pytest.mark.parametrize(
    ("name", "path", "next_path", "made_from"),
    [
        (
            "flask-smorest",
            "books/?page=2",
            "books/?page=3",
            "X-Pagination's next_page: 3 (a page number: ?page=3)",
        ),
        (
            "litestar",
            "books",
            "books?limit=10&offset=10",
            "the body's offset 0, limit 10 and total 25 (an offset: ?offset=10)",
        ),
        (
            "litestar",
            "pages/books?current_page=2",
            "pages/books?current_page=3",
            "the body's current_page 2 of total_pages 3 (a page number: ?current_page=3)",
        ),
        (
            "litestar",
            "cursor/books?cursor=11",
            "cursor/books?cursor=21",
            "the body's cursor (a cursor: ?cursor=...)",
        ),
        (
            "django-ninja",
            "api/books",
            "api/books?limit=10&offset=10",
            "the body's count 25 and this page's offset 0 and limit 10 (an offset: ?offset=10)",
        ),
        (
            "django-ninja",
            "api/pages/books?page=1",
            "api/pages/books?page=2&page_size=10",
            "the body's count 25 in pages of 10 (this is page 1) (a page number: ?page=2)",
        ),
        (
            "fastapi-pagination",
            "pages/books?page=2",
            "pages/books?page=3",
            "the body's page 2 of pages 3 (a page number: ?page=3)",
        ),
        (
            "json-server-1",
            "books?_page=2&_per_page=10",
            "books?_page=3&_per_page=10",
            "the body's next: 3 (a page number: ?_page=3)",
        ),
    ],
)
def test_next_made_from_what_the_answer_says(
    name: str, path: str, next_path: str, made_from: str
) -> None:
    links = links_at(name, path)
    made = choose_link(links, "next")
    assert made is not None
    assert made.href.split("/", 3)[3] == next_path
    assert made.made_from == made_from
    assert not made.guess


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("flask-smorest", "books/?page=3"),
        ("litestar", "books?limit=10&offset=20"),
        ("litestar", "pages/books?current_page=3"),
        ("litestar", "cursor/books?cursor=21"),
        ("django-ninja", "api/books?limit=10&offset=20"),
        ("django-ninja", "api/pages/books?page=3&page_size=10"),
        ("django-ninja", "api/cursor/books?cursor=cD0yMQ%3D%3D"),
        ("fastapi-pagination", "pages/books?page=3"),
        ("fastapi-pagination", "books?page=3"),
        ("tastypie", "api/v1/book/?limit=10&offset=20"),
    ],
)
def test_the_last_page_has_no_next(name: str, path: str) -> None:
    assert choose_link(links_at(name, path), "next") is None


def test_no_item_is_guessed_under_a_nested_collection() -> None:
    # json-server's /authors/3/books lists books that live at /books/{id}.
    assert links_at("json-server-0.17", "authors/3/books") == ()
    flat = links_at("json-server-0.17", "books")
    assert href(flat, "item") == "http://localhost:18301/books/1"


def test_every_guessed_item_says_it_is_one_and_what_it_was_made_from() -> None:
    guessed = [
        link
        for name in NAMES
        for entry in recordings(name)
        for link in find_links(entry.url, entry.status, entry.headers, entry.body, entry.media_type)
        if link.rel == "item" and link.source.endswith("/id")
    ]
    assert len(guessed) > 100
    for link in guessed:
        assert link.guess
        assert link.made_from is not None
        assert link.made_from.startswith("the id ")


@pytest.mark.parametrize(
    ("name", "path", "count"),
    [
        ("tastypie", "api/v1/book/", 10),
        ("django-ninja", "api/books", 10),
        ("django-ninja", "api/cursor/books", 10),
        ("fastapi-pagination", "books", 10),
        ("flask-smorest", "books/?page=3", 5),
        ("litestar", "pages/books", 10),
        ("json-server-1", "books?_page=3&_per_page=10", 5),
    ],
)
def test_the_items_of_a_page(name: str, path: str, count: int) -> None:
    items = page_items(orjson.loads(at(name, path).body))
    assert items is not None
    assert len(items) == count


def test_one_url_two_relations_in_fastapi_hypermodel() -> None:
    links = links_at("fastapi-hypermodel", "items/item01")
    assert [(link.rel, link.href) for link in links] == [
        ("self", "http://localhost:18606/items/item01"),
        ("update", "http://localhost:18606/items/item01"),
    ]


def test_restwalk_links_shows_labels_places_and_what_was_made(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def listed(name: str, url: str) -> list[str]:
        monkeypatch.setattr(
            "explorer.cli.commands.links.client_from",
            lambda args: Client(transport=replaying(name)),
        )
        assert main(["links", url]) == 0
        return capsys.readouterr().out.splitlines()

    smorest = listed("flask-smorest", "http://localhost:18604/books/?page=2")
    assert (
        "next   GET  http://localhost:18604/books/?page=3  -  [header:X-Pagination, made from "
        "X-Pagination's next_page: 3 (a page number: ?page=3)]" in smorest
    )
    tastypie = listed("tastypie", "http://localhost:18601/api/v1/book/?limit=10&offset=20")
    assert tastypie[0].split() == [
        "prev", "(previous)", "GET", "http://localhost:18601/api/v1/book/?limit=10&offset=10",
        "-", "[/meta/previous]",
    ]  # fmt: skip
    guessed = listed("json-server-1", "http://localhost:18302/books?_page=3&_per_page=10")
    assert guessed[-1].endswith("[/data/4/id, guessed, made from the id 25 of an item of /books]")
