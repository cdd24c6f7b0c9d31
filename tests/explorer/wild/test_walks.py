"""A walk from each framework's root reaches page 2 and an item, with ``--follow`` alone.

``restwalk request`` runs as a person would type it, its client on a transport
that replays the recordings (no network): each walk names links only by
relation, title or the short forms restwalk documents.
"""

from __future__ import annotations

import orjson
import pytest

from explorer.cli import main
from explorer.core.http.client import Client
from tests.explorer.wild.recordings import replaying

WALKS = [
    # (fixture, start, the --follow words, the URLs the walk visits after the start)
    (
        "drf-plain",
        "http://localhost:18101/",
        ["books", "next", "item"],
        [
            "http://localhost:18101/books/",
            "http://localhost:18101/books/?page=2",
            "http://localhost:18101/books/11/",
        ],
    ),
    (
        "drf-plain",
        "http://localhost:18101/authors/?limit=2",
        ["next", "previous", "item", "books#3"],
        [
            "http://localhost:18101/authors/?limit=2&offset=2",
            "http://localhost:18101/authors/?limit=2",
            "http://localhost:18101/authors/1/",
            "http://localhost:18101/books/11/",
        ],
    ),
    (
        "drf-jsonapi",
        "http://localhost:18102/",
        ["books", "next", "item", "author"],
        [
            "http://localhost:18102/books/",
            "http://localhost:18102/books/?page%5Bnumber%5D=2",
            "http://localhost:18102/books/11/",
            "http://localhost:18102/books/11/author",
        ],
    ),
    (
        "drf-hal-json",
        "http://localhost:18103/",
        ["books", "next", "item", "author"],
        [
            "http://localhost:18103/books/",
            "http://localhost:18103/books/?page=2",
            "http://localhost:18103/books/11/",
            "http://localhost:18103/authors/1/",
        ],
    ),
    (
        "eve",
        "http://localhost:18401/",
        ["child[title=books]", "next", "item"],
        [
            "http://localhost:18401/books",
            "http://localhost:18401/books?page=2",
            "http://localhost:18401/books/6b15239a9958615f38b10426",
        ],
    ),
    (
        "json-server-0.17",
        "http://localhost:18301/books?_page=1&_limit=10",
        ["next", "item"],
        [
            "http://localhost:18301/books?_page=2&_limit=10",
            "http://localhost:18301/books/11",
        ],
    ),
    (
        "json-server-1",
        "http://localhost:18302/books?_page=1&_per_page=10",
        ["next", "item"],
        [
            "http://localhost:18302/books?_page=2&_per_page=10",
            "http://localhost:18302/books/11",
        ],
    ),
    (
        "json-server-1",
        "http://localhost:18302/",
        ["books", "item#11"],
        ["http://localhost:18302/books", "http://localhost:18302/books/11"],
    ),
    (
        "halson",
        "http://localhost:18201/",
        ["books", "next", "item", "collection"],
        [
            "http://localhost:18201/books",
            "http://localhost:18201/books?page=2",
            "http://localhost:18201/books/11",
            "http://localhost:18201/books",
        ],
    ),
    (
        "siren-writer",
        "http://localhost:18202/",
        ["books", "next", "item", "author"],
        [
            "http://localhost:18202/books",
            "http://localhost:18202/books?page=2",
            "http://localhost:18202/books/11",
            "http://localhost:18202/authors/1",
        ],
    ),
    (
        "siren-writer",
        "http://localhost:18202/authors/1",
        ["book[title=Book 11]"],
        ["http://localhost:18202/books/11"],
    ),
    (
        "odata-v4-server",
        "http://localhost:18203/odata/",
        ["Books", "item#11"],
        ["http://localhost:18203/odata/Books", "http://localhost:18203/odata/Books(11)"],
    ),
    (
        "tastypie",
        "http://localhost:18601/api/v1/",
        ["book", "next", "item", "author", "self"],
        [
            "http://localhost:18601/api/v1/book/",
            "http://localhost:18601/api/v1/book/?limit=10&offset=10",
            "http://localhost:18601/api/v1/book/11/",
            "http://localhost:18601/api/v1/author/1/",
            "http://localhost:18601/api/v1/author/1/",
        ],
    ),
    (
        "tastypie",
        "http://localhost:18601/api/v1/book/?limit=10&offset=20",
        ["previous", "next"],
        [
            "http://localhost:18601/api/v1/book/?limit=10&offset=10",
            "http://localhost:18601/api/v1/book/?limit=10&offset=20",
        ],
    ),
    (
        "django-ninja",
        "http://localhost:18602/api/books",
        ["next", "item"],
        [
            "http://localhost:18602/api/books?limit=10&offset=10",
            "http://localhost:18602/api/books/11",
        ],
    ),
    (
        "fastapi-pagination",
        "http://localhost:18603/books",
        ["next", "item"],
        ["http://localhost:18603/books?page=2", "http://localhost:18603/books/11"],
    ),
    (
        "flask-smorest",
        "http://localhost:18604/books/",
        ["next", "item"],
        ["http://localhost:18604/books/?page=2", "http://localhost:18604/books/11"],
    ),
    (
        "litestar",
        "http://localhost:18605/books",
        ["next", "item"],
        ["http://localhost:18605/books?limit=10&offset=10", "http://localhost:18605/books/11"],
    ),
    (
        "fastapi-hypermodel",
        "http://localhost:18606/people",
        ["people", "item"],
        ["http://localhost:18606/people/person01", "http://localhost:18606/items/item01"],
    ),
    (
        "httpbin",
        "http://localhost:18501/links/10/0",
        ["related[title=1]"],
        ["http://localhost:18501/links/10/1"],
    ),
    (
        # From the home page: its /links/:n entry redirects to page 0; page 1 is the next.
        "httpbin",
        "http://localhost:18501/",
        ["related[title=/links/:n]", "related[title=1]"],
        ["http://localhost:18501/links/10/0", "http://localhost:18501/links/10/1"],
    ),
]


@pytest.mark.parametrize(
    ("name", "start", "words", "visits"),
    WALKS,
    ids=[f"{walk[0]}:{' '.join(walk[2])}" for walk in WALKS],
)
def test_walk(
    name: str,
    start: str,
    words: list[str],
    visits: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(
        "explorer.cli.commands.request.client_from",
        lambda args: Client(transport=replaying(name)),
    )
    argv = ["request", "GET", start, "--json"]
    for word in words:
        argv += ["--follow", word]
    code = main(argv)
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    urls = [orjson.loads(line)["response"]["url"] for line in out.splitlines()]
    assert urls == [start, *visits]
