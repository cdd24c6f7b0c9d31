"""Mapping restwalk-mock by its links (explorer.core.survey.crawl), in-process over ASGI."""

from __future__ import annotations

import re
from collections import deque

import httpx
import orjson

from explorer.core.http.client import Client
from explorer.core.http.exchange import Exchange
from explorer.core.http.request import BasicAuth, RequestSpec
from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link_kinds import template_base
from explorer.core.session.fold import Folder
from explorer.core.survey.crawl import CrawlLimits, CrawlResult, client_sends, crawl
from explorer.core.survey.render_map import render_map
from mock_server.settings import RateLimit
from tests.explorer.survey.fakes import FakeClock, handler_client, mock_client

ROOT = "http://mock/"
ADMIN = RequestSpec(auth=BasicAuth("admin", "admin"))
#: Paths whose answer never ends (hang, an event stream) or trickles: a map must not wait
#: on them, so they are excluded from visiting, but known by the links that lead there.
SLOW = (
    re.compile(r"^/faults/"),
    re.compile(r"^/drip"),
    re.compile(r"^/delay/"),
)
WIDE = CrawlLimits(max_depth=12, max_pages=400, delay=0, request_timeout=5, exclude=SLOW)


def shape(path: str) -> str:
    """A path with each variable as ``{}``, the way two names of one template agree."""
    return "/".join("{}" if "{" in part else part for part in path.rstrip("/").split("/")) or "/"


async def reachable_by_get_links(client: Client) -> set[str]:
    """Every path shape restwalk-mock's GET links lead to from its root, by a plain
    breadth-first walk of every URL (no folding, no bound but the slow paths): the oracle."""
    folder = Folder()
    seen: set[str] = {ROOT}
    queue = deque([ROOT])
    shapes: set[str] = set()
    while queue:
        url = queue.popleft()
        exchange = await client.send(RequestSpec(url=url, auth=ADMIN.auth))
        response = exchange.response
        shapes.add(shape(folder.fold(response.url)))
        found = find_links(
            response.url, response.status, response.headers, response.body, response.media_type
        )
        for link in found:
            if link.method != "GET" or link.fields or link.guess:
                continue
            href = link.href
            if link.templated:
                shapes.add(shape(folder.fold_template(href)))
                base = template_base(href)
                if base is None:
                    continue
                href = base
            href = href.split("#", 1)[0]
            path = "/" + href.split("://", 1)[-1].split("/", 1)[-1]
            never_ends = link.media_type == "text/event-stream"
            if (
                not href.startswith("http://mock/")
                or any(p.search(path) for p in SLOW)
                or never_ends
            ):
                if href.startswith("http://mock/"):
                    shapes.add(shape(folder.fold(href)))
                continue
            if href not in seen:
                seen.add(href)
                queue.append(href)
    return shapes


async def test_the_map_finds_every_resource_the_openapi_document_lists_that_get_links_reach() -> (
    None
):
    async with mock_client() as client:
        document = orjson.loads(
            (await client.send(RequestSpec(url=ROOT + "openapi.json"))).response.body
        )
        reachable = await reachable_by_get_links(client)
        result = await crawl(ROOT, client_sends(client)[0], limits=WIDE, base=ADMIN)
    described = {
        shape(path) for path, operations in document["paths"].items() if "get" in operations
    }
    expected = described & reachable
    mapped = {shape(resource.template) for resource in result.api_map.resources()}
    assert len(expected) >= 30  # the oracle is no empty set
    assert expected <= mapped, sorted(expected - mapped)
    # What the document lists and no GET link reaches is said by name, so a change shows:
    # versioned copies (no link names /v1 or /v2), admin forms, httpbin's extra paths.
    unreached = described - reachable
    assert "/v2/customers/{}" in unreached
    assert result.stopped is None


