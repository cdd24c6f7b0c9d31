"""The Richardson level step by step, reach that needs a link, one count for map and audit."""

from __future__ import annotations

import httpx
import orjson

from explorer.core.http.request import RequestSpec
from explorer.core.session.api_map import ApiMap
from explorer.core.survey.crawl import CrawlLimits, client_sends, crawl
from explorer.core.survey.map_summary import map_counts, summarize
from explorer.core.survey.render_audit import audit_json, audit_text
from explorer.core.survey.render_map import map_tree
from tests.explorer.survey.fakes import handler_client, mock_client
from tests.explorer.survey.test_audit import audit_of
from tests.explorer.survey.test_audit_wild import replayed


def no_links(request: httpx.Request) -> httpx.Response:
    """An API of plain JSON pages, none of which links anywhere."""
    if request.method not in ("GET", "HEAD"):
        return httpx.Response(405, headers={"Allow": "GET, HEAD"})
    return httpx.Response(200, json={"name": "a thing", "count": 3})


async def test_an_api_without_a_link_is_reached_by_none() -> None:
    audit = await audit_of(lambda: handler_client(no_links), "http://api.test/")
    hypermedia = next(c for c in audit.constraints if c.key == "hypermedia")
    reached = hypermedia.figures[3]
    assert (reached.passed, reached.total) == (0, 0)
    assert reached.note == "no resource but the entry was found"
    assert "reached from the entry by links alone" not in hypermedia.why
    assert audit.level == 0
    first = audit.steps[0]
    assert (first.level, first.reached) == (1, False)
    assert first.seen == "only / answered"
    assert first.missing.startswith("more than one resource")


async def test_json_server_s_entry_is_not_reached_by_a_link_it_never_wrote() -> None:
    # json-server 0.17 from /books: no answer carries a link; /books/{id} is restwalk's guess.
    audit = await replayed("json-server-0.17")
    hypermedia = next(c for c in audit.constraints if c.key == "hypermedia")
    carrying, _, _, reached = hypermedia.figures
    assert (carrying.passed, reached.passed, reached.total) == (0, 0, 1)
    assert [example.text for example in reached.examples] == [
        "/books/{id}: reached only by links restwalk made by convention"
    ]
    hypermedia_step = audit.steps[2]
    assert not hypermedia_step.reached
    assert hypermedia_step.missing.startswith("a link in the answers that the API writes")


async def test_the_level_is_explained_step_by_step() -> None:
    audit = await audit_of(mock_client, "http://mock/")
    assert audit.level == 3
    assert [(step.level, step.reached, step.missing) for step in audit.steps] == [
        (1, True, ""),
        (2, True, ""),
        (3, True, ""),
    ]
    text = audit_text(audit)
    assert "Richardson maturity level 3, step by step:\n  ✓ level 1, resources: " in text
    assert "  ✓ level 2, HTTP's methods and statuses: the uniform interface scores 100%: " in text
    assert "  ✓ level 3, hypermedia: the hypermedia figures score " in text
    steps = orjson.loads(audit_json(audit))["richardson_steps"]
    assert [step["level"] for step in steps] == [1, 2, 3]
    assert all(step["seen"] for step in steps)


async def test_a_step_not_reached_says_what_is_missing() -> None:
    audit = await replayed("json-server-1")
    assert audit.level == 1
    text = audit_text(audit)
    assert "  ✓ level 1, resources: " in text
    assert "  ✗ level 2, HTTP's methods and statuses: the uniform interface scores " in text
    assert "      missing for level 2: a score of half or more (33% now); short of full: " in text
    # Its links would do for level 3, but the levels are climbed in order.
    assert "  ✓ level 3, hypermedia: " in text
    assert "      not counted: level 2 comes first\n" in text


async def test_map_and_audit_count_the_same_crawl_alike() -> None:
    # The TUI's audit fills the map the person browsed: both count from that map. The
    # page browsed is one the audit's crawl does not ask for (another of a resource).
    browsed = ApiMap()
    async with mock_client() as client:
        send, _ = client_sends(client)
        first = await crawl(
            "http://mock/customers?limit=1&offset=5",
            send,
            limits=CrawlLimits(max_pages=1, delay=0),
            base=RequestSpec(),
            api_map=browsed,
        )
        assert len(first.visits) == 1
    audit = await audit_of(mock_client, "http://mock/", api_map=browsed)
    counts = map_counts(browsed, "http://mock/")
    assert counts.pages == summarize(browsed).visited > len(audit.crawl.visits)
    line = f"{counts.resources_line()}, {counts.pages} pages"
    assert f"\n{line} mapped, " in audit_text(audit)
    assert map_tree(audit.crawl).splitlines()[0].startswith(f"Map of http://mock/: {line}, ")
    assert orjson.loads(audit_json(audit))["pages"] == counts.pages
