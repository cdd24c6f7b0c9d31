"""What a map says beside its resources (explorer.core.survey.map_summary): links that got
no answer and links that are not http(s), apart from those not followed yet (QA 3, 3 and 8)."""

from __future__ import annotations

import httpx
import orjson

from explorer.core.http.errors import InvalidURL, ReadTimeout
from explorer.core.http.exchange import ReceivedResponse
from explorer.core.http.request import RequestSpec
from explorer.core.hypermedia.link import Link
from explorer.core.session import Session
from explorer.core.session.api_map import ApiMap
from explorer.core.session.trail import Page
from explorer.core.survey.crawl import CrawlLimits, CrawlResult, client_sends, crawl
from explorer.core.survey.map_summary import crawl_ending, not_followed, summarize
from explorer.core.survey.render_map import render_map
from tests.explorer.survey.fakes import (
    ESCAPES,
    TROUBLED,
    FakeClock,
    handler_client,
    troubled_api,
)

LIMITS = CrawlLimits(delay=0, request_timeout=5)


async def troubled_map() -> CrawlResult:
    clock = FakeClock()
    async with handler_client(troubled_api) as client:
        return await crawl(
            TROUBLED, client_sends(client)[0], limits=LIMITS, clock=clock, sleep=clock.sleep
        )


async def test_links_asked_that_failed_are_no_answer_each_with_its_reason() -> None:
    result = await troubled_map()
    summary = summarize(result.api_map)
    assert [v.final_url for v in result.visits] == [TROUBLED, TROUBLED + "items"]
    failed = {f.url: f.message for f in result.failures}
    assert [(n.url, n.reason) for n in summary.no_answer] == [
        (TROUBLED + "badgzip", failed[TROUBLED + "badgzip"]),
        (TROUBLED + "broken", failed[TROUBLED + "broken"]),
    ]
    assert summary.no_answer[0].reason.startswith("The body could not be decoded")
    assert ESCAPES in summary.no_answer[1].reason  # as it came: the view filters it
    assert [n.link.rel for n in summary.no_answer] == ["gzip", "broken"]
    # Asked and failed is not "not followed yet"; nothing else waits here.
    assert summary.unfollowed == {}
    assert summary.waiting == 0
    assert summary.counts() == (
        "2 pages visited, 0 links not followed yet, 2 with no answer, 2 not http(s)"
    )
    resources = {r.template: r for r in result.api_map.resources()}
    assert resources["/badgzip"].failed == 1
    assert resources["/badgzip"].visited == 0


async def test_links_that_are_not_http_are_listed_apart_never_resources() -> None:
    result = await troubled_map()
    summary = summarize(result.api_map)
    assert [(link.href, link.rel) for link in summary.not_http] == [
        ("javascript:alert(1)", "js"),
        ("file:///etc/passwd", "file"),
    ]
    resources = result.api_map.resources()
    assert {r.template for r in resources} == {"/", "/items", "/badgzip", "/broken"}
    assert {r.origin for r in resources} == {"http://api.test"}
    # Met on two pages, the javascript: link is one link not followed, not two.
    assert dict(result.skipped) == {"not http(s)": 2}
    assert not_followed(result) == "Not followed: 2 (not http(s))"


