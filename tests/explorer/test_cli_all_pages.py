"""``--follow next --all`` is never silently short: it says why it stopped and how many items
it read, and exits 1 when the answer says there were more.

Each API here is a small handler (no network) that breaks a walk one way: a page
that comes back under a new URL, an error half-way, no answer, a last page whose
total says more, a ``has_more`` left true.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
import orjson
import pytest

from explorer.cli import main
from explorer.core.http.client import Client

API = "http://api.test/books"
BOOKS = [{"id": n, "title": f"Book {n}"} for n in range(1, 26)]


def run(
    handler: Callable[[httpx.Request], httpx.Response],
    argv: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, list[object], str]:
    monkeypatch.setattr(
        "explorer.cli.commands.request.client_from",
        lambda args: Client(transport=httpx.MockTransport(handler)),
    )
    code = main(["request", "GET", *argv])
    out, err = capsys.readouterr()
    return code, [orjson.loads(line) for line in out.splitlines()], err


def page_of(request: httpx.Request, *, size: int = 10, total: int = 25) -> httpx.Response:
    """A page of ``?page=N`` with a ``next`` link while there are more (``total`` says how
    many there are, whatever the list holds)."""
    page = int(request.url.params.get("page", "1"))
    items = BOOKS[(page - 1) * size : page * size]
    body: dict[str, object] = {"count": total, "results": items}
    if page * size < len(BOOKS):
        body["next"] = f"{API}?page={page + 1}"
    return httpx.Response(200, json=body)


def test_a_whole_walk_says_so_and_exits_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, items, err = run(page_of, [API, "--follow", "next", "--all"], monkeypatch, capsys)
    assert (code, len(items)) == (0, 25)
    assert err == "restwalk: 25 items in 3 pages: the last has no 'next' link\n"


def test_a_total_past_what_was_read_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return page_of(request, total=30)  # five books the pages never link to

    code, items, err = run(handler, [API, "--follow", "next", "--all"], monkeypatch, capsys)
    assert (code, len(items)) == (1, 25)
    assert err == (
        "restwalk: 25 items in 3 pages: the last has no 'next' link; the answer says 30 "
        "items (the body's count); 25 were read\n"
    )


def test_a_page_that_comes_back_under_a_new_url_is_a_loop(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A next page made from a number the server ignores: the same items again.
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200, json={"page": 1, "pages": 3, "items": BOOKS[:10]}, headers={"X-Page": "1"}
        )

    code, items, err = run(
        handler, [f"{API}?page=1", "--follow", "next", "--all"], monkeypatch, capsys
    )
    assert (code, len(items)) == (1, 10)
    assert err == (
        f"restwalk: 10 items in 1 page: page 2 ({API}?page=2) repeats page 1 item for item; "
        "the answer says 3 pages (the body's pages); 1 was read\n"
    )


def test_an_error_half_way_says_what_was_read_before_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.params.get("page") == "2":
            return httpx.Response(503, json={"detail": "try later"})
        return page_of(request)

    code, items, err = run(handler, [API, "--follow", "next", "--all"], monkeypatch, capsys)
    assert (code, len(items)) == (1, 10)
    assert err == (
        f"restwalk: page 2 ({API}?page=2) answered 503 Service Unavailable; 10 items in 1 "
        "page printed before it; the answer says 25 items (the body's count); 10 were read\n"
    )


def test_no_answer_half_way_says_what_was_read_before_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.params.get("page") == "2":
            raise httpx.ConnectError("connection refused", request=request)
        return page_of(request)

    code, items, err = run(handler, [API, "--follow", "next", "--all"], monkeypatch, capsys)
    assert (code, len(items)) == (1, 10)
    lines = err.splitlines()
    assert lines[0] == (
        f"restwalk: page 2 ({API}?page=2) got no answer; 10 items in 1 page printed before "
        "it; the answer says 25 items (the body's count); 10 were read"
    )
    assert len(lines) == 2  # and why there was no answer


def test_has_more_left_true_exits_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A Stripe-like list whose last page still says has_more, its next link missing.
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"object": "list", "has_more": True, "data": []})

    code, items, err = run(handler, [API, "--follow", "next", "--all"], monkeypatch, capsys)
    assert (code, items) == (1, [])
    assert err == (
        "restwalk: 0 items in 1 page: the last has no 'next' link; the last page read says "
        "there are more (has_more)\n"
    )


def test_a_walk_begun_on_page_2_reads_to_the_end_and_says_where_it_began(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        response = page_of(request)
        body = orjson.loads(response.content)
        page = int(request.url.params.get("page", "1"))
        if page > 1:
            body["previous"] = f"{API}?page={page - 1}"
        return httpx.Response(200, json=body)

    code, items, err = run(
        handler, [f"{API}?page=2", "--follow", "next", "--all"], monkeypatch, capsys
    )
    assert (code, len(items)) == (0, 15)
    assert err == (
        "restwalk: 15 items in 2 pages (begun after the first page): the last has no 'next' link\n"
    )
