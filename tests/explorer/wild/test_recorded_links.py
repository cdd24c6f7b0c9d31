"""Every recorded framework's links are found, with the framework's own relation names.

The fixtures are real answers of servers no one here wrote (see recordings.py):
Django REST Framework, djangorestframework-jsonapi, drf-hal-json, Eve, json-server
0.17 and 1.x, httpbin, express with halson and with siren-writer, odata-v4-server,
django-tastypie, Django Ninja, fastapi-pagination, flask-smorest, Litestar and
fastapi-hypermodel.
"""

from __future__ import annotations

import orjson
import pytest

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import Link
from explorer.core.session.choice import choose_link
from explorer.core.session.ordering import ordered
from tests.explorer.wild.recordings import NAMES, Recorded, recordings

CASES = [
    pytest.param(entry, id=f"{name}:{entry.url.split('/', 3)[3] or '/'}")
    for name in NAMES
    for entry in recordings(name)
]


def found(entry: Recorded) -> tuple[Link, ...]:
    links = find_links(entry.url, entry.status, entry.headers, entry.body, entry.media_type)
    return ordered(tuple(links))


@pytest.mark.parametrize("entry", CASES)
def test_the_links_a_person_sees_are_found(entry: Recorded) -> None:
    assert [(link.rel, link.href) for link in found(entry)] == list(entry.links)


def test_every_framework_is_recorded() -> None:
    assert set(NAMES) == {
        "drf-plain",
        "drf-jsonapi",
        "drf-hal-json",
        "eve",
        "json-server-0.17",
        "json-server-1",
        "httpbin",
        "halson",
        "siren-writer",
        "odata-v4-server",
        "tastypie",
        "django-ninja",
        "fastapi-pagination",
        "flask-smorest",
        "litestar",
        "fastapi-hypermodel",
    }


def entry_at(name: str, path: str) -> Recorded:
    return next(e for e in recordings(name) if e.url.split("/", 3)[3] == path)


def chosen_href(links: tuple[Link, ...], words: str) -> str | None:
    chosen = choose_link(links, words)
    return chosen.href if chosen is not None else None


# --- the misses the issue listed, each on its recording ---------------------------------


def test_drf_hal_json_string_links_and_list_embedded() -> None:
    links = found(entry_at("drf-hal-json", "books/?page=2"))
    own = {(link.rel, link.href) for link in links if link.source.startswith("/_links/")}
    assert own == {
        ("self", "http://localhost:18103/books/?page=2"),
        ("next", "http://localhost:18103/books/?page=3"),
        ("prev", "http://localhost:18103/books/"),
    }
    assert chosen_href(links, "previous") == "http://localhost:18103/books/"
    items = [link for link in links if link.source.startswith("/_embedded/")]
    assert len([link for link in items if link.rel == "self"]) == 10
    assert len([link for link in items if link.rel == "author"]) == 10
    item = found(entry_at("drf-hal-json", "books/11/"))
    assert {(link.rel, link.href) for link in item} == {
        ("self", "http://localhost:18103/books/11/"),
        ("author", "http://localhost:18103/authors/1/"),
    }


def test_repeated_bare_urls_are_kept_per_item() -> None:
    links = found(entry_at("drf-plain", "books/?page=2"))
    authors = [link for link in links if link.rel == "author"]
    # Books 11 to 20 have authors 1 to 5 twice: every book keeps its author link.
    assert [link.source for link in authors] == [f"/results/{i}/author" for i in range(10)]
    assert [link.href.rsplit("/", 2)[1] for link in authors] == [str(i % 5 + 1) for i in range(10)]


@pytest.mark.parametrize(
    ("name", "path", "item"),
    [
        ("drf-plain", "books/?page=2", "http://localhost:18101/books/11/"),
        ("eve", "books?page=2", "http://localhost:18401/books/6b15239a9958615f38b10426"),
        (
            "odata-v4-server",
            "odata/Books?$top=10&$skip=10",
            "http://localhost:18203/odata/Books(11)",
        ),
    ],
)
def test_framework_item_lists_are_embedded_items(name: str, path: str, item: str) -> None:
    links = found(entry_at(name, path))
    assert chosen_href(links, "item") == item


def test_jsonapi_item_and_self_prefer_the_resource_link() -> None:
    page = found(entry_at("drf-jsonapi", "books/?page%5Bnumber%5D=2"))
    assert chosen_href(page, "item") == "http://localhost:18102/books/11/"
    book = found(entry_at("drf-jsonapi", "books/11/"))
    assert chosen_href(book, "self") == "http://localhost:18102/books/11/"
    assert chosen_href(book, "author") == "http://localhost:18102/books/11/author"


def test_odata_service_document_names_entity_sets() -> None:
    links = found(entry_at("odata-v4-server", "odata/"))
    assert [(link.rel, link.href) for link in links if link.rel != "context"] == [
        ("Authors", "http://localhost:18203/odata/Authors"),
        ("Books", "http://localhost:18203/odata/Books"),
    ]


def test_eve_relative_hrefs_are_read_against_the_api_root() -> None:
    links = found(entry_at("eve", "books/6b15239a9958615f38b10426"))
    by_rel = {link.rel: link for link in links}
    assert by_rel["self"].href == "http://localhost:18401/books/6b15239a9958615f38b10426"
    assert by_rel["collection"].href == "http://localhost:18401/books"
    assert by_rel["related"].name == "author"
    assert by_rel["related"].href == "http://localhost:18401/authors/6b15239a9958615f38b10417"


def test_scp_style_git_address_is_not_a_link() -> None:
    # GitHub's repository objects: clone_url is a URL, ssh_url is not.
    body = orjson.dumps(
        {
            "clone_url": "https://github.com/octocat/Hello-World.git",
            "ssh_url": "git@github.com:octocat/Hello-World.git",
        }
    )
    links = find_links("https://api.github.com/repos/octocat/Hello-World", 200, [], body)
    assert [(link.rel, link.href) for link in links] == [
        ("clone", "https://github.com/octocat/Hello-World.git")
    ]
