"""The browsing session as plain unit tests: the mock server's ASGI app, no terminal.

Each numbered test is one thing a person met in the TUI (issue 10), decided
here now, where it is tested without Textual.
"""

from __future__ import annotations

import subprocess
import sys
from http import HTTPStatus

import httpx
import pytest

from explorer.core.http.client import Client
from explorer.core.http.errors import ConnectError, LoginFailed
from explorer.core.http.request import BasicAuth, LoginFlow, RequestSpec
from explorer.core.session import Page, Session
from explorer.core.session.choice import NumberEntry, choose_link
from explorer.core.session.credentials import login_kind_for
from explorer.core.session.reading import read_response
from explorer.core.session.typed_url import resolve_typed_url
from explorer.core.session.version import VersionChoice
from mock_server import Settings, create_app
from tests.mock_server.conftest import TEST_HOSTS

MOCK = "http://mock"


@pytest.fixture
def client(mock_client: Client) -> Client:
    """The client on the mock server (tests/explorer/core/conftest.py)."""
    return mock_client


async def visit(session: Session, client: Client, spec: RequestSpec, **kw: bool) -> Page:
    """What the browser screen does with a request: prepare, send, read, record."""
    spec = session.prepare(spec, typed=kw.pop("typed", False))
    try:
        exchange = await client.send(spec)
    except ConnectError as error:
        return session.arrived(Page(spec, error=error), **kw)
    reading = read_response(exchange)
    page = Page(spec, exchange, links=reading.links, links_found=reading.found)
    return session.arrived(page, **kw)


