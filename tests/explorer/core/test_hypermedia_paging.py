"""The paging readers, the vocabulary, and a link listed once: the rules, case by case.

The readers are tested on real and documented answers in ``tests/explorer/wild``;
here are their edges (what they refuse, what they keep), without a network.
"""

from __future__ import annotations

import json

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.conventions import nested_under_member
from explorer.core.hypermedia.items import page_items, page_items_at
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.paging import made_links
from explorer.core.hypermedia.paging.answer import Answer, number
from explorer.core.hypermedia.paging.extent import Extent, page_extent
from explorer.core.hypermedia.vocabulary import standard_rel
from explorer.core.session.choice import choose_link, relations

BASE = "http://api.example/books"


def found(url: str, body: object, headers: list[tuple[str, str]] | None = None) -> dict[str, Link]:
    """The response's own paging and self links by relation (the first of each)."""
    links = find_links(url, 200, headers or [], orjson.dumps(body), "application/json")
    by_rel: dict[str, Link] = {}
    for link in links:
        by_rel.setdefault(link.rel, link)
    return by_rel


# --- Answer: the request's URL with a parameter set ----------------------------------


@pytest.mark.parametrize(
    ("url", "values", "expected"),
    [
        (f"{BASE}", {"page": "2"}, f"{BASE}?page=2"),
        (f"{BASE}?page=1&size=10", {"page": "2"}, f"{BASE}?page=2&size=10"),
        # Other parameters stay as written: their order and their percent-encoding.
        (
            f"{BASE}?q=a%20b&page%5Bn%5D=1&x=%2F",
            {"p": "2"},
            f"{BASE}?q=a%20b&page%5Bn%5D=1&x=%2F&p=2",
        ),
        (f"{BASE}?page=1#top", {"page": "2"}, f"{BASE}?page=2"),
        (f"{BASE}?cursor=old", {"cursor": "a+b/=="}, f"{BASE}?cursor=a%2Bb%2F%3D%3D"),
        (f"{BASE}?limit=5", {"limit": "5", "offset": "10"}, f"{BASE}?limit=5&offset=10"),
    ],
)
def test_with_query(url: str, values: dict[str, str], expected: str) -> None:
    assert Answer(url).with_query(**values) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [(3, 3), ("3", 3), (" 12 ", 12), (True, None), (-1, None), ("²", None), ("", None),
     ("1" * 25, None), (2.5, None), (None, None)],
)  # fmt: skip
def test_number(value: object, expected: int | None) -> None:
    assert number(value) == expected


# --- the vocabulary -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "rel"),
    [("previous", "prev"), ("prev_page", "prev"), ("previousPage", "prev"), ("next-page", "next"),
     ("NextPage", "next"), ("nextLink", "next"), ("selfLink", "self"), ("first_page", "first"),
     ("next", None), ("nextpagetoken", None), ("author", None)],
)  # fmt: skip
def test_standard_relations(name: str, rel: str | None) -> None:
    assert standard_rel(name) == rel


def test_a_label_and_a_synonym_choose_the_link() -> None:
    links = [
        Link(rel="prev", href=f"{BASE}?page=1", label="previous"),
        Link(rel="next", href=f"{BASE}?page=3"),
    ]
    assert choose_link(links, "previous") is links[0]
    assert choose_link(links, "PREVIOUS") is links[0]
    # A server that wrote "next": the word "next_page" finds it too.
    assert choose_link(links, "next_page") is links[1]
    assert relations(links) == "prev (previous), next"


# --- URL fields in the body -----------------------------------------------------------


def test_body_links_where_plain_apis_write_them() -> None:
    body = {
        "links": {"next": "/books?page=3", "prev": None},
        "meta": {"previous": "?page=1"},
        "paging": {"last": "https://api.example/books?page=9"},
        "items": [],
    }
    links = found(f"{BASE}?page=2", body)
    assert links["next"].href == "http://api.example/books?page=3"
    assert (links["next"].source, links["next"].guess) == ("/links/next", False)
    assert (links["prev"].href, links["prev"].label) == (f"{BASE}?page=1", "previous")
    assert links["last"].source == "/paging/last"


