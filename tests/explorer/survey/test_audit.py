"""The REST audit of restwalk-mock in-process, and of small APIs that break one rule each."""

from __future__ import annotations

import httpx
import orjson

from explorer.core.session.api_map import ApiMap
from explorer.core.survey.audit import Audit, grade_of, run_audit
from explorer.core.survey.audit_probes import MISSING_PATH, PROBE_METHOD
from explorer.core.survey.crawl import CrawlLimits, client_sends
from explorer.core.survey.render_audit import audit_json, audit_text
from tests.explorer.survey.fakes import FakeClock, handler_client, mock_client

LIMITS = CrawlLimits(max_pages=40, delay=0, time_limit=60.0)


async def audit_of(client_factory: object, url: str, api_map: ApiMap | None = None) -> Audit:
    clock = FakeClock()
    async with client_factory() as client:  # type: ignore[operator]
        send, without_cookies = client_sends(client)
        return await run_audit(
            url,
            send,
            limits=LIMITS,
            without_cookies=without_cookies,
            clock=clock,
            sleep=clock.sleep,
            api_map=api_map,
        )


def figure(audit: Audit, key: str, index: int) -> tuple[int, int]:
    constraint = next(c for c in audit.constraints if c.key == key)
    return constraint.figures[index].passed, constraint.figures[index].total


async def test_restwalk_mock_keeps_the_constraints() -> None:
    audit = await audit_of(mock_client, "http://mock/")
    assert audit.grade == "A"
    assert audit.level == 3
    passed, total = figure(audit, "uniform", 0)
    assert passed == total == 2  # 501 for the made-up method, at the root and a resource
    passed, total = figure(audit, "uniform", 2)
    assert passed == total > 0  # HEAD is GET without a body
    passed, total = figure(audit, "errors", 0)
    assert passed == total > 0  # every error is problem details
    passed, total = figure(audit, "cacheable", 2)
    assert passed == total > 0  # conditional GETs get 304
    # ?version=2 shows in no link: its OpenAPI description names it.
    assert audit.versioning.styles == ("uri", "query", "header")
    assert any("version query parameter (GET /customers)" in e for e in audit.versioning.evidence)
    assert audit.description is not None
    text = audit_text(audit)
    assert f"✓ {PROBE_METHOD} / → 501" in text
    assert f"GET {MISSING_PATH} → 404 application/problem+json: problem details" in text
    document = orjson.loads(audit_json(audit))
    assert document["grade"] == "A"
    assert [c["key"] for c in document["constraints"]] == [
        "hypermedia",
        "uniform",
        "cacheable",
        "stateless",
        "errors",
    ]


def plain_api(request: httpx.Request) -> httpx.Response:
    """An API of bare JSON: no link, no cache header, 404 as HTML, 200 to any method."""
    if request.url.path == "/":
        return httpx.Response(200, json={"books": "/books"})
    if request.url.path == "/books":
        return httpx.Response(200, json=[{"id": 1}, {"id": 2}])
    if request.url.path.startswith("/books/"):
        return httpx.Response(200, json={"id": 1, "title": "Dune"})
    return httpx.Response(404, html="<h1>Not Found</h1>")


async def test_a_plain_json_api_scores_low_and_the_examples_say_why() -> None:
    audit = await audit_of(lambda: handler_client(plain_api), "http://api.test/")
    assert audit.grade in ("D", "F")
    assert audit.level <= 2
    text = audit_text(audit)
    assert f"✗ {PROBE_METHOD} / → 200: it answered as if the method meant something" in text
    assert "✗ /books: no link; restwalk made 2 by convention (ids and page numbers)" in text
    assert "✗ /books/{id}: reached only by links restwalk made by convention" in text
    assert f"✗ GET {MISSING_PATH} → 404 text/html: a web page" in text
    assert figure(audit, "cacheable", 0) == (0, 4)


