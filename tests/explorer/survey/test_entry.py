"""Where a survey starts (explorer.core.survey.entry): the page shown, or its API's root."""

from __future__ import annotations

import httpx
import orjson

from explorer.core.http.client import Client
from explorer.core.http.request import RequestSpec
from explorer.core.session import Session
from explorer.core.session.loading import load_page
from explorer.core.session.trail import Page
from explorer.core.survey.crawl import CrawlLimits, client_sends, crawl
from explorer.core.survey.entry import Entry, answers_with_links, entries_of, with_probe
from tests.explorer.survey.fakes import handler_client, mock_client

ROOT = "http://mock/"


async def visit(session: Session, client: Client, url: str) -> Page:
    return session.arrived(await load_page(client, RequestSpec(url=url)))


async def test_the_page_shown_is_the_entry_when_it_is_the_root() -> None:
    # QA 1, item 7: /delay/1 first, then /; the map began at /delay/1, the first page seen.
    session, client = Session(), mock_client()
    await visit(session, client, ROOT + "delay/0")
    await visit(session, client, ROOT)
    entries = entries_of(session)
    assert entries is not None
    assert entries.default.url == ROOT
    assert entries.root is None
    assert entries.to_probe is None
    assert entries.other(entries.default) is None


async def test_the_root_met_in_the_walk_comes_before_the_page_shown() -> None:
    session, client = Session(), mock_client()
    await visit(session, client, ROOT)
    await visit(session, client, ROOT + "delay/0")
    entries = entries_of(session)
    assert entries is not None
    assert entries.page == Entry(ROOT + "delay/0", "the page shown")
    assert entries.root == Entry(ROOT, "the API's root", "the origin's / answers with links")
    assert entries.default == entries.root
    assert entries.other(entries.root) == entries.page
    assert entries.other(entries.page) == entries.root
    assert entries.to_probe is None


async def test_an_unknown_root_is_asked_and_taken_when_it_answers_with_links() -> None:
    session, client = Session(), mock_client()
    await visit(session, client, ROOT + "delay/0")
    entries = entries_of(session)
    assert entries is not None
    assert entries.default.url == ROOT + "delay/0"  # nothing known yet
    assert entries.to_probe == ROOT
    probed = with_probe(entries, await load_page(client, RequestSpec(url=ROOT)))
    assert probed.default.url == ROOT
    assert probed.to_probe is None
    assert probed.page.url == ROOT + "delay/0"


async def test_a_root_that_answers_without_links_is_no_root() -> None:
    session, client = Session(), mock_client()
    await visit(session, client, ROOT + "delay/0")
    entries = entries_of(session)
    assert entries is not None
    # /delay/0's own answer links to itself only: not a page a crawl spreads from.
    probed = with_probe(entries, await load_page(client, RequestSpec(url=ROOT + "delay/0")))
    assert probed.root is None
    assert probed.to_probe is None
    assert probed.default.url == ROOT + "delay/0"


def hal_api(request: httpx.Request) -> httpx.Response:
    """An API mounted under /api/: its / is a 404, its items link up and to the index."""
    path = request.url.path
    if path == "/api/items/7":
        body = {
            "id": 7,
            "_links": {
                "self": {"href": "/api/items/7"},
                "up": {"href": "/api/items"},
                "index": {"href": "/api/"},
                "search": {"href": "/api/items{?q}", "templated": True},
            },
        }
        return httpx.Response(200, json=body, headers={"content-type": "application/hal+json"})
    return httpx.Response(404, json={"title": "Not Found"})


async def test_the_pages_index_link_is_the_root_when_the_origin_root_is_not() -> None:
    session, client = Session(), handler_client(hal_api)
    await visit(session, client, "http://api.test/api/items/7")
    entries = entries_of(session)
    assert entries is not None
    assert entries.root == Entry("http://api.test/api/", "the API's root", "this page's index link")
    assert entries.to_probe == "http://api.test/"
    # / answers 404: the index link stays the root, and / is not asked again.
    probed = with_probe(entries, await load_page(client, RequestSpec(url="http://api.test/")))
    assert probed.root == entries.root
    assert probed.to_probe is None
    await visit(session, client, "http://api.test/")
    await visit(session, client, "http://api.test/api/items/7")
    again = entries_of(session)
    assert again is not None
    assert again.to_probe is None  # the 404 of / is in the walk
    assert again.root == entries.root


async def test_up_is_taken_when_no_index_or_start_is_given() -> None:
    def only_up(request: httpx.Request) -> httpx.Response:
        links = {"self": {"href": "/things/1"}, "up": {"href": "/things"}}
        return httpx.Response(
            200,
            content=orjson.dumps({"_links": links}),
            headers={"content-type": "application/hal+json"},
        )

    session = Session()
    await visit(session, handler_client(only_up), "http://api.test/things/1")
    entries = entries_of(session)
    assert entries is not None
    assert entries.root == Entry("http://api.test/things", "the API's root", "this page's up link")


async def test_a_crawl_of_the_root_tells_without_asking_again() -> None:
    session, client = Session(), mock_client()
    send, _ = client_sends(client)
    await crawl(ROOT, send, limits=CrawlLimits(max_pages=3, delay=0), api_map=session.map)
    await visit(session, client, ROOT + "delay/0")
    entries = entries_of(session)
    assert entries is not None
    assert entries.to_probe is None
    assert entries.default.url == ROOT


async def test_a_failed_page_is_surveyed_from_its_url() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("Connection refused", request=request)

    session = Session()
    await visit(session, handler_client(refuse), "http://api.test/x")
    entries = entries_of(session)
    assert entries is not None
    assert entries.page.url == "http://api.test/x"
    assert entries.to_probe == "http://api.test/"
    failed = await load_page(handler_client(refuse), RequestSpec(url="http://api.test/"))
    assert not answers_with_links(failed)
    assert with_probe(entries, failed).default == entries.page


def test_no_page_no_entry() -> None:
    assert entries_of(Session()) is None