def test_a_bare_token_under_next_is_no_link() -> None:
    links = found(BASE, {"next": "dXNlcjpVMEc5V0ZYTlo=", "items": [{"name": "x"}]})
    assert "next" not in links


def test_what_the_body_says_it_has_none_of_is_not_made() -> None:
    # "next": null beside page numbers that would make one: the null wins.
    body = {"next": None, "current_page": 1, "last_page": 3, "data": []}
    links = found(f"{BASE}?page=1", body)
    assert "next" not in links
    assert links["last"].made_from is not None


# --- made links -----------------------------------------------------------------------


def test_a_written_link_wins_over_a_made_one() -> None:
    headers = [
        ("Link", f'<{BASE}?page=7>; rel="next"'),
        ("X-Pagination", '{"page": 1, "next_page": 2, "last_page": 3}'),
    ]
    links = found(BASE, [], headers)
    assert (links["next"].href, links["next"].made_from) == (f"{BASE}?page=7", None)
    assert links["last"].made_from == "X-Pagination's last_page: 3 (a page number: ?page=3)"


def test_an_embedded_next_does_not_stand_for_the_page_s() -> None:
    body = {"offset": 0, "limit": 2, "total": 5, "items": [{"next": "/chapters/2"}]}
    links = find_links(BASE, 200, [], orjson.dumps(body), "application/json")
    assert [(link.href, link.made_from is not None) for link in links if link.rel == "next"] == [
        ("http://api.example/chapters/2", False),  # the first item's own
        (f"{BASE}?limit=2&offset=2", True),
    ]
    chosen = choose_link(links, "next")
    assert chosen is not None
    assert chosen.href == f"{BASE}?limit=2&offset=2"


@pytest.mark.parametrize(
    "header",
    ["not json", "[1, 2]", '{"next_page": "x"}', '{"next_page": true}', "{" + " " * 5000 + "}"],
)
def test_x_pagination_that_says_nothing_makes_nothing(header: str) -> None:
    assert made_links(Answer.of(BASE, [("X-Pagination", header)], [])) == []


def test_x_pagination_of_asp_net() -> None:
    header = '{"TotalCount": 30, "PageSize": 10, "CurrentPage": 2, "TotalPages": 3}'
    made = {
        link.rel: link.href for link in made_links(Answer.of(BASE, [("X-Pagination", header)], []))
    }
    assert made == {
        "first": f"{BASE}?page=1",
        "prev": f"{BASE}?page=1",
        "next": f"{BASE}?page=3",
        "last": f"{BASE}?page=3",
    }


@pytest.mark.parametrize(
    ("url", "next_href"),
    [
        (f"{BASE}?_page=1&_limit=10", f"{BASE}?_page=2&_limit=10"),
        (f"{BASE}?offset=10&limit=10", f"{BASE}?offset=20&limit=10"),
        (BASE, None),  # a total alone says nothing of where the pages are
    ],
)
def test_x_total_count(url: str, next_href: str | None) -> None:
    made = {
        link.rel: link.href for link in made_links(Answer.of(url, [("X-Total-Count", "25")], []))
    }
    assert made.get("next") == next_href


@pytest.mark.parametrize(
    ("value", "body", "expected"),
    [
        ("items 0-9/25", [], f"{BASE}?limit=10&offset=10"),
        ("0-9/25", [], f"{BASE}?limit=10&offset=10"),
        ("bytes 0-9/25", [], None),
        ("0-9/*", [], None),
        ("0-9/25", {"a": 1}, None),
        ("9-0/25", [], None),
    ],
)
def test_content_range(value: str, body: object, expected: str | None) -> None:
    made = {
        link.rel: link.href
        for link in made_links(Answer.of(BASE, [("Content-Range", value)], body))
    }
    assert made.get("next") == expected