def offset_api(request: httpx.Request) -> httpx.Response:
    """A FastAPI-like API: a root of bare URL strings, and pages of items with an offset, a
    limit and a total, whose next page is in a Link header."""
    if request.url.path == "/":
        return httpx.Response(200, json={"items": "/items"})
    if request.url.path == "/items" and request.method == "GET":
        offset = int(request.url.params.get("offset", "0"))
        items = [{"id": n, "name": f"Widget {n}"} for n in range(offset + 1, offset + 3)]
        headers = {"Link": f'</items?offset={offset + 2}&limit=2>; rel="next"'}
        body = {"items": items, "total": 6, "limit": 2, "offset": offset}
        return httpx.Response(200, json=body, headers=headers)
    return httpx.Response(404, json={"detail": "Not Found"})


async def test_links_restwalk_made_are_not_counted_as_typed_links_the_api_wrote() -> None:
    # QA 3: "/items: -2 links are bare URL strings": the first and last pages made from
    # the offset were counted as typed, though not among the links the answer wrote.
    audit = await audit_of(lambda: handler_client(offset_api), "http://api.test/")
    text = audit_text(audit)
    assert "-" not in "".join(line for line in text.splitlines() if "bare URL" in line)
    assert "✓ /items: typed links" in text
    assert "✗ /: 1 link is a bare URL string" in text


def one_page(request: httpx.Request) -> httpx.Response:
    """An API of one page that links to itself alone."""
    body = {"_links": {"self": {"href": "/"}}}
    return httpx.Response(
        200, content=orjson.dumps(body), headers={"content-type": "application/hal+json"}
    )


async def test_counts_of_one_are_singular() -> None:
    # QA 1, item 14: "1 pages mapped", "Only 1 answers in JSON".
    audit = await audit_of(lambda: handler_client(one_page), "http://api.test/")
    text = audit_text(audit)
    assert "\n1 resource (1 answered), 1 page mapped, " in text
    assert "Only 1 answer in JSON or XML was met from this entry" in text
    assert "✓ /: 1 link\n" in text
    assert " 1 pages" not in text
    assert " 1 answers" not in text


def session_api(request: httpx.Request) -> httpx.Response:
    """An API that keeps state: the first answer sets a session, later ones need it."""
    if "session=1" in request.headers.get("cookie", ""):
        return httpx.Response(200, json={"_links": {"self": {"href": "/"}}})
    if request.url.path == "/":
        return httpx.Response(
            200, headers={"Set-Cookie": "session=1; Path=/"}, json={"_links": {"a": {"href": "/a"}}}
        )
    return httpx.Response(401, json={"detail": "log in"})


async def test_answers_that_change_without_the_cookie_show_state_on_the_server() -> None:
    audit = await audit_of(lambda: handler_client(session_api), "http://api.test/")
    stateless = next(c for c in audit.constraints if c.key == "stateless")
    assert stateless.figures[0].passed < stateless.figures[0].total  # a cookie was set
    needing = stateless.figures[1]
    assert needing.total >= 1
    assert needing.passed < needing.total
    assert "state kept on the server" in audit_text(audit)
    assert stateless.why == "answers change without the cookies: the server keeps session state"


def test_grades() -> None:
    assert [grade_of(s) for s in (0.95, 0.8, 0.65, 0.45, 0.1, None)] == [
        "A",
        "B",
        "C",
        "D",
        "F",
        "?",
    ]


def plain_text(request: httpx.Request) -> httpx.Response:
    """A server of one text/plain page."""
    return httpx.Response(200, text="hello", headers={"content-type": "text/plain"})


async def test_no_answer_in_json_is_said_so() -> None:
    # QA 2, item 17: "Only 0 answers in JSON or XML were met from this entry".
    audit = await audit_of(lambda: handler_client(plain_text), "http://api.test/")
    text = audit_text(audit)
    assert "No answer in JSON or XML was met from this entry" in text
    assert "Only 0" not in text