async def test_a_map_sends_get_and_options_only_and_never_an_action() -> None:
    methods: list[str] = []

    async with mock_client() as client:

        async def send(spec: RequestSpec) -> Exchange:
            methods.append(spec.method)
            return await client.send(spec, follow_redirects=False)

        result = await crawl(ROOT, send, limits=WIDE, base=ADMIN)
    assert set(methods) == {"GET", "OPTIONS"}
    order = next(r for r in result.api_map.resources() if r.template == "/orders/{id}/place")
    assert order.visited == 0  # a POST action: known, never sent
    assert dict(order.methods)["POST"] == ("action place",)


async def test_each_resource_records_what_was_met() -> None:
    async with mock_client() as client:
        result = await crawl(ROOT, client_sends(client)[0], limits=WIDE)
    resources = {r.template: r for r in result.api_map.resources()}
    customer = resources["/customers/{id}"]
    assert customer.visited == 3  # per_resource: three customers say what a customer is
    assert customer.known > 3
    assert 200 in dict(customer.statuses)
    assert customer.media_types == ("application/hal+json",)
    assert {"GET", "PUT", "PATCH", "DELETE", "OPTIONS"} <= dict(customer.methods).keys()
    assert "OPTIONS" in dict(customer.methods)["PATCH"]
    assert any(line.startswith("Cache-Control: max-age") for line in customer.cache)
    assert "ETag" in customer.cache
    customers = resources["/customers"]
    assert "/customers{?name,city,sort,limit,offset}" in customers.uri_templates
    assert {"limit", "offset", "name"} <= set(customers.queries)
    assert dict(resources["/orders"].statuses) == {401: dict(resources["/orders"].statuses)[401]}
    status = resources["/status/{id}"]
    assert "/status/{code}" in status.uri_templates
    assert resources["/clients"].statuses == ((301, 1),)  # the redirect is its own resource


async def test_bounds_stop_the_crawl_and_say_which() -> None:
    async with mock_client() as client:
        pages = await crawl(ROOT, client_sends(client)[0], limits=CrawlLimits(max_pages=5, delay=0))
        shallow = await crawl(
            ROOT, client_sends(client)[0], limits=CrawlLimits(max_depth=1, delay=0)
        )
    assert len(pages.visits) == 5
    assert pages.stopped == "the page limit (5 pages)"
    assert {v.depth for v in shallow.visits} == {0, 1}
    assert shallow.skipped["deeper than 1 link"] > 0


async def test_the_time_limit_stops_the_crawl_with_what_it_mapped() -> None:
    clock = FakeClock()
    async with mock_client() as client:
        result = await crawl(
            ROOT,
            client_sends(client)[0],
            limits=CrawlLimits(time_limit=1.0, delay=0.3),
            clock=clock,
            sleep=clock.sleep,
        )
    assert result.stopped == "the time limit (1 s)"
    assert len(result.visits) == 2  # at 0 s and 0.3 s; OPTIONS took the others' turns
    assert result.api_map.visited_count == 2