def test_spring_data_counts_pages_from_zero() -> None:
    body = {"content": [{"id": 1}], "number": 0, "totalPages": 2, "size": 1}
    made = {link.rel: link.href for link in made_links(Answer.of(BASE, [], body))}
    assert made == {"first": f"{BASE}?page=0", "next": f"{BASE}?page=1", "last": f"{BASE}?page=1"}


def test_a_page_is_never_its_own_next() -> None:
    body = {"first": 1, "next": 1, "last": 1, "data": []}
    assert "next" not in {link.rel for link in made_links(Answer.of(f"{BASE}?_page=1", [], body))}


# --- a link said twice is listed once -------------------------------------------------


def test_a_header_link_the_body_repeats_is_one_link_naming_both() -> None:
    body = {
        "_links": {
            "self": {"href": "/books?page=2", "title": "Page 2"},
            "next": {"href": "/books?page=3"},
        },
        "_embedded": {"books": [{"_links": {"next": {"href": "/books?page=3"}}}]},
    }
    headers = [
        (
            "Link",
            '</books?page=2>; rel="self", </books?page=3>; rel="next", </books?page=3>; rel="last"',
        ),
    ]
    links = find_links(f"{BASE}?page=2", 200, headers, orjson.dumps(body), "application/hal+json")
    own = [(link.rel, link.source, link.also) for link in links]
    assert own == [
        ("last", "header:Link", ()),  # the same URL, another relation: another link
        ("self", "/_links/self", ("header:Link",)),
        ("next", "/_links/next", ("header:Link",)),
        ("next", "/_embedded/books/0/_links/next", ()),  # an embedded resource's own
    ]
    assert links[1].title == "Page 2"


def test_the_mock_s_page_lists_each_link_once() -> None:
    # restwalk's mock writes self/first/last in the body and in the Link header.
    body = {
        "_links": {
            "self": {"href": "/customers?limit=20&offset=0"},
            "first": {"href": "/customers?limit=20&offset=0"},
            "last": {"href": "/customers?limit=20&offset=0"},
        },
        "count": 1, "total": 1, "limit": 20, "offset": 0,
    }  # fmt: skip
    header = (
        '</customers?limit=20&offset=0>; rel="self", </customers?limit=20&offset=0>; '
        'rel="first", </customers?limit=20&offset=0>; rel="last"'
    )
    links = find_links(
        "http://mock/customers", 200, [("Link", header)], orjson.dumps(body), "application/hal+json"
    )
    assert [(link.rel, link.also) for link in links] == [
        ("self", ("header:Link",)),
        ("first", ("header:Link",)),
        ("last", ("header:Link",)),
    ]


# --- guesses and items ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "nested"),
    [("/books", False), ("/api/v1/books", False), ("/authors/3/books", True),
     ("/users/8f14e45f-ceea-467f-a0e6-5f5e4c6e7e3a/orders", True),
     ("/shops/507f1f77bcf86cd799439011/items", True), ("/books/3", False)],
)  # fmt: skip
def test_nested_under_member(path: str, nested: bool) -> None:
    assert nested_under_member(path) is nested


def test_items_under_the_frameworks_names() -> None:
    for name in ("objects", "data", "items", "results", "records", "value", "entries", "_items"):
        assert page_items_at({name: [{"id": 1}], "other": 1}) == (f"/{name}", [{"id": 1}])
    # One array of objects under another name: items when the page says it pages.
    assert page_items({"channels": [{"id": "C1"}], "response_metadata": {}}) == [{"id": "C1"}]
    assert page_items({"channels": [{"id": "C1"}]}) is None
    assert page_items({"channels": [{"id": "C1"}]}, in_series=True) == [{"id": "C1"}]
    assert page_items({"a": [{"id": 1}], "b": [{"id": 2}], "next": "/x"}) is None


