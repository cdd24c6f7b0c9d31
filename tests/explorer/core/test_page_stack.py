"""Pages stacked one below the other (the TUI's ``+``), on real frameworks' recorded pages."""

from __future__ import annotations

import re
from dataclasses import replace
from http import HTTPStatus

import orjson
import pytest

from explorer.core.bodies import display as body
from explorer.core.http.errors import ConnectError
from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest
from explorer.core.http.request import RequestSpec
from explorer.core.session.loading import read_safely, with_reading
from explorer.core.session.page_stack import (
    StackRefused,
    can_add_below,
    next_page,
    stack_below,
    stack_hint,
)
from explorer.core.session.trail import Page
from tests.explorer.wild.recordings import Recorded, recordings

BOOKS = [f"Book {n}" for n in range(1, 26)]


def page(
    url: str,
    body: bytes,
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),),
    status: int = HTTPStatus.OK,
) -> Page:
    """A page as the session keeps it: the exchange, its links read."""
    sent = SentRequest("GET", url, ())
    received = ReceivedResponse(status, HTTPStatus(status).phrase, "HTTP/1.1", headers, body, url)
    exchange = Exchange(sent, sent, received)
    return with_reading(Page(RequestSpec(url=url), exchange=exchange), read_safely(exchange))


def recorded(name: str, path: str) -> Page:
    entry: Recorded = next(e for e in recordings(name) if e.url.split("/", 3)[3] == path)
    return page(entry.url, entry.body, entry.headers, entry.status)


def followed(shown: Page, pages: dict[str, Page]) -> Page:
    """The page ``shown``'s next link leads to, with the stack of ``+`` on it."""
    below = pages[next_page(shown).href]
    return replace(below, stack=stack_below(shown, below, max_body=10**8))


def titles(text: str) -> list[str]:
    return re.findall(r'"title": "(Book \d+)"', text)