def test_importing_the_session_loads_no_textual() -> None:
    code = (
        "import sys, explorer.core.session, explorer.core.session.session\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'textual'], 'textual'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# 1. After a login, only a safe request is sent again.
async def test_after_login_a_get_is_sent_again_and_a_post_is_composed(client: Client) -> None:
    session = Session()
    await visit(session, client, RequestSpec(url=f"{MOCK}/orders"))
    step = session.after_login(MOCK, BasicAuth("alice", "wonderland"))
    assert step is not None
    assert (step.kind, step.spec.method) == ("send", "GET")
    assert step.spec.auth == BasicAuth("alice", "wonderland")

    body = '{"name": "Ann", "address": "1 Main St, Springfield, IL 62701"}'
    post = RequestSpec(method="POST", url=f"{MOCK}/customers", body=body)
    session.set_credential(MOCK, None)
    page = await visit(session, client, post)
    assert page.status == HTTPStatus.UNAUTHORIZED
    step = session.after_login(MOCK, BasicAuth("alice", "wonderland"))
    assert step is not None
    assert step.kind == "compose"  # never re-sent behind the person's back
    assert step.note.startswith("Logged in. Send this POST again?")
    page = await visit(session, client, step.spec)
    assert page.status == HTTPStatus.CREATED


# 2. A URL typed in full is sent as typed; followed links get the version.
async def test_a_typed_url_gets_no_version_a_followed_link_does(client: Client) -> None:
    session = Session()
    session.set_version(MOCK, VersionChoice(2, "uri"))
    page = await visit(session, client, RequestSpec(url=f"{MOCK}/status/418"), typed=True)
    assert page.status == 418
    assert page.exchange is not None
    assert page.exchange.final.url == f"{MOCK}/status/418"
    followed = await visit(session, client, RequestSpec(url=f"{MOCK}/customers/1"))
    assert followed.exchange is not None
    assert followed.exchange.final.url == f"{MOCK}/v2/customers/1"


# 3. The URL bar resolves /path against the page and defaults to http://.
@pytest.mark.parametrize(
    ("typed", "base", "url"),
    [
        ("/customers", "http://127.0.0.1:8000/orders/1", "http://127.0.0.1:8000/customers"),
        ("?limit=5", "http://h:1/customers?x=1", "http://h:1/customers?limit=5"),
        ("127.0.0.1:8000/orders", None, "http://127.0.0.1:8000/orders"),
        ("localhost/x", "http://h/", "http://localhost/x"),
        ("https://api.test/a", "http://h/", "https://api.test/a"),
        ("  /a  ", "http://h/b/c", "http://h/a"),
        ("localhost:8000", None, "http://localhost:8000"),
        ("api.test:8080?x=1", None, "http://api.test:8080?x=1"),
        ("alice:pw@h/x", None, "http://alice:pw@h/x"),
        # Another scheme is kept, to be refused by its name, not read as a host and port.
        ("javascript:alert(1)", "http://h/", "javascript:alert(1)"),
        ("mailto:ann@example.com", None, "mailto:ann@example.com"),
    ],
)
def test_typed_urls_resolve_like_a_browsers_url_bar(typed: str, base: str | None, url: str) -> None:
    assert resolve_typed_url(typed, base) == url


# 4. Headers chosen for a server are kept for it, shown, and can be dropped.
async def test_kept_headers_go_on_every_request_to_their_server(client: Client) -> None:
    session = Session()
    kept = session.keep_headers(
        MOCK,
        (
            ("Accept", "application/vnd.siren+json"),
            ("Content-Type", "application/json"),
            ("Authorization", "Bearer x"),
        ),
    )
    assert kept == ["Accept"]  # a body's and the credential's headers are not kept
    assert "+1 header" in session.badge(MOCK)
    page = await visit(session, client, RequestSpec(url=f"{MOCK}/customers"))
    assert page.exchange is not None
    assert page.exchange.response.media_type == "application/vnd.siren+json"
    other = session.prepare(RequestSpec(url="http://elsewhere.test/"))
    assert other.headers == ()  # another server gets nothing
    assert session.drop_header(f"{MOCK}/any/path", "accept")
    assert session.prepare(RequestSpec(url=f"{MOCK}/x")).headers == ()


# 5. One rule for typed numbers; the Enter of a followed number does nothing more.
def test_number_entry_follows_at_once_when_unambiguous_and_swallows_its_enter() -> None:
    entry = NumberEntry()
    step = entry.digit(7, count=45)  # no link 70 on a page of 45
    assert (step.kind, step.number) == ("follow", 7)
    assert entry.enter().kind == "done"  # "7 Enter" is one gesture, not two follows
    assert entry.enter().kind == "none"  # a later Enter is the person's own again
    assert entry.digit(1, count=45).kind == "wait"
    step = entry.digit(2, count=45)
    assert (step.kind, step.number) == ("follow", 12)
    assert entry.digit(4, count=45).kind == "wait"
    step = entry.enter()
    assert (step.kind, step.number) == ("follow", 4)
    assert entry.digit(9, count=5).kind == "bad"
    entry.digit(1, count=45)
    entry.other_key()
    assert entry.enter().kind == "none"


def test_links_are_chosen_by_number_relation_or_title() -> None:
    from explorer.core.hypermedia.link import Link

    links = (
        Link("next", "http://h/p2", title="Next page"),
        Link("rw:customers", "http://h/customers", title="Customers"),
        Link("self", "http://h/c/1", source="/_embedded/customers/0/_links/self"),
    )
    assert choose_link(links, "2") is links[1]
    assert choose_link(links, "4") is None
    assert choose_link(links, "customers") is links[1]
    assert choose_link(links, "Next page") is links[0]
    assert choose_link(links, "next page") is links[0]
    assert choose_link(links, "item") is links[2]


# 8. The login the server's challenge offers; "set" only when the server accepts it.
def test_the_login_kind_follows_www_authenticate() -> None:
    assert login_kind_for(['Basic realm="httpbin"']) == "basic"
    assert login_kind_for(['Bearer realm="x", Basic realm="x"'], login_known=True) == "token"
    # No challenge at all (a 403, a server that sends none): as Bearer.
    assert login_kind_for([]) == "bearer"
    assert login_kind_for([], login_known=True) == "token"


async def test_a_bearer_challenge_preselects_a_token_to_paste_unless_a_login_url_is_known() -> None:
    """No tokenUrl, no --login, not the bundled mock: a login at a guessed <origin>/auth/token
    is offered but not chosen (QA 2, item 4)."""
    assert login_kind_for(['Bearer realm="x"']) == "bearer"
    assert login_kind_for(['Bearer realm="x"'], login_known=True) == "token"

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/login":
            return httpx.Response(200, json={"access_token": "t", "token_type": "bearer"})
        return httpx.Response(401, headers={"WWW-Authenticate": "Bearer"})

    session = Session()
    async with Client(transport=httpx.MockTransport(handler)) as api:
        await visit(session, api, RequestSpec(url="http://api/me"))
        assert session.login_url() is None
        assert session.login_kind() == "bearer"
        assert session.login_kind(login_known=True) == "token"
        flow = LoginFlow("http://api/login", "alice", "pw")
        await visit(session, api, RequestSpec(url="http://api/me", auth=flow))  # --login
        assert session.login_url() == "http://api/login"  # the tab's login offer counts it


async def test_with_no_answer_shown_the_login_kind_is_the_no_challenge_rule() -> None:
    """No page yet, or a send that failed, holds no challenge: as ``login_kind_for([])``,
    a token to paste unless a login URL is known (once a user + password login at a
    guessed URL)."""
    session = Session()
    assert session.shown is None
    assert session.login_kind() == "bearer"
    assert session.login_kind(login_known=True) == "token"

    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("Connection refused", request=request)

    async with Client(transport=httpx.MockTransport(refused)) as down:
        failed = await visit(session, down, RequestSpec(url="http://api/me"))
        assert session.shown is failed
        assert failed.exchange is None
        assert session.login_kind() == "bearer"
        assert session.login_kind(login_known=True) == "token"


async def test_a_login_asked_on_a_page_without_a_challenge_offers_its_origin_s_last() -> None:
    """Django REST Framework reads freely and answers a POST 401 with ``WWW-Authenticate:
    Token``: back on a page that read, the login still offers a Token key."""

    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            return httpx.Response(401, headers={"WWW-Authenticate": "Token"})
        return httpx.Response(200, json={"count": 0, "results": []})

    session = Session()
    async with Client(transport=httpx.MockTransport(handler)) as drf:
        await visit(session, drf, RequestSpec(url="http://drf/api/books/"))
        assert (session.login_kind(), session.token_scheme()) == (
            "bearer",
            "Bearer",
        )  # nothing known: a token to paste
        await visit(session, drf, RequestSpec("POST", "http://drf/api/books/"))
        await visit(session, drf, RequestSpec(url="http://drf/api/authors/"))
        assert session.challenges() == ["Token"]
        assert (session.login_kind(), session.token_scheme()) == ("bearer", "Token")
        await visit(session, drf, RequestSpec(url="http://other/api/"))
        assert session.challenges() == []  # another origin's are its own


async def test_a_send_that_failed_keeps_its_origin_s_last_challenge() -> None:
    """A 401 asked for ``Token``; the next send to that origin fails (the server went
    down): the login still offers a Token key, as on a page that read."""
    down = False

    def handler(request: httpx.Request) -> httpx.Response:
        if down:
            raise httpx.ConnectError("Connection refused", request=request)
        return httpx.Response(401, headers={"WWW-Authenticate": "Token"})

    session = Session()
    async with Client(transport=httpx.MockTransport(handler)) as drf:
        await visit(session, drf, RequestSpec(url="http://drf/api/books/"))
        down = True
        failed = await visit(session, drf, RequestSpec(url="http://drf/api/authors/"))
        assert failed.exchange is None
        assert session.challenges() == ["Token"]
        assert (session.login_kind(), session.token_scheme()) == ("bearer", "Token")
        await visit(session, drf, RequestSpec(url="http://other/api/"))
        assert session.challenges() == []  # a failed send elsewhere: that origin's none


async def test_a_refused_credential_is_dropped_and_a_good_one_proven(client: Client) -> None:
    session = Session()
    session.set_credential(MOCK, BasicAuth("bob", "wrong"))
    page = await visit(session, client, RequestSpec(url=f"{MOCK}/orders"))
    assert session.check_login(page) is False
    assert session.credential(MOCK) is None
    session.set_credential(MOCK, BasicAuth("alice", "wonderland"))
    page = await visit(session, client, RequestSpec(url=f"{MOCK}/orders"))
    assert session.check_login(page) is True
    assert session.credential(MOCK) == BasicAuth("alice", "wonderland")
    flow = LoginFlow(f"{MOCK}/auth/token", "alice", "nope")
    failed = Page(RequestSpec(url=f"{MOCK}/orders", auth=flow), error=LoginFailed("no"))
    session.set_credential(MOCK, flow)
    assert session.check_login(failed) is False


def test_the_badge_says_when_the_credential_is_for_another_server() -> None:
    session = Session()
    session.set_credential("http://127.0.0.1:8000/", BasicAuth("alice", "x"))
    assert session.badge("http://127.0.0.1:8000/orders") == "🔑 alice (basic)"
    assert session.badge("http://httpbin.test/get") == "🔑 for 127.0.0.1:8000 only"
    assert session.log_out("http://127.0.0.1:8000/") == "alice (basic)"
    assert session.badge("http://127.0.0.1:8000/") == ""


def test_s_saves_the_request_shown_else_a_get_of_the_url_typed() -> None:
    session = Session()
    assert session.to_save("") == RequestSpec(url=session.resolve("/"))  # nothing typed: /
    assert session.to_save("httpbin.test/get").url == "http://httpbin.test/get"
    posted = RequestSpec(method="POST", url="http://api.test/orders", body='{"n": 1}')
    session.arrived(Page(posted))
    assert session.to_save("httpbin.test/get") == posted  # the page's, not what is typed


# 9. A 304 shows the body it revalidated.
async def test_a_304_carries_the_body_the_session_already_had(client: Client) -> None:
    session = Session()
    first = await visit(session, client, RequestSpec(url=f"{MOCK}/customers/1"))
    assert first.exchange is not None
    etag = first.exchange.response.header("etag")
    assert etag
    spec = RequestSpec(url=f"{MOCK}/customers/1", headers=(("If-None-Match", etag),))
    page = await visit(session, client, spec)
    assert page.status == HTTPStatus.NOT_MODIFIED
    assert page.revalidated is not None
    assert page.revalidated.body == first.exchange.response.body
    assert page.links == first.links  # and its links, numbered as before
    assert page.links


# 14. A failed send is shown, not recorded; back returns to the page it left.
async def test_a_failed_send_enters_no_history() -> None:
    session = Session()
    app = create_app(Settings(rate_limit=None, allowed_hosts=TEST_HOSTS))
    async with Client(transport=httpx.ASGITransport(app=app)) as client:
        await visit(session, client, RequestSpec(url=f"{MOCK}/"))
    async with Client(timeout=2) as closed:
        page = await visit(session, closed, RequestSpec(url="http://127.0.0.1:9/"))
    assert page.error is not None
    assert session.shown is page
    assert len(session.trail.pages) == 1
    assert session.can_go(-1)  # back from the failure, though the trail has one page
    assert not session.can_go(1)
    shown = session.go(-1)
    assert not session.can_go(-1)
    assert shown is session.trail.current
    assert shown is not None
    assert shown.spec.url == f"{MOCK}/"


# 14b. r on a failed send (a link followed that got no answer) sends it again as a new
# page: the page it was sent from stays behind it, for alt+left (QA: the reload took
# that page's place in the trail, and back had nowhere to go).
async def test_reloading_a_failed_follow_keeps_the_page_it_left(client: Client) -> None:
    session = Session()
    await visit(session, client, RequestSpec(url=f"{MOCK}/"))
    session.arrived(Page(RequestSpec(url=f"{MOCK}/customers"), error=ConnectError("refused")))
    step = session.reload()
    assert step is not None
    assert step.kind == "send"
    assert step.reload
    await visit(session, client, step.spec, record=False)  # what the screen does for r
    assert [page.url for page in session.trail.pages] == [f"{MOCK}/", f"{MOCK}/customers"]
    # A reload of a page that was in the trail still takes its place, even after a
    # reload of it failed on the way.
    session.arrived(
        Page(RequestSpec(url=f"{MOCK}/customers"), error=ConnectError("refused")), record=False
    )
    await visit(session, client, RequestSpec(url=f"{MOCK}/customers"), record=False)
    assert [page.url for page in session.trail.pages] == [f"{MOCK}/", f"{MOCK}/customers"]


def test_reload_asks_before_an_unsafe_method_and_says_what_put_is() -> None:
    session = Session()
    for method in ("PUT", "POST", "GET"):
        session.arrived(
            Page(
                RequestSpec(method=method, url=f"{MOCK}/customers/1"),
                exchange=None,
                error=None,
            )
        )
        step = session.reload()
        assert step is not None
        if method == "GET":
            assert step.kind == "send"
            assert step.reload  # a cache checks it with the server
        else:
            assert step.kind == "compose"
    session.arrived(Page(RequestSpec(method="PUT", url=f"{MOCK}/c/1")))
    note = session.reload()
    assert note is not None
    assert "idempotent, not safe" in note.note


def test_reload_while_a_request_is_underway_sends_that_one_again_as_it_went() -> None:
    """A browser's reload while a page loads loads that URL over, not the page shown: its
    credential the one in use now, its API version the one it was sent with."""
    session = Session()
    session.arrived(Page(RequestSpec(url=f"{MOCK}/customers")))
    session.set_credential(MOCK, BasicAuth("alice", "wonderland"))
    session.set_version(MOCK, VersionChoice("2", "header"))
    typed = session.prepare(RequestSpec(url=f"{MOCK}/customers/1"), typed=True)
    step = session.reload(typed, via="link")
    assert step is not None
    assert (step.kind, step.spec.url, step.via, step.reload) == (
        "send",
        f"{MOCK}/customers/1",
        "link",
        True,
    )
    assert step.spec.auth == BasicAuth("alice", "wonderland")
    assert step.spec.api_version is None  # typed in full: sent as typed, again
    posted = RequestSpec(method="POST", url=f"{MOCK}/customers", body='{"name": "Ann"}')
    step = session.reload(session.prepare(posted))
    assert step is not None
    assert (step.kind, step.spec.method, step.spec.auth) == ("compose", "POST", None)


def test_a_304_hint_says_the_copy_is_valid_and_never_to_follow_a_missing_location() -> None:
    from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest
    from explorer.core.session.hints import key_hint

    sent = SentRequest("GET", f"{MOCK}/customers/1", ())
    not_modified = ReceivedResponse(304, "Not Modified", "HTTP/1.1", (), b"", sent.url)
    page = Page(RequestSpec(url=sent.url), Exchange(sent, sent, not_modified))
    assert "Location" not in key_hint(page)
    assert "restwalk has none" in key_hint(page)
    had = ReceivedResponse(200, "OK", "HTTP/1.1", (), b"{}", sent.url)
    from dataclasses import replace

    assert "already had" in key_hint(replace(page, revalidated=had))
    found = ReceivedResponse(302, "Found", "HTTP/1.1", (), b"", sent.url)
    assert "No Location to follow" in key_hint(
        Page(RequestSpec(url=sent.url), Exchange(sent, sent, found))
    )


async def test_after_log_out_a_reload_goes_without_the_credential(client: Client) -> None:
    session = Session()
    flow = LoginFlow(f"{MOCK}/auth/token", "alice", "wonderland")
    session.set_credential(MOCK, flow)
    page = await visit(session, client, RequestSpec(url=f"{MOCK}/orders"))
    assert page.status == HTTPStatus.OK
    session.log_out(MOCK)
    assert client.forget(MOCK) == 0  # the token logged in there goes too
    step = session.reload()
    assert step is not None
    assert step.spec.auth is None
    page = await visit(session, client, step.spec, record=False)
    assert page.status == HTTPStatus.UNAUTHORIZED


def test_a_number_past_the_last_link_is_refused_and_a_pause_forgets_a_half_typed_one() -> None:
    entry = NumberEntry()
    assert entry.digit(4, count=48, now=100.0).kind == "wait"
    step = entry.digit(9, count=48, now=100.5)  # no link 49: not link 9 instead
    assert (step.kind, step.message) == ("bad", "There is no link 49: links run from 1 to 48.")
    assert entry.digit(6, count=63, now=200.0).kind == "wait"
    step = entry.digit(1, count=63, now=206.0)  # long after the 6: a new number
    assert (step.kind, step.number) == ("wait", 1)
    assert entry.enter(now=210.0).kind == "none"  # and a late Enter follows nothing


async def test_follow_never_sends_an_action(client: Client) -> None:
    """``--follow`` follows links that read; an action is a request of its own."""
    exchange = await client.send(RequestSpec(url=f"{MOCK}/customers?limit=5"))
    first = choose_link(read_response(exchange).links, "1")
    assert first is not None
    assert (first.is_action, first.method) == (True, "POST")


def test_the_keep_box_keeps_exactly_the_composers_headers_or_none() -> None:
    session = Session()
    session.keep_headers(MOCK, (("X-Test", "one"), ("Accept", "application/xml")))
    assert session.set_kept_headers(MOCK, (("Accept", "application/xml"),)) == ["Accept"]
    assert session.kept_headers(MOCK) == (("Accept", "application/xml"),)
    assert session.set_kept_headers(MOCK, ()) == []  # the box unticked: none is kept
    assert session.kept_headers(MOCK) == ()


def test_the_composers_url_resolves_like_the_url_bar() -> None:
    assert resolve_typed_url("/customers/5", "http://127.0.0.1:8000/orders") == (
        "http://127.0.0.1:8000/customers/5"
    )
    assert resolve_typed_url("  ", "http://h/") == ""


def test_a_request_asks_for_another_version_the_way_chosen() -> None:
    """``D``'s other side: the page's request in the version picked, asked as picked."""
    from explorer.core.http.request import build_request

    spec = RequestSpec(url=f"{MOCK}/api/customers/1")
    by_query = VersionChoice(2, "query").asked_in(spec)
    assert build_request(by_query).url == httpx.URL(f"{MOCK}/api/customers/1?version=2")
    by_header = VersionChoice(3, "header", "Api-Version").asked_in(spec)
    assert build_request(by_header).headers["Api-Version"] == "3"
    in_path = VersionChoice(2, "uri", base_path="/api").asked_in(spec)
    assert str(build_request(in_path).url) == f"{MOCK}/api/v2/customers/1"


def keyed(request: httpx.Request) -> httpx.Response:
    """An API behind ``X-API-Key: k3y`` (or ``Api-Key``)."""
    key = request.headers.get("x-api-key") or request.headers.get("api-key")
    return httpx.Response(200 if key == "k3y" else 401, json={})


async def test_an_api_key_is_kept_for_its_origin_resent_and_forgotten_on_log_out() -> None:
    from explorer.core.session.api_key import give_key, key_problem

    session = Session()
    url = "http://api.test/items"
    async with Client(transport=httpx.MockTransport(keyed)) as api:
        await visit(session, api, RequestSpec(url=url))
        again = give_key(session, url, "X-API-Key", "k3y")
        assert again is not None
        assert again.kind == "send"
        assert ("X-API-Key", "k3y") in again.spec.headers
        assert (session.unproven, session.unproven_header) == ("http://api.test", "x-api-key")
        page = await visit(session, api, again.spec)
        assert session.check_login(page) is True
        # a link to another server goes without it, and says so
        assert session.following("http://else.test/x").note.startswith("X-API-Key not sent")
        assert session.log_out(url) == "X-API-Key"
        assert session.kept_headers(url) == ()
        reload = session.reload()
        assert reload is not None
        assert ("X-API-Key", "k3y") not in reload.spec.headers  # sent again without it
        # a POST is composed, not sent again
        await visit(session, api, RequestSpec("POST", url))
        composed = give_key(session, url, "Api-Key", "k")
        assert composed is not None
        assert composed.kind == "compose"
        assert composed.note.startswith("Api-Key given. ")
    assert key_problem("Authorization", "k").endswith("choose Paste a token for Authorization.")
    assert key_problem("X Key", "k") == "The header name 'X Key' is not one word such as X-API-Key."
    assert key_problem("X-Key", "a\nb") == "The key holds a line break: paste it on one line."
    with pytest.raises(ValueError, match="Paste the key first"):
        give_key(session, url, "X-API-Key", "")


async def test_a_key_refused_with_a_401_is_dropped_and_the_credential_kept() -> None:
    from explorer.core.session.api_key import give_key

    session = Session()
    url = "http://api.test/items"
    session.set_credential(url, BasicAuth("ann", "pw"))
    async with Client(transport=httpx.MockTransport(keyed)) as api:
        await visit(session, api, RequestSpec(url=url))
        session.unproven = ""
        again = give_key(session, url, "X-API-Key", "wrong")
        assert again is not None
        refused = await visit(session, api, again.spec)
    assert session.check_login(refused) is False
    assert session.kept_headers(url) == ()
    assert session.credential(url) == BasicAuth("ann", "pw")


def test_an_operation_opened_after_an_api_key_login_sends_the_key_kept() -> None:
    # O on an API whose scheme is an API key header: the operation's empty X-API-Key
    # row replaced the key given with a (401); the key kept goes instead, and is said.
    from dataclasses import replace

    from explorer.core.carry.openapi import describe, operation_request
    from explorer.core.http.request import BearerAuth
    from explorer.core.session.api_key import give_key, with_what_is_kept

    document = {
        "openapi": "3.1.0",
        "info": {"title": "plain", "version": "1"},
        "components": {
            "securitySchemes": {
                "key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                "token": {"type": "http", "scheme": "bearer"},
            }
        },
        "paths": {
            "/items": {
                "post": {"security": [{"key": []}], "responses": {"201": {"description": ""}}},
                "get": {"security": [{"token": []}], "responses": {"200": {"description": ""}}},
            }
        },
    }
    post, get = sorted(describe(document).operations, key=lambda op: op.method, reverse=True)
    session = Session()
    url = "http://api.test/items"
    spec, note, _ = operation_request(post, "http://api.test")
    assert ("X-API-Key", "") in spec.headers
    assert with_what_is_kept(session, spec, note) == (spec, note)  # nothing kept: left to fill
    give_key(session, url, "x-api-key", "k3y")
    kept, said = with_what_is_kept(session, spec, note)
    assert not any(name.lower() == "x-api-key" for name, _ in kept.headers)
    assert ("x-api-key", "k3y") in session.prepare(kept).headers
    assert (
        "Security: key: API key in header X-API-Key; the X-API-Key kept for this server goes "
        "with it (x forgets it)." in said.split("\n")
    )
    assert "fill in" not in said
    # a typed value is the person's own, sent as typed
    typed = replace(spec, headers=(("X-API-Key", "other"),))
    assert with_what_is_kept(session, typed, note)[0] == typed
    # a credential given for the server goes instead of the operation's empty one
    spec, note, _ = operation_request(get, "http://api.test")
    assert spec.auth == BearerAuth("")
    session.set_credential(url, BearerAuth("t0ken"))
    assert with_what_is_kept(session, spec, note)[0].auth is None
    assert with_what_is_kept(session, spec, note)[1].endswith(
        "; the credential given for this server goes with it (x forgets it)."
    )
    assert session.prepare(with_what_is_kept(session, spec, note)[0]).auth == BearerAuth("t0ken")


def test_an_authorization_typed_and_kept_is_the_server_s_credential() -> None:
    from explorer.core.http.request import BearerAuth
    from explorer.core.session.api_key import keep_composed
    from explorer.core.session.credentials import credential_in

    assert credential_in([("authorization", " Token 9944b0 ")]) == BearerAuth("9944b0", "Token")
    assert credential_in([("Authorization", "Basic YWxpY2U6d29uZGVybGFuZA==")]) == BasicAuth(
        "alice", "wonderland"
    )
    for refused in ("Basic !!", "Basic bm9jb2xvbg==", 'Digest username="a"', "Bearer", "x y z"):
        assert credential_in([("Authorization", refused)]) is None
    session = Session()
    url = "http://drf.test/api/books/"
    typed = (("Authorization", "Token 9944b0"), ("X-Trace", "1"))
    assert keep_composed(session, url, typed, False) == ([], "")
    assert session.credential(url) is None
    assert keep_composed(session, url, typed, True) == (["X-Trace"], "token")
    assert session.credential(url) == BearerAuth("9944b0", "Token")
    assert session.unproven == "http://drf.test"  # the next answer proves it, or drops it
    assert keep_composed(session, url, typed, True) == (["X-Trace"], "")  # already its own


async def test_a_page_mapped_later_is_in_the_map_once_it_is_read(client: Client) -> None:
    """The browser maps a key's page once it is painted (its links are some 0.4 ms to
    map, and nothing on its screen reads the map): until then it is held, and whoever
    reads the map reads it with every page that arrived (a failed send too)."""
    session = Session()
    await visit(session, client, RequestSpec(url=f"{MOCK}/"), map_later=True)
    assert session._map.visited_count == 0  # held
    assert session.map.visited_count == 1  # read: taken in first
    await visit(session, client, RequestSpec(url=f"{MOCK}/customers"), map_later=True)
    session.arrived(
        Page(RequestSpec(url="http://127.0.0.1:9/"), error=ConnectError("refused")),
        map_later=True,
    )
    assert session._map.visited_count == 1
    session.map_arrivals()
    assert session._map.visited_count == 2
    assert session._map.urls["http://127.0.0.1:9/"].failure
    assert session._map.urls[f"{MOCK}/"].visited
    assert session._map.urls[f"{MOCK}/customers"].visited
    session.map_arrivals()  # (nothing held: nothing more)
    assert session._map.visited_count == 2