def test_root_entries_need_every_member_to_be_one() -> None:
    body = {"book": {"list_endpoint": "/api/v1/book/"}, "version": "1"}
    links = find_links("http://api.example/api/v1/", 200, [], orjson.dumps(body))
    assert [(link.rel, link.guess) for link in links] == [("list_endpoint", True)]


# --- what a page says of the whole ----------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "body", "extent"),
    [
        ([], {"count": 25, "results": [1]}, Extent(total=25, said_by="the body's count")),
        ([], {"count": 10, "total": 25, "items": []}, Extent(total=25, said_by="the body's total")),
        ([], {"meta": {"total_count": 25}, "objects": []},
         Extent(total=25, said_by="the body's meta.total_count")),
        ([], {"items": 25, "pages": 3, "data": []},
         Extent(total=25, pages=3, said_by="the body's items and the body's pages")),
        ([], {"has_more": True, "data": []}, Extent(more=True, said_by="the body's has_more")),
        ([("X-Pagination", '{"total": 25, "total_pages": 3}')], [],
         Extent(total=25, pages=3, said_by="X-Pagination's total and X-Pagination's total_pages")),
        ([("X-Total-Count", "25")], [], Extent(total=25, said_by="X-Total-Count")),
        ([("Content-Range", "0-9/25")], [], Extent(total=25, said_by="Content-Range")),
        ([("Content-Range", "bytes 0-9/25")], [], Extent()),
        ([], {"id": 1}, Extent()),
    ],
)  # fmt: skip
def test_page_extent(headers: list[tuple[str, str]], body: object, extent: Extent) -> None:
    assert page_extent(BASE, headers, body) == extent


# --- never raises ---------------------------------------------------------------------

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KEYS = st.sampled_from(
    ["next", "previous", "prev", "first", "last", "links", "meta", "paging", "items", "data",
     "count", "total", "total_count", "offset", "limit", "page", "pages", "current_page",
     "last_page", "total_pages", "number", "totalPages", "content", "has_more", "cursor",
     "results_per_page", "nextPageToken", "response_metadata", "next_cursor", "next_token",
     "id", "results", "objects", "list_endpoint", "schema"]
)  # fmt: skip
VALUES = (
    st.none()
    | st.booleans()
    | st.integers(-3, 10**20)
    | st.sampled_from(["/x", "?p=2", "http://h/y", "", " ", "3", "-1", "abc", "2.5"])
)
JSON = st.recursive(
    VALUES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(KEYS, children, max_size=6),
    max_leaves=30,
)
HEADERS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "X-Pagination",
                "X-Total-Count",
                "X-Next-Page",
                "X-Prev-Page",
                "X-Total-Pages",
                "Content-Range",
                "Link",
            ]
        ),
        st.text(max_size=40) | st.sampled_from(['{"page": 1, "next_page": 2}', "0-9/25", "7"]),
    ),
    max_size=4,
)
URLS = st.sampled_from(
    [BASE, f"{BASE}?page=2", f"{BASE}?_page=x&_limit=0", f"{BASE}?offset=3&limit=0", "not a url",
     "http://[::1/x?page=1", f"{BASE}?page=1&page=2#f"]
)  # fmt: skip


@FUZZ
@given(url=URLS, headers=HEADERS, doc=JSON)
def test_the_paging_readers_never_raise(
    url: str, headers: list[tuple[str, str]], doc: object
) -> None:
    answer = Answer.of(url, headers, doc)
    for link in made_links(answer):
        assert link.rel in ("next", "prev", "first", "last")
        assert link.made_from
    assert isinstance(page_extent(url, headers, doc), Extent)
    found_links = find_links(url, 200, headers, json.dumps(doc).encode(), "application/json")
    assert all(isinstance(link, Link) for link in found_links)
