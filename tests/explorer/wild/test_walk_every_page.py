"""Every recorded framework walked from its root through its last page, every item read once.

Each framework's recordings are served again over a real socket (``served.py``),
and ``restwalk request ROOT --follow ... --follow next --all`` walks them as a
person would: the 25 books of the library come out once each, whatever the
framework's paging (links in the body or the ``Link`` header, page numbers,
offsets, cursors, ``X-Pagination``). httpbin is left out: its pages hold no items.
"""

from __future__ import annotations

import re

import orjson
import pytest

from explorer.cli import main
from tests.explorer.wild.served import Served

BOOKS = [f"Book {n}" for n in range(1, 26)]
_BOOK = re.compile(r"Book \d+")

WALKS = [
    # (fixture, recorded origin, start path, the --follow words before "next")
    ("drf-plain", "http://localhost:18101", "/", ["books"]),
    ("drf-jsonapi", "http://localhost:18102", "/", ["books"]),
    ("drf-hal-json", "http://localhost:18103", "/", ["books"]),
    ("eve", "http://localhost:18401", "/", ["child[title=books]"]),
    ("halson", "http://localhost:18201", "/", ["books"]),
    ("siren-writer", "http://localhost:18202", "/", ["books"]),
    ("odata-v4-server", "http://localhost:18203", "/odata/", ["Books"]),  # one page of 25
    ("json-server-0.17", "http://localhost:18301", "/books?_page=1&_limit=10", []),
    ("json-server-1", "http://localhost:18302", "/books?_page=1&_per_page=10", []),
    ("tastypie", "http://localhost:18601", "/api/v1/", ["book"]),
    ("django-ninja", "http://localhost:18602", "/api/books", []),
    ("django-ninja", "http://localhost:18602", "/api/pages/books?page=1", []),
    ("django-ninja", "http://localhost:18602", "/api/cursor/books", []),
    ("fastapi-pagination", "http://localhost:18603", "/books", []),
    ("fastapi-pagination", "http://localhost:18603", "/pages/books", []),
    ("fastapi-pagination", "http://localhost:18603", "/offsets/books", []),
    ("fastapi-pagination", "http://localhost:18603", "/headers/books", []),
    ("flask-smorest", "http://localhost:18604", "/books/", []),
    ("litestar", "http://localhost:18605", "/books", []),
    ("litestar", "http://localhost:18605", "/pages/books", []),
    ("litestar", "http://localhost:18605", "/cursor/books", []),
]


def walk(
    name: str, origin: str, start: str, words: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, list[object], str]:
    """Walk ``name``'s recordings served on a socket; the exit status, the items, stderr."""
    with Served(name, origin) as served:
        argv = ["request", "GET", served.url(start)]
        for word in [*words, "next"]:
            argv += ["--follow", word]
        code = main([*argv, "--all"])
    out, err = capsys.readouterr()
    return code, [orjson.loads(line) for line in out.splitlines()], err


def books_of(item: object) -> list[str]:
    """The book titles an item holds (``Book 7``), wherever its format puts them."""
    return _BOOK.findall(orjson.dumps(item).decode())


@pytest.mark.parametrize(
    ("name", "origin", "start", "words"), WALKS, ids=[f"{w[0]}:{w[2]}" for w in WALKS]
)
def test_every_item_is_read_once(
    name: str, origin: str, start: str, words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, items, err = walk(name, origin, start, words, capsys)
    assert code == 0
    # The walk says what it read and why it stopped, and nothing is left to read.
    assert re.fullmatch(r"restwalk: 25 items in \d+ pages?: the last has no 'next' link\n", err)
    # One book per item (a page printed whole would hold ten), each book once.
    titles = [set(books_of(item)) for item in items]
    assert all(len(held) == 1 for held in titles)
    assert sorted((held.pop() for held in titles), key=lambda t: int(t.split()[1])) == BOOKS


def test_fastapi_hypermodel_s_items(capsys: pytest.CaptureFixture[str]) -> None:
    code, items, _ = walk("fastapi-hypermodel", "http://localhost:18606", "/items", [], capsys)
    assert code == 0
    assert [item["id_"] for item in items] == ["item01", "item02", "item03", "item04"]  # type: ignore[index]