@pytest.mark.parametrize(
    ("name", "paths"),
    [
        ("drf-plain", ["books/", "books/?page=2", "books/?page=3"]),
        ("halson", ["books", "books?page=2", "books?page=3"]),
        ("json-server-0.17", [f"books?_page={n}&_limit=10" for n in (1, 2, 3)]),
        ("json-server-1", [f"books?_page={n}&_per_page=10" for n in (1, 2, 3)]),
    ],
)
def test_three_recorded_pages_one_below_the_other(
    name: str, paths: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(body, "BLOCK_SIZE", 256)  # texts of several blocks, as large pages have
    first, *rest = [recorded(name, path) for path in paths]
    by_url = {p.spec.url: p for p in rest}
    second = followed(first, by_url)
    third = followed(second, by_url)
    assert third.stack is not None
    assert second.stack is not None
    assert titles(third.stack.text.text()) == BOOKS
    # The history keeps both: the pages' text is shared between them, not copied.
    assert third.stack.text.blocks > 2
    assert third.stack.text._chunks[0] is second.stack.text._chunks[0]
    assert (third.stack.pages, third.stack.added) == (3, 15)
    assert [r.url for r in third.stack.responses] == [p.spec.url for p in (first, *rest)]
    assert not can_add_below(third)
    with pytest.raises(
        StackRefused,
        match=re.escape("the 3 pages shown end here (no 'next' link): 25 items in 3 pages."),
    ):
        next_page(third)
    assert stack_hint(third) == (
        "Pages 1-3 shown, one below the other (15 items added); the last has no next page: "
        "25 items in 3 pages. alt+left shows them as they were."
    )
    # What a filter reads: the three documents, as one JSON array.
    assert len(orjson.loads(third.stack.documents())) == 3


def test_pages_stacked_from_a_later_page_are_not_numbered_from_the_api_s_first() -> None:
    """QA 6: + on ?page=2 said "Pages 1-2 shown" of pages 2 and 3."""
    paths = ["books/?page=2", "books/?page=3"]
    first, last = [recorded("drf-plain", path) for path in paths]
    second = followed(first, {last.spec.url: last})
    assert second.stack is not None
    assert second.stack.tally.midway
    assert stack_hint(second) == (
        "2 pages shown, one below the other (5 items added); the last has no next page: "
        "15 items in 2 pages (begun after the first page). alt+left shows them as they were."
    )
    doc = {"count": 40, "next": "http://h/?page=4", "previous": first.spec.url, "results": [{}]}
    more = page(last.spec.url, orjson.dumps(doc))
    assert stack_hint(followed(first, {last.spec.url: more})) == (
        "2 pages shown, one below the other (1 item added); + adds the next one, "
        "alt+left goes back one."
    )


def test_the_first_page_is_shown_as_it_came_and_each_added_one_is_named() -> None:
    first, second = recorded("drf-plain", "books/"), recorded("drf-plain", "books/?page=2")
    stack = stack_below(first, second, max_body=10**8)
    text = stack.text.text()
    assert text.startswith('{\n  "count": 25,\n  "next": "http://localhost:18101/books/?page=2"')
    assert "\n\n── page 2: 10 items of http://localhost:18101/books/?page=2 ──\n[\n  {\n" in text
    assert stack.text.language == "json"


def test_a_page_without_a_list_of_items_is_added_whole() -> None:
    first = page("http://h/a", orjson.dumps({"id": 1, "next": "http://h/b"}))
    second = page("http://h/b", orjson.dumps({"id": 2}))
    stack = stack_below(first, second, max_body=10**8)
    assert stack.added == 1
    assert stack.text.text().endswith(
        '── page 2: 1 item of http://h/b ──\n[\n  {\n    "id": 2\n  }\n]'
    )


NEXT = (("Content-Type", "application/json"), ("Link", '</b>; rel="next"'))


@pytest.mark.parametrize(
    ("shown", "message"),
    [
        (None, "No page is shown"),
        (
            Page(RequestSpec(url="http://h/a"), error=ConnectError("refused")),
            "No page is shown",
        ),
        (
            page("http://h/a", b"[]"),
            "No next page: this page ends here (no 'next' link): 0 items in 1 page.",
        ),
        (
            page("http://h/a", b"<html></html>", (("Content-Type", "text/html"), NEXT[1])),
            "This page is not JSON (text/html): + adds the items of JSON pages.",
        ),
        (replace(page("http://h/a", b"[]", NEXT), reading=True), "still being read"),
    ],
)
def test_when_plus_has_nothing_to_add(shown: Page | None, message: str) -> None:
    with pytest.raises(StackRefused, match=re.escape(message)):
        next_page(shown)


def test_at_most_max_pages() -> None:
    first = page("http://h/a", b"[1]", NEXT)
    second = page("http://h/b", b"[2]", NEXT)
    stacked = replace(second, stack=stack_below(first, second, max_body=10**8))
    assert next_page(stacked, max_pages=3).href == "http://h/b"
    with pytest.raises(StackRefused, match="2 pages are shown, the most"):
        next_page(stacked, max_pages=2)


@pytest.mark.parametrize(
    ("below", "max_body", "message"),
    [
        (page("http://h/b", b"[2]", status=503), 100, "Page 2 answered 503 Service Unavailable"),
        (page("http://h/b", b"<p>", (("Content-Type", "text/html"),)), 100, "Page 2 is not JSON"),
        (page("http://h/b", b"[2, 3, 4]"), 10, "to 12 bytes, past the 10 of --max-body"),
        (
            Page(RequestSpec(url="http://h/b"), error=ConnectError("refused")),
            100,
            "Page 2 could not be loaded",
        ),
    ],
)
def test_a_page_that_cannot_be_added(below: Page, max_body: int, message: str) -> None:
    first = page("http://h/a", b"[1]", NEXT)
    with pytest.raises(StackRefused, match=re.escape(message)):
        stack_below(first, below, max_body=max_body)


def test_server_text_in_the_page_line_is_made_visible() -> None:
    first = page("http://h/a", b"[1]", NEXT)
    second = page("http://h/b?\x1b[31m", b"[2]")
    line = stack_below(first, second, max_body=100).text.text().splitlines()[-4]
    assert "\x1b" not in line
    assert line == "── page 2: 1 item of http://h/b?␛[31m ──"


def test_plus_says_when_the_answer_says_there_are_more() -> None:
    # Two pages of a list whose count says 30: the second links no further.
    first = page("http://h/a", orjson.dumps({"count": 30, "results": [1, 2]}), NEXT)
    second = page("http://h/b", orjson.dumps({"count": 30, "results": [3, 4]}))
    stacked = replace(second, stack=stack_below(first, second, max_body=10**8))
    said = "4 items in 2 pages; the answer says 30 items (the body's count); 4 were read"
    with pytest.raises(StackRefused, match=re.escape(f"(no 'next' link): {said}.")):
        next_page(stacked)
    assert f"the last has no next page: {said}. " in stack_hint(stacked)


def test_a_page_that_repeats_one_shown_is_not_added() -> None:
    # A next link made from a page number the server ignores: page 1 again, under a new URL.
    first = page("http://h/a", b'{"page": 1, "pages": 3, "items": [1, 2]}', NEXT)
    again = page("http://h/a?page=2", b'{"page": 1, "pages": 3, "items": [1, 2]}', NEXT)
    with pytest.raises(
        StackRefused,
        match=re.escape(
            "Page 2 repeats page 1 item for item: nothing was added (its 'next' link goes "
            "round); the answer says 3 pages (the body's pages); 1 was read."
        ),
    ):
        stack_below(first, again, max_body=10**8)


def test_asking_whether_plus_adds_a_page_does_not_read_the_body(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The key hint asks it of every page shown, on the UI's event loop: the refusal's
    item count (a parse of the whole body) is made only when + is pressed."""
    import explorer.core.session.page_stack as page_stack

    last = page("http://api.test/books", orjson.dumps({"items": BOOKS}))
    parsed: list[bytes] = []
    loads = orjson.loads

    def counting(data: bytes) -> object:
        parsed.append(data)
        return loads(data)

    monkeypatch.setattr(page_stack.orjson, "loads", counting)
    assert not can_add_below(last)
    assert parsed == []
    with pytest.raises(StackRefused, match="no 'next' link"):
        next_page(last)
    assert len(parsed) == 1
