"""The session's pages and history, link order, reading and actions (no terminal)."""

from __future__ import annotations

import json
from dataclasses import replace

import httpx

from explorer.core.http.client import Client
from explorer.core.http.errors import ConnectError
from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest
from explorer.core.http.request import RequestSpec
from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia.link import FormField, Link
from explorer.core.session.actions import action_spec, fields_note
from explorer.core.session.hints import FINDING_LINKS, key_hint, status_hint
from explorer.core.session.ordering import link_rank, ordered
from explorer.core.session.reading import MAX_LINKS, read_response
from explorer.core.session.trail import Page, Trail, page_labels


def page(path: str, method: str = "GET") -> Page:
    return Page(RequestSpec(method=method, url=f"http://api.test{path}"))


def test_back_forward_and_visit_drops_the_pages_ahead() -> None:
    history = Trail()
    assert history.current is None
    assert history.back() is None
    for path in ("/", "/customers", "/customers/1"):
        history.visit(page(path))
    assert history.back() == page("/customers")
    assert history.back() == page("/")
    assert history.back() is None
    assert history.forward() == page("/customers")
    history.visit(page("/products"))
    assert not history.can_go_forward
    assert [p.label for p in history.breadcrumb()] == ["/", "/customers", "/products"]


def test_the_trail_counts_the_pages_forward_reaches() -> None:
    trail = Trail()
    assert trail.ahead == 0  # (no page: nothing ahead)
    for path in ("/", "/customers", "/customers/1"):
        trail.visit(page(path))
    assert trail.ahead == 0
    trail.back()
    trail.back()
    assert trail.ahead == 2
    trail.forward()
    assert trail.ahead == 1


def test_the_status_line_says_links_are_found_until_they_are_read() -> None:
    reading = replace(page("/"), reading=True)
    assert status_hint(reading) == FINDING_LINKS
    read = replace(reading, reading=False, error=ConnectError())
    assert status_hint(read) == key_hint(read) != FINDING_LINKS


def test_page_labels_name_the_server_only_when_there_are_several() -> None:
    one = [page("/customers/1"), page("/customers", "POST")]
    assert page_labels(one) == ["/customers/1", "POST /customers"]
    several = [
        *one,
        Page(RequestSpec(url="http://127.0.0.1:18732/customers/1")),
        Page(RequestSpec(url="https://api.test/")),
    ]
    assert page_labels(several) == [
        "http://api.test/customers/1",  # http and https of api.test: the scheme tells
        "POST http://api.test/customers",
        "http://127.0.0.1:18732/customers/1",
        "https://api.test/",
    ]
    assert page_labels(several[:3]) == [
        "api.test/customers/1",
        "POST api.test/customers",
        "127.0.0.1:18732/customers/1",
    ]
    assert page_labels([]) == []


def test_replace_reloads_in_place_and_limit_drops_the_oldest() -> None:
    history = Trail(limit=3)
    for path in ("/a", "/b", "/c", "/d"):
        history.visit(page(path))
    assert [p.label for p in history.pages] == ["/b", "/c", "/d"]
    history.replace(page("/d", "POST"))
    assert history.current is not None
    assert history.current.label == "POST /d"
    assert len(history.pages) == 3


def test_action_spec_fills_a_json_body_from_the_fields() -> None:
    link = Link(
        rel="create",
        href="http://api.test/orders",
        method="POST",
        source="/_templates/create",
        content_type="application/json",
        fields=(
            FormField("customerId", type="number", required=True),
            FormField("note", prompt="A note"),
            FormField("status", value="draft"),
        ),
    )
    spec = action_spec(link)
    assert spec.method == "POST"
    assert spec.url == "http://api.test/orders"
    assert spec.content_type == "application/json"
    assert spec.body == '{\n  "customerId": null,\n  "note": "",\n  "status": "draft"\n}'
    assert "customerId*: number" in fields_note(link)
    assert "note: A note" in fields_note(link)


def test_an_action_without_a_body_sends_no_content_type() -> None:
    link = Link(
        rel="delete",
        href="http://api.test/orders/1",
        method="DELETE",
        content_type="application/json",
    )
    spec = action_spec(link)
    assert (spec.body, spec.content_type) == (None, None)


def test_action_spec_nests_dotted_field_names() -> None:
    fields = ("name", "address.streetAddress", "address.city", "address.geo.lat")
    link = Link(
        rel="update",
        href="http://api.test/v2/customers/1",
        method="PUT",
        fields=tuple(FormField(name, value="x") for name in fields),
    )
    assert json.loads(action_spec(link).body or "") == {
        "name": "x",
        "address": {"streetAddress": "x", "city": "x", "geo": {"lat": "x"}},
    }
    clash = Link(
        rel="update",
        href="http://api.test/things/1",
        method="PUT",
        fields=(FormField("a", value=1), FormField("a.b", value=2), FormField(".c", value=3)),
    )
    assert json.loads(action_spec(clash).body or "") == {"a": 1, "a.b": 2, ".c": 3}
    backwards = clash._replace(fields=clash.fields[::-1])
    assert json.loads(action_spec(backwards).body or "") == {"a": 1, "a.b": 2, ".c": 3}


def test_panel_order_puts_actions_and_navigation_first() -> None:
    links = (
        Link("self", "http://api.test/orders", source="header:Link"),
        Link("self", "http://api.test/orders", source="/_links/self"),
        Link("self", "http://api.test/orders/1", source="/_embedded/orders/0/_links/self"),
        Link("search", "http://api.test/orders{?q}", templated=True, source="/_links/search"),
        Link("up", "http://api.test/", source="/_links/up"),
        Link("create", "http://api.test/orders", method="POST", source="/_templates/create"),
        Link("guess", "http://elsewhere.test/", guess=True, source="/note"),
    )
    in_order = [(link.rel, link.source) for link in ordered(links)]
    assert in_order == [
        ("create", "/_templates/create"),
        ("up", "/_links/up"),
        ("search", "/_links/search"),
        ("self", "/_embedded/orders/0/_links/self"),
        ("self", "header:Link"),
        ("self", "/_links/self"),
        ("guess", "/note"),
    ]


