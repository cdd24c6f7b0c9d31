"""The paging of public APIs, read from the answers their documentation shows.

Each fixture in ``fixtures/documented`` names the page it was written from. For
each answer: the page links restwalk finds or makes (and what each was made
from), the page's items, and what the page says of the whole.
"""

from __future__ import annotations

import orjson
import pytest

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.items import page_items
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.paging.extent import Extent, page_extent
from explorer.core.hypermedia.vocabulary import PAGING_RELATIONS
from explorer.core.session.choice import choose_link
from tests.explorer.wild.recordings import DOCUMENTED, Recorded, documented


def links_of(entry: Recorded) -> list[Link]:
    return find_links(entry.url, entry.status, entry.headers, entry.body, entry.media_type)


def paging(entry: Recorded) -> dict[str, tuple[str, str | None]]:
    """Each paging relation of the answer: its URL and what it was made from (None: written)."""
    return {
        link.rel: (link.href, link.made_from)
        for link in links_of(entry)
        if link.rel in PAGING_RELATIONS
    }


def test_every_documented_api_is_here_with_its_source() -> None:
    assert set(DOCUMENTED) == {
        "azure",
        "github",
        "gitlab",
        "google",
        "laravel",
        "pokeapi",
        "postgrest",
        "shopify",
        "slack",
        "spotify",
        "stripe",
        "twitter",
    }
    for name in DOCUMENTED:
        assert documented(name)  # (each names its documentation, or fails to load)


def test_github_link_header() -> None:
    (page,) = documented("github")
    base = "https://api.github.com/repositories/1300192/issues"
    assert paging(page) == {
        "prev": (f"{base}?page=2", None),
        "next": (f"{base}?page=4", None),
        "last": (f"{base}?page=515", None),
        "first": (f"{base}?page=1", None),
    }
    items = page_items(orjson.loads(page.body))
    assert items is not None
    assert len(items) == 2
    item = choose_link(links_of(page), "item")
    assert item is not None
    assert item.href == "https://api.github.com/repos/octocat/Spoon-Knife/issues/31"


def test_shopify_page_info_and_its_previous() -> None:
    (page,) = documented("shopify")
    links = links_of(page)
    base = "https://example-shop.myshopify.com/admin/api/2024-01/products.json?limit=2"
    prev = choose_link(links, "prev")
    assert prev is not None
    assert (prev.href, prev.label) == (f"{base}&page_info=abcdefg", "previous")
    assert choose_link(links, "previous") is prev
    assert paging(page)["next"] == (f"{base}&page_info=opqrstu", None)
    # Its body says nothing of paging: a walk knows the page is one of a series.
    doc = orjson.loads(page.body)
    assert page_items(doc) is None
    assert page_items(doc, in_series=True) == doc["products"]
    # products.json is a file-like name: no /products.json/{id} is guessed.
    assert not [link for link in links if link.guess]


def test_pokeapi_url_fields_and_count() -> None:
    first, last = documented("pokeapi")
    base = "https://pokeapi.co/api/v2/pokemon"
    assert paging(first) == {
        "next": (f"{base}?offset=40&limit=20", None),
        "prev": (f"{base}?offset=0&limit=20", None),
    }
    assert paging(last) == {"prev": (f"{base}?offset=1280&limit=20", None)}
    assert page_extent(first.url, first.headers, orjson.loads(first.body)) == Extent(
        total=1302, said_by="the body's count"
    )
    item = choose_link(links_of(first), "item")
    assert item is not None
    assert item.href == f"{base}/21/"


def test_spotify_paging_object() -> None:
    (page,) = documented("spotify")
    base = "https://api.spotify.com/v1/me/tracks"
    found = paging(page)
    assert found["next"] == (f"{base}?offset=4&limit=2", None)
    assert found["prev"] == (f"{base}?offset=0&limit=2", None)
    # first and last are not written: made from the offset, the limit and the total.
    assert found["first"][0] == f"{base}?offset=0&limit=2"
    assert found["last"][0] == f"{base}?offset=4&limit=2"
    assert found["last"][1] == ("the body's offset 2, limit 2 and total 5 (an offset: ?offset=4)")
    assert page_items(orjson.loads(page.body)) is not None


def test_google_page_tokens() -> None:
    youtube, drive = documented("google")
    base = "https://www.googleapis.com/youtube/v3/search?part=snippet&q=surfing&maxResults=2"
    assert paging(youtube) == {
        "next": (
            f"{base}&pageToken=CAQQAA",
            "the body's nextPageToken (a cursor: ?pageToken=...)",
        ),
        "prev": (
            f"{base}&pageToken=CAIQAA",
            "the body's prevPageToken (a cursor: ?pageToken=...)",
        ),
    }
    extent = page_extent(youtube.url, youtube.headers, orjson.loads(youtube.body))
    assert extent.total == 1_000_000
    assert paging(drive)["next"][0] == (
        "https://www.googleapis.com/drive/v3/files?pageSize=2&pageToken=~%21%21~AI9FV7Q"
    )
    # Drive's items are its "files", the one array of a page with a next page token.
    files = page_items(orjson.loads(drive.body))
    assert files is not None
    assert [file["name"] for file in files] == ["notes.txt", "plan.pdf"]


