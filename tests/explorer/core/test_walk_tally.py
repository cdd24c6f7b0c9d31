"""What a walk of pages read, and why it ended (explorer.core.session.walk_tally)."""

from __future__ import annotations

from explorer.core.session.walk_tally import WalkTally

BASE = "http://api.example/books"


def page(first: int, count: int, total: int | None = 25) -> dict[str, object]:
    body: dict[str, object] = {"results": [{"id": n} for n in range(first, first + count)]}
    if total is not None:
        body["count"] = total
    return body


def test_a_whole_walk_says_what_it_read_and_why_it_ended() -> None:
    tally = WalkTally()
    for first, count in ((1, 10), (11, 10), (21, 5)):
        assert tally.add(BASE, [], page(first, count)).repeats is None
    assert tally.short() is None
    assert tally.ending("the last page has no 'next' link") == (
        "25 items in 3 pages: the last page has no 'next' link"
    )


def test_a_partial_walk_says_what_is_left() -> None:
    tally = WalkTally()
    tally.add(BASE, [], page(1, 10))
    tally.add(BASE, [], page(11, 10))
    assert tally.short() == "the answer says 25 items (the body's count); 20 were read"
    assert tally.ending("stopped after 2 pages (--max-pages 2)") == (
        "20 items in 2 pages: stopped after 2 pages (--max-pages 2); "
        "the answer says 25 items (the body's count); 20 were read"
    )


def test_pages_and_has_more_count_too() -> None:
    by_pages = WalkTally()
    by_pages.add(BASE, [("X-Pagination", '{"total_pages": 3, "page": 1}')], [{"id": 1}])
    assert by_pages.short() == "the answer says 3 pages (X-Pagination's total_pages); 1 was read"
    stripe = WalkTally()
    stripe.add(BASE, [], {"object": "list", "has_more": True, "data": [{"id": "cus_1"}]})
    assert stripe.short() == "the last page read says there are more (has_more)"
    stripe.add(BASE, [], {"object": "list", "has_more": False, "data": [{"id": "cus_2"}]})
    assert stripe.short() is None


def test_a_page_that_repeats_an_earlier_one_is_a_loop_and_not_counted() -> None:
    tally = WalkTally()
    tally.add(BASE, [], page(1, 10))
    again = tally.add(f"{BASE}?offset=10", [], page(1, 10))
    assert again.repeats == 1
    assert (tally.pages, tally.items) == (1, 10)


def test_items_are_those_a_walk_prints() -> None:
    tally = WalkTally()
    # Shopify pages in its Link header alone: its one array is its items.
    read = tally.add(BASE, [], {"products": [{"id": 1}, {"id": 2}]})
    assert read.items == [{"id": 1}, {"id": 2}]
    # A page with no list is one item: itself.
    assert tally.add(f"{BASE}/1", [], {"id": 9}).items == [{"id": 9}]
    assert tally.read() == "3 items in 2 pages"
    # An empty page is no loop, whatever came before.
    assert tally.add(BASE, [], []).repeats is None
    assert tally.add(BASE, [], []).repeats is None


def test_a_walk_begun_after_the_first_page_is_not_held_to_the_totals() -> None:
    tally = WalkTally(midway=True)
    tally.add(f"{BASE}?page=2", [], page(11, 10))
    tally.add(f"{BASE}?page=3", [], page(21, 5))
    assert tally.short() is None
    assert tally.ending("page 3 has no 'next' link") == (
        "15 items in 2 pages (begun after the first page): page 3 has no 'next' link"
    )
    # has_more still says a walk is short, wherever it began.
    stripe = WalkTally(midway=True)
    stripe.add(BASE, [], {"has_more": True, "data": [{"id": "cus_9"}]})
    assert stripe.short() == "the last page read says there are more (has_more)"