def test_url_helpers() -> None:
    assert origin_of("http://127.0.0.1:8000/orders?x=1") == "http://127.0.0.1:8000"
    assert origin_of("not a url") == ""


def test_a_page_waited_for_has_its_wait_begun_when_asked_unless_it_failed() -> None:
    sent = SentRequest("GET", "http://api.test/items", ())
    received = ReceivedResponse(200, "OK", "HTTP/1.1", (), b"", sent.url)
    answered = Page(RequestSpec(url=sent.url), exchange=Exchange(sent, sent, received))
    waited = answered.waited_from(12.5)
    assert waited.wait is not None
    assert (waited.wait.asked_at, waited.wait.shown_at) == (12.5, None)  # painted: the UI's
    assert answered.wait is None  # (a copy: the page as it came is not changed)
    assert waited.exchange is answered.exchange
    failed = page("/items")  # no exchange: no trip to show a wait in
    assert failed.waited_from(12.5) is failed


def test_read_response_keeps_the_first_links_and_counts_all() -> None:
    count = MAX_LINKS + 500
    body = json.dumps([{"url": f"/items/{i}"} for i in range(count)]).encode()
    sent = SentRequest("GET", "http://api.test/items", (("Accept", "*/*"),))
    received = ReceivedResponse(
        200, "OK", "HTTP/1.1", (("Content-Type", "application/json"),), body, sent.url
    )
    reading = read_response(Exchange(request=sent, final=sent, response=received))
    assert reading.found == count
    assert len(reading.links) == MAX_LINKS
    assert reading.links[0].href == "http://api.test/items/0"
    assert reading.advice


def test_a_jsonapi_resources_own_links_are_not_ranked_as_embedded() -> None:
    own = Link(rel="related", href="http://h/customers/1/orders", source="/data/links/related")
    item = Link(rel="self", href="http://h/customers/2", source="/data/1/links/self")
    hal_item = Link(
        rel="self", href="http://h/customers/3", source="/_embedded/customers/0/_links/self"
    )
    assert link_rank(own) == 1  # the document's own navigation
    assert link_rank(item) == link_rank(hal_item) == 3  # items of a collection


def test_each_page_keeps_how_it_was_left() -> None:
    history = Trail()
    history.visit(page("/a"))
    history.remember((3, 40))
    history.visit(page("/b"))
    assert history.view is None  # a new page: nothing to restore
    history.remember((1, 0))
    history.back()
    assert history.view == (3, 40)
    history.visit(page("/c"))  # drops /b and its view
    assert history.views == [(3, 40), None]
    history.back()
    assert history.view == (3, 40)


def test_a_link_search_stopped_by_its_bound_says_so_in_the_advice() -> None:
    from explorer.core.hypermedia import MAX_LINKS as SEARCH_BOUND

    body = json.dumps([{"url": f"/i/{i}"} for i in range(SEARCH_BOUND + 1)]).encode()
    sent = SentRequest("GET", "http://api.test/items", (("Accept", "*/*"),))
    received = ReceivedResponse(
        200, "OK", "HTTP/1.1", (("Content-Type", "application/json"),), body, sent.url
    )
    reading = read_response(Exchange(sent, sent, received))
    assert (
        reading.advice[0]
        == f"Not every link is listed: the search stops at {SEARCH_BOUND:,} links."
    )
    assert reading.stopped == f"the search stops at {SEARCH_BOUND:,} links"


async def test_a_201_without_location_links_the_item_its_id_names() -> None:
    """json-server 1.0.0-beta.15 answers POST /books with the item and no Location."""

    def handler(request: httpx.Request) -> httpx.Response:
        body = {"title": "Dune", "year": 1965, "id": "fqW6 ceX"}
        if request.url.path == "/api/books/":  # a route ending with a slash (DRF's)
            body = {"id": 16}
        if request.url.path == "/told":
            return httpx.Response(201, json=body, headers={"Location": "/told/1"})
        return httpx.Response(201, json=body)

    async with Client(transport=httpx.MockTransport(handler)) as client:
        made = read_response(await client.send(RequestSpec("POST", "http://js/books?x=1")))
        slashed = read_response(await client.send(RequestSpec("POST", "http://drf/api/books/")))
        told = read_response(await client.send(RequestSpec("POST", "http://js/told")))
        put = read_response(await client.send(RequestSpec("PUT", "http://js/books")))
    link = made.links[0]
    assert (link.rel, link.href, link.guess) == ("self", "http://js/books/fqW6%20ceX", True)
    assert link.made_from == "the id fqW6 ceX of the item the POST to /books created"
    assert made.found == 1
    assert slashed.links[0].href == "http://drf/api/books/16/"
    assert all(link.source != "/id" for link in (*told.links, *put.links))


def test_a_404_of_a_versioned_request_names_the_version_and_v() -> None:
    from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest

    sent = SentRequest("GET", "http://api.test/v2/items", ())
    missing = ReceivedResponse(404, "Not Found", "HTTP/1.1", (), b"", sent.url)
    versioned = RequestSpec(url="http://api.test/items", api_version=2, version_style="uri")
    hint = key_hint(Page(versioned, Exchange(sent, sent, missing)))
    assert hint.startswith("Version 2 was asked for (uri): press v to change it")
    plain = key_hint(Page(RequestSpec(url=sent.url), Exchange(sent, sent, missing)))
    assert "press v" not in plain