def test_slack_cursor_and_its_empty_last_cursor() -> None:
    first, last = documented("slack")
    assert paging(first) == {
        "next": (
            "https://slack.com/api/conversations.list?limit=2&cursor=dGVhbTpDMDYxRkE1UEI%3D",
            "the body's response_metadata.next_cursor (a cursor: ?cursor=...)",
        )
    }
    assert paging(last) == {}
    assert page_items(orjson.loads(first.body)) is not None
    # A method's name is no collection: no /api/conversations.list/{id} is guessed.
    assert not [link for link in links_of(first) if link.guess]


def test_stripe_has_more_and_the_last_id() -> None:
    first, last = documented("stripe")
    assert paging(first) == {
        "next": (
            "https://api.stripe.com/v1/customers?limit=2&starting_after=cus_4QFHdAUbR7GiYm",
            "the body's has_more and its last item's id cus_4QFHdAUbR7GiYm "
            "(?starting_after=cus_4QFHdAUbR7GiYm)",
        )
    }
    assert paging(last) == {}
    assert page_extent(last.url, last.headers, orjson.loads(last.body)).more is False


def test_twitter_next_and_previous_tokens() -> None:
    (page,) = documented("twitter")
    base = "https://api.x.com/2/users/2244994945/tweets?max_results=2"
    assert {rel: href for rel, (href, _) in paging(page).items()} == {
        "next": f"{base}&pagination_token=7140dibdnow9c7btw3w3",
        "prev": f"{base}&pagination_token=77qp8",
    }


def test_laravel_url_fields_then_page_numbers() -> None:
    written, numbered = documented("laravel")
    base = "http://localhost/api/books"
    assert paging(written) == {
        "first": (f"{base}?page=1", None),
        "last": (f"{base}?page=3", None),
        "next": (f"{base}?page=3", None),
        "prev": (f"{base}?page=1", None),
    }
    next_link = choose_link(links_of(written), "next_page_url")
    assert next_link is not None
    assert next_link.rel == "next"
    # Without the URL fields, current_page and last_page still say where pages are
    # (the other query parameters kept as the request wrote them).
    assert paging(numbered) == {
        "first": (
            f"{base}?page=1&per_page=2&sort=title",
            "the body's current_page 3 of last_page 3 (a page number: ?page=1)",
        ),
        "prev": (
            f"{base}?page=2&per_page=2&sort=title",
            "the body's current_page 3 of last_page 3 (a page number: ?page=2)",
        ),
        "last": (
            f"{base}?page=3&per_page=2&sort=title",
            "the body's current_page 3 of last_page 3 (a page number: ?page=3)",
        ),
    }


def test_gitlab_paging_headers() -> None:
    middle, last = documented("gitlab")
    base = "https://gitlab.example.com/api/v4/projects/8/issues/8/notes?per_page=3"
    assert paging(middle) == {
        "next": (f"{base}&page=3", "X-Next-Page: 3 (a page number: ?page=3)"),
        "prev": (f"{base}&page=1", "X-Prev-Page: 1 (a page number: ?page=1)"),
        "last": (f"{base}&page=3", "X-Total-Pages: 3 (a page number: ?page=3)"),
    }
    assert "next" not in paging(last)  # X-Next-Page is empty there
    extent = page_extent(middle.url, middle.headers, orjson.loads(middle.body))
    assert (extent.total, extent.pages) == (8, 3)


def test_postgrest_content_range() -> None:
    first, last = documented("postgrest")
    base = "http://localhost:3000/people"
    assert paging(first)["next"] == (
        f"{base}?limit=2&offset=2",
        "Content-Range 0-1/5 (an offset: ?offset=2)",
    )
    # The last page is shorter: its window is still the request's limit.
    assert paging(last)["prev"][0] == f"{base}?limit=2&offset=2"
    assert "next" not in paging(last)


def test_azure_next_link() -> None:
    (page,) = documented("azure")
    next_link = choose_link(links_of(page), "next")
    assert next_link is not None
    assert (next_link.label, next_link.made_from) == ("nextLink", None)
    assert next_link.href.endswith("&%24skiptoken=eyJuZXh0")
    assert choose_link(links_of(page), "nextLink") is not None


@pytest.mark.parametrize("name", DOCUMENTED)
def test_made_links_are_never_guesses_and_guesses_say_so(name: str) -> None:
    for entry in documented(name):
        for link in links_of(entry):
            if link.made_from is not None and link.rel in PAGING_RELATIONS:
                assert not link.guess
            if link.guess and link.rel == "item":
                assert link.made_from is not None