async def test_a_crawl_stays_on_its_origin_and_sends_the_credential_there_only() -> None:
    sent: list[tuple[str, str | None]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append((str(request.url), request.headers.get("authorization")))
        links = {"self": {"href": "/"}, "other": {"href": "http://elsewhere.test/"}}
        return httpx.Response(200, json={"_links": links})

    async with handler_client(answer) as client:
        alone = await crawl(
            "http://api.test/", client_sends(client)[0], base=ADMIN, limits=CrawlLimits(delay=0)
        )
        sent.clear()
        both = await crawl(
            "http://api.test/",
            client_sends(client)[0],
            base=ADMIN,
            limits=CrawlLimits(delay=0, origins=frozenset({"http://elsewhere.test"})),
        )
    assert [v.final_url for v in alone.visits] == ["http://api.test/"]
    assert alone.skipped["another origin"] == 1
    assert [v.final_url for v in both.visits] == ["http://api.test/", "http://elsewhere.test/"]
    credentials = dict((url, auth) for url, auth in sent)
    assert credentials["http://api.test/"] is not None
    assert credentials["http://elsewhere.test/"] is None


async def test_retry_after_from_the_mocks_rate_limit_is_honoured() -> None:
    clock = FakeClock()
    async with mock_client(rate_limit=RateLimit(3, 10.0)) as client:
        result = await crawl(
            ROOT,
            client_sends(client)[0],
            limits=CrawlLimits(max_pages=3, delay=0, options=False),
            clock=clock,
            sleep=clock.sleep,
        )
    # The fourth request of the window is a 429 asking to wait: the wait is made (on
    # the fake clock), and the page is asked again (still refused: the mock's own
    # window runs on real time).
    assert result.waits
    assert result.waits[0].why in ("429 with Retry-After", "the rate limit's quota is used up")


def test_links_seen_but_not_followed_are_listed_by_relation() -> None:
    from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest
    from explorer.core.hypermedia.link import Link
    from explorer.core.session.api_map import ApiMap
    from explorer.core.session.trail import Page

    api_map = ApiMap()
    body = b'{"_links": {"next": {"href": "/p?page=2"}}}'
    response = ReceivedResponse(
        200,
        "OK",
        "HTTP/1.1",
        (("Content-Type", "application/hal+json"),),
        body,
        "http://api.test/p",
    )
    sent = SentRequest("GET", "http://api.test/p", ())
    page = Page(
        RequestSpec(url="http://api.test/p"),
        exchange=Exchange(sent, sent, response),
        links=(
            Link("next", "http://api.test/p?page=2"),
            Link("search", "http://api.test/p{?q}", templated=True),
        ),
    )
    assert api_map.take_page(page)
    assert not api_map.take_page(page)  # the same page adds nothing
    waiting = api_map.unfollowed()
    assert [link.href for link in waiting["next"]] == ["http://api.test/p?page=2"]
    assert waiting["search"][0].templated
    assert api_map.visited_count == 1


async def test_every_format_draws_the_map() -> None:
    async with mock_client() as client:
        limits = CrawlLimits(max_depth=2, delay=0, exclude=SLOW)
        result: CrawlResult = await crawl(ROOT, client_sends(client)[0], limits=limits)
    tree = render_map(result, "tree")
    assert "├── customers" in tree
    assert "/customers{?name,city,sort,limit,offset}" in tree
    document = orjson.loads(render_map(result, "json"))
    templates = {r["template"] for r in document["resources"]}
    assert {"/", "/customers", "/customers/{id}"} <= templates
    assert any(e["rel"] == "rw:customers" for e in document["edges"])
    mermaid = render_map(result, "mermaid")
    assert mermaid.startswith("flowchart LR\n")
    assert re.search(r'n0 -->\|"[^"]*rw:customers[^"]*"\| n\d+', mermaid)
    dot = render_map(result, "dot")
    assert dot.startswith("digraph api {")
    assert dot.rstrip().endswith("}")
    assert re.search(r'n0 -> n\d+ \[label="[^"]*rw:customers', dot)


def test_server_text_cannot_break_out_of_a_label() -> None:
    from explorer.core.survey.render_map import _dot_text, _mermaid_text

    assert _mermaid_text('x"]; click n0 "javascript:') == "x#34;]; click n0 #34;javascript:"
    assert _dot_text('a"] ; b [x="y') == 'a\\"] ; b [x=\\"y'


async def test_a_crawl_lists_event_streams_and_never_waits_on_one() -> None:
    # The mock links a text/event-stream at / and on every collection (rw:events): an
    # answer that never ends. The crawl counts them as skipped instead of fetching.
    async with mock_client() as client:
        limits = CrawlLimits(max_depth=1, delay=0, exclude=SLOW)
        result: CrawlResult = await crawl(ROOT, client_sends(client)[0], limits=limits)
    assert result.skipped["a stream (its answer never ends)"] >= 1
    visited = {r.template for r in result.api_map.resources() if r.visited}
    assert "/events" not in visited
