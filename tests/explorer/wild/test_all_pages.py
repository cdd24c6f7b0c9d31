"""``restwalk request URL --follow next --all``: every page's items as JSON lines.

On the recorded frameworks (replayed, no network): each prints the 25 books of
its three pages, in order, whatever its paging style (links in the body or in a
Link header, page numbers, offsets and a total, cursors, X-Pagination), and one
line on stderr saying how many items it read and why it stopped; ``--max-pages``
bounds the walk, and the answer saying there are more, it exits 1; a page that is
not JSON is a clear one-line error.
"""

from __future__ import annotations

import orjson
import pytest

from explorer.cli import main
from explorer.core.http.client import Client
from tests.explorer.wild.recordings import replaying

TITLES = [f"Book {n}" for n in range(1, 26)]


def run(
    name: str, argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(
        "explorer.cli.commands.request.client_from",
        lambda args: Client(transport=replaying(name)),
    )
    code = main(["request", "GET", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("name", "argv"),
    [
        ("drf-plain", ["http://localhost:18101/books/", "--follow", "next", "--all"]),
        (
            "drf-plain",
            ["http://localhost:18101/", "--follow", "books", "--follow", "next", "--all"],
        ),
        ("halson", ["http://localhost:18201/", "--follow", "books", "--follow", "next", "--all"]),
        (
            "json-server-0.17",
            ["http://localhost:18301/books?_page=1&_limit=10", "--follow", "next", "--all"],
        ),
        (
            "json-server-1",
            ["http://localhost:18302/books?_page=1&_per_page=10", "--follow", "next", "--all"],
        ),
        (
            "tastypie",
            ["http://localhost:18601/api/v1/", "--follow", "book", "--follow", "next", "--all"],
        ),
        ("django-ninja", ["http://localhost:18602/api/books", "--follow", "next", "--all"]),
        (
            "django-ninja",
            ["http://localhost:18602/api/pages/books?page=1", "--follow", "next", "--all"],
        ),
        ("django-ninja", ["http://localhost:18602/api/cursor/books", "--follow", "next", "--all"]),
        ("fastapi-pagination", ["http://localhost:18603/books", "--follow", "next", "--all"]),
        (
            "fastapi-pagination",
            ["http://localhost:18603/pages/books", "--follow", "next", "--all"],
        ),
        (
            "fastapi-pagination",
            ["http://localhost:18603/offsets/books", "--follow", "next", "--all"],
        ),
        (
            "fastapi-pagination",
            ["http://localhost:18603/headers/books", "--follow", "next", "--all"],
        ),
        ("flask-smorest", ["http://localhost:18604/books/", "--follow", "next", "--all"]),
        ("litestar", ["http://localhost:18605/books", "--follow", "next", "--all"]),
        ("litestar", ["http://localhost:18605/pages/books", "--follow", "next", "--all"]),
        ("litestar", ["http://localhost:18605/cursor/books", "--follow", "next", "--all"]),
    ],
    ids=[
        "drf",
        "drf-from-root",
        "halson",
        "json-server-0.17",
        "json-server-1",
        "tastypie-from-root",
        "ninja-limit-offset",
        "ninja-page-number",
        "ninja-cursor",
        "fastapi-pagination-links",
        "fastapi-pagination-page-numbers",
        "fastapi-pagination-offsets",
        "fastapi-pagination-link-header",
        "flask-smorest-x-pagination",
        "litestar-offsets",
        "litestar-classic",
        "litestar-cursor",
    ],
)
def test_every_page_s_items(
    name: str,
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(name, argv, monkeypatch, capsys)
    assert (code, err) == (0, "restwalk: 25 items in 3 pages: the last has no 'next' link\n")
    assert [orjson.loads(line)["title"] for line in out.splitlines()] == TITLES


def test_max_pages_bounds_the_walk(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["http://localhost:18101/books/", "--follow", "next", "--all", "--max-pages", "2"]
    code, out, err = run("drf-plain", argv, monkeypatch, capsys)
    assert code == 1  # the answer says there are more than were read
    assert [orjson.loads(line)["title"] for line in out.splitlines()] == TITLES[:20]
    assert err == (
        "restwalk: 20 items in 2 pages: stopped after 2 pages (--max-pages 2); the last one "
        "has a 'next' link: http://localhost:18101/books/?page=3; the answer says 25 items "
        "(the body's count); 20 were read\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["http://localhost:18101/books/", "--all"], "add --follow next"),
        (["http://localhost:18101/books/", "--follow", "next", "--all", "--json"], "leave out"),
        (
            ["http://localhost:18101/books/", "--follow", "next", "--all", "--max-pages", "0"],
            "--max-pages must be 1 or more",
        ),
    ],
)
def test_bad_usage(
    argv: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run("drf-plain", argv, monkeypatch, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("restwalk: ")
    assert message in err
    assert err.count("\n") == 1


def test_a_page_that_is_not_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["http://localhost:18501/links/10/0", "--follow", "related[title=1]", "--all"]
    code, out, err = run("httpbin", argv, monkeypatch, capsys)
    assert (code, out) == (1, "")
    assert err == (
        "restwalk: page 1 (http://localhost:18501/links/10/0) is not JSON: a walk reads "
        "the items of JSON pages\n"
    )