async def test_the_tree_says_what_failed_and_why_and_lists_what_is_not_http() -> None:
    # QA 3, 8: javascript:alert(1) was a resource alert({id}), file:///etc/passwd one
    # etc/passwd, both under a "/" tree apart from the server's.
    result = await troubled_map()
    tree = render_map(result, "tree")
    lines = tree.splitlines()
    assert lines[0].startswith("Map of http://api.test/: 4 resources (2 answered), 2 pages")
    assert "alert" not in "\n".join(lines[:-2])
    assert "etc/passwd" not in "\n".join(lines[:-2])
    assert lines.count("http://api.test") == 1
    assert "/" not in lines  # no second tree of paths without an origin
    assert "├── badgzip  no answer · ← gzip" in lines
    assert "Every safe link within the bounds was followed." not in lines
    assert "Every safe link within the bounds was asked for; 2 requests got no answer." in lines
    assert "Not followed: 2 (not http(s))" in lines
    reason = result.failures[0].message
    assert f"No answer from http://api.test/badgzip: {reason}" in lines
    assert lines[-2:] == [
        "Not http(s), not followed: javascript:alert(1) ← js",
        "Not http(s), not followed: file:///etc/passwd ← file",
    ]
    document = orjson.loads(render_map(result, "json"))
    assert document["not_http"] == [
        {"href": "javascript:alert(1)", "rel": "js"},
        {"href": "file:///etc/passwd", "rel": "file"},
    ]
    assert [r["failed"] for r in document["resources"] if r["template"] == "/broken"] == [1]
    mermaid = render_map(result, "mermaid")
    assert "alert" not in mermaid
    assert "passwd" not in mermaid


async def test_every_safe_link_is_said_followed_only_when_each_answered() -> None:
    def fine(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"_links": {"self": {"href": "/"}}})

    async with handler_client(fine) as client:
        result = await crawl(TROUBLED, client_sends(client)[0], limits=LIMITS)
    assert crawl_ending(result) == "every safe link within the bounds was followed"
    assert not_followed(result) is None
    troubled = await troubled_map()
    assert crawl_ending(troubled) == (
        "every safe link within the bounds was asked for; 2 requests got no answer"
    )
    stopped = CrawlResult(
        TROUBLED, ApiMap(), failures=troubled.failures, stopped="the time limit (1 s)"
    )
    assert crawl_ending(stopped) == (
        "stopped at the time limit (1 s): links were left to follow; 2 requests got no answer"
    )


def answered(url: str) -> ReceivedResponse:
    return ReceivedResponse(200, "OK", "HTTP/1.1", (), b"{}", url)


def test_an_answer_clears_a_failure_and_a_failure_leaves_an_answer_as_it_was() -> None:
    api_map = ApiMap()
    api_map.take_link(TROUBLED, Link("next", TROUBLED + "p2"), 1)
    api_map.take_failure(TROUBLED + "p2", "No answer within 15 s.")
    assert [n.reason for n in summarize(api_map).no_answer] == ["No answer within 15 s."]
    assert summarize(api_map).unfollowed == {}
    api_map.take_response(answered(TROUBLED + "p2"))
    assert summarize(api_map).no_answer == ()
    api_map.take_failure(TROUBLED + "p2", "The connection broke.")
    assert summarize(api_map).no_answer == ()
    assert api_map.is_visited(TROUBLED + "p2")
    api_map.take_failure("javascript:alert(1)", "refused")
    assert api_map.urls.keys() == {TROUBLED + "p2"}


def test_a_page_the_browser_asked_that_failed_is_no_answer_in_the_sessions_map() -> None:
    session = Session()
    url = TROUBLED + "broken"
    session.arrived(Page(RequestSpec(url=url), error=ReadTimeout("The server sent no answer.")))
    assert [(n.url, n.reason) for n in summarize(session.map).no_answer] == [
        (url, "The server sent no answer.")
    ]
    # A request that was never sent says nothing of its URL.
    bad = TROUBLED + "x y"
    session.arrived(Page(RequestSpec(url=bad), error=InvalidURL("The URL is not valid.")))
    assert bad not in session.map.urls


def test_a_template_is_web_unless_its_scheme_says_otherwise() -> None:
    api_map = ApiMap()
    api_map.take_link(TROUBLED, Link("find", TROUBLED + "items{?q}", templated=True), 1)
    api_map.take_link(TROUBLED, Link("base", "{+base}/items", templated=True), 1)
    api_map.take_link(TROUBLED, Link("mail", "mailto:{who}", templated=True), 1)
    assert set(api_map.templates) == {TROUBLED + "items{?q}", "{+base}/items"}
    assert [link.href for link in summarize(api_map).not_http] == ["mailto:{who}"]
