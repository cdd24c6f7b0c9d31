"""A browser tab as plain tests: following, logging in, paging, a bookmark.

Everything a tab decides is tested here once, on the mock server's ASGI app (or an
``httpx.MockTransport`` where the mock has no such page), with no terminal: the TUI's
screen and the command line only show what these methods give back.
"""

from __future__ import annotations

import subprocess
import sys
from http import HTTPStatus
from pathlib import Path

import httpx
import orjson
import pytest

from explorer.core.bundled.rebase import BundledMock
from explorer.core.config import OAuthConfig
from explorer.core.http.client import Client
from explorer.core.http.errors import LoginFailed
from explorer.core.http.request import BasicAuth, LoginFlow, RequestSpec
from explorer.core.hypermedia.link import FormField, Link
from explorer.core.oauth.store import TOKEN_FILE
from explorer.core.session.errors import (
    ActionNotFollowed,
    BrokenTemplate,
    NoSuchLink,
    UnfollowableLink,
)
from explorer.core.session.loading import load_page
from explorer.core.session.page_stack import StackRefused
from explorer.core.session.rel_path import rel_path
from explorer.core.session.tab import Arrival, Tab
from explorer.core.session.tab_answers import LoginOffer
from explorer.core.session.trail import Page

MOCK = "http://mock"


@pytest.fixture
def client(mock_client: Client) -> Client:
    """The client on the mock server (tests/explorer/core/conftest.py)."""
    return mock_client


async def shown(tab: Tab, url: str) -> Page:
    """Open ``url`` as a typed URL and take it in, read."""
    page = await tab.read(await tab.load(RequestSpec(url=url), typed=True))
    return tab.arrive(page).page


def test_importing_the_tab_loads_no_textual() -> None:
    code = (
        "import sys, explorer.core.session.tab\n"
        "assert not [m for m in sys.modules if m.split('.')[0] == 'textual'], 'textual'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# --- following: one rule --------------------------------------------------------------------


def link(method: str = "GET", **kw: object) -> Link:
    return Link(
        rel=str(kw.pop("rel", "x")), href=str(kw.pop("href", f"{MOCK}/x")), method=method, **kw
    )  # type: ignore[arg-type]


@pytest.mark.parametrize("method", ["GET", "HEAD", "OPTIONS", "TRACE"])
def test_a_link_that_only_reads_is_sent(method: str) -> None:
    step = Tab(Client()).follow(link(method))
    assert (step.kind, step.spec.method, step.spec.url, step.via) == (
        "send",
        method,
        f"{MOCK}/x",
        "x",
    )


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "BREW"])
def test_an_action_that_changes_something_is_composed(method: str) -> None:
    step = Tab(Client()).follow(link(method, fields=(FormField("name"),)))
    assert (step.kind, step.spec.method) == ("compose", method)
    assert "name" in step.note


def test_a_safe_action_with_fields_to_fill_is_composed() -> None:
    step = Tab(Client()).follow(link("GET", fields=(FormField("q"),)))
    assert step.kind == "compose"


def test_a_template_asks_for_its_variables_then_sends_or_composes() -> None:
    tab = Tab(Client())
    search = link("GET", href=f"{MOCK}/s{{?q}}", templated=True)
    step = tab.follow(search)
    assert (step.kind, step.link) == ("form", search)
    assert tab.filled(search, f"{MOCK}/s?q=ada").kind == "send"
    put = link("PUT", href=f"{MOCK}/c/{{id}}", templated=True)
    composed = tab.filled(put, f"{MOCK}/c/7")
    assert (composed.kind, composed.spec.method, composed.spec.url) == (
        "compose",
        "PUT",
        f"{MOCK}/c/7",
    )


def siren(*actions: dict[str, object]) -> httpx.MockTransport:
    document = {"links": [{"rel": ["self"], "href": "/"}], "actions": list(actions)}

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/":
            return httpx.Response(
                200, json=document, headers={"content-type": "application/vnd.siren+json"}
            )
        return httpx.Response(204, headers={"allow": "GET, OPTIONS"})

    return httpx.MockTransport(answer)


async def test_an_options_action_is_sent_by_a_tui_tab_and_by_follow() -> None:
    """An OPTIONS action only reads (RFC 9110 §9.2.1): sent, in both front ends' ways."""
    options = {"name": "methods", "method": "OPTIONS", "href": "/things"}
    async with Client(transport=siren(options)) as client:
        tui = Tab(client)
        page = await shown(tui, "http://api.test/")
        (action,) = [found for found in page.links if found.name == "methods"]
        step = tui.follow(action)
        assert (step.kind, step.spec.method) == ("send", "OPTIONS")
        answered = await tui.load(step.spec, step.via)
        assert answered.status == HTTPStatus.NO_CONTENT

        cli = Tab(client, given=RequestSpec(url="http://api.test/", headers=(("X-Trace", "1"),)))
        step = cli.follow_words(page, "methods", {})
        assert (step.spec.method, step.spec.url) == ("OPTIONS", "http://api.test/things")
        assert ("X-Trace", "1") in step.spec.headers  # made from the request given


async def test_follow_refuses_an_action_names_a_missing_link_and_a_bad_template() -> None:
    delete = {"name": "remove", "method": "DELETE", "href": "/things/1"}
    async with Client(transport=siren(delete)) as client:
        tab = Tab(client, given=RequestSpec(url="http://api.test/"))
        page = await shown(tab, "http://api.test/")
        with pytest.raises(ActionNotFollowed) as refused:
            tab.follow_words(page, "remove", {})
        assert refused.value.link.method == "DELETE"
        with pytest.raises(NoSuchLink, match=r"no link 'nope' .* available: remove, self"):
            tab.follow_words(page, "nope", {})
    broken = Page(RequestSpec(url=MOCK), links=(link(rel="t", href=f"{MOCK}/{{x", templated=True),))
    with pytest.raises(BrokenTemplate, match="the 't' link is a broken template"):
        Tab(Client(), given=RequestSpec(url=MOCK)).follow_words(broken, "t", {})
    odd = Page(RequestSpec(url=MOCK), links=(link(rel="odd", href="ftp://elsewhere/"),))
    with pytest.raises(UnfollowableLink, match="the server's 'odd' link cannot be followed"):
        Tab(Client(), given=RequestSpec(url=MOCK)).follow_words(odd, "odd", {})
    # QA: a rel of 50,000 characters filled the status line before the reason.
    long_rel = "x" * 50_000
    odd = Page(RequestSpec(url=MOCK), links=(link(rel=long_rel, href="ftp://elsewhere/"),))
    with pytest.raises(UnfollowableLink) as refused:
        Tab(Client(), given=RequestSpec(url=MOCK)).follow_words(odd, long_rel, {})
    assert len(refused.value.message) < 400
    assert refused.value.message.endswith(
        "has the ftp: scheme; restwalk sends requests to http:// and https:// URLs only."
    )


async def test_a_link_too_long_to_send_says_why_after_a_short_rel() -> None:
    # QA: a link of 50,000-character rel to a 100,000-character URL failed with both
    # quoted whole: the status line was full before "(URL too long)".
    long_rel = "x" * 50_000
    spec = RequestSpec(url=f"{MOCK}/" + "b" * 100_000)
    page = await load_page(Client(), spec, via=long_rel)
    assert page.error is not None
    message = page.error.message
    assert len(message) < 600, message[:700]
    assert message.startswith("The server's xxx")
    assert "(50,000 characters) link cannot be followed" in message
    assert message.endswith("(URL too long)")


async def test_a_follow_is_sent_read_and_taken_into_the_trail(client: Client) -> None:
    tab = Tab(client)
    root = await shown(tab, f"{MOCK}/")
    (customers,) = [found for found in root.links if found.rel == "rw:customers"]
    step = tab.follow(customers)
    page = tab.arrive(await tab.read(await tab.load(step.spec, step.via))).page
    assert (page.status, page.via, page.url) == (HTTPStatus.OK, "rw:customers", f"{MOCK}/customers")
    assert any(found.rel == "create" and found.method == "POST" for found in page.links)
    assert [p.url for p in tab.session.trail.breadcrumb()] == [f"{MOCK}/", f"{MOCK}/customers"]


async def test_with_caching_on_r_checks_with_the_server_and_a_link_reuses(
    client: Client,
) -> None:
    client.set_caching(True)
    tab = Tab(client)
    first = await tab.open(RequestSpec(url=f"{MOCK}/customers/1"))
    tab.arrive(first)
    step = tab.session.reload()
    assert step is not None
    assert step.reload
    reloaded = await tab.open(step.spec, step.via, reload=step.reload)
    assert reloaded.exchange is not None
    assert reloaded.exchange.cache is not None
    assert reloaded.exchange.cache.outcome == "revalidated"  # a 304: asked, not reused
    again = await tab.open(RequestSpec(url=f"{MOCK}/customers/1"), "self")
    assert again.exchange is not None
    assert again.exchange.cache is not None
    assert again.exchange.cache.outcome == "fresh"  # a link followed: from cache


async def test_a_step_to_another_origin_goes_without_the_credential(client: Client) -> None:
    tab = Tab(client)
    await shown(tab, f"{MOCK}/")
    tab.session.set_credential(f"{MOCK}/", BasicAuth("alice", "wonderland"))
    step = tab.follow(link(href="http://elsewhere.test/x"))
    assert step.spec.auth is None
    assert "Authorization" in step.withheld


# --- logging in and out ---------------------------------------------------------------------


async def test_a_offers_a_token_login_only_where_a_login_url_is_known() -> None:
    """What ``a`` preselects, decided by the tab: before any page, and on a Bearer 401, a
    token to paste; a user + password login where a login URL is known: the login flow
    the page was sent with (``--login``, its send failed too), or one known beyond the
    tab (the bundled mock's)."""

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(401, headers={"WWW-Authenticate": "Bearer"})

    tab = Tab(Client(transport=httpx.MockTransport(handler)))
    pasted = LoginOffer("bearer", "token", login_url=None, scheme="Bearer", oauth=False)
    assert tab.login_offer("") == pasted  # no page yet
    assert tab.login_offer("", login_known=True).kind == "token"
    await shown(tab, "http://api/me")
    assert tab.login_offer("http://api/me") == pasted
    assert tab.login_offer("http://api/me", login_known=True).kind == "token"
    flow = LoginFlow("http://api/login", "alice", "pw")
    failed = tab.arrive(await tab.load(RequestSpec(url="http://api/me", auth=flow))).page
    assert isinstance(failed.error, LoginFailed)  # its login was refused: no answer shown
    offer = tab.login_offer("http://api/me")
    assert (offer.kind, offer.login_url) == ("token", "http://api/login")


async def test_a_login_sends_the_refused_page_again_with_its_token(client: Client) -> None:
    tab = Tab(client)
    refused = await shown(tab, f"{MOCK}/orders")
    assert refused.status == HTTPStatus.UNAUTHORIZED
    flow = LoginFlow(f"{MOCK}/auth/token", "alice", "wonderland")
    logged = await tab.log_in(MOCK, flow)
    assert logged.next is not None
    assert logged.next.kind == "send"
    assert tab.session.unproven == ""  # the login proved it
    again = tab.arrive(await tab.load(logged.next.spec, logged.next.via), record=False)
    assert again.page.status == HTTPStatus.OK
    out = tab.log_out(f"{MOCK}/orders")
    assert (out.origin, out.had, out.forgotten) == (MOCK, True, "alice (token)")


async def test_an_oauth_login_is_the_configured_one_started_from_the_refusal(
    client: Client, tmp_path: Path
) -> None:
    tab = Tab(client)
    refused = await shown(tab, f"{MOCK}/orders")
    assert refused.status == HTTPStatus.UNAUTHORIZED
    configured = {
        "elsewhere": OAuthConfig(server="https://other.example/"),
        "shop": OAuthConfig(server=f"{MOCK}/", client_id="restwalk-cli", keep=True),
    }
    login = tab.oauth_login(MOCK, configured, tmp_path)
    assert login.name == "shop"
    assert login.settings.client_id == "restwalk-cli"
    assert login.challenges == tuple(refused.exchange.response.header_values("www-authenticate"))
    assert login.challenges  # the 401's Bearer challenge
    assert login.store is not None
    assert login.store.path == tmp_path / TOKEN_FILE
    # None configured for it: one named by the origin, all of it discovered; kept nowhere.
    found = tab.oauth_login(MOCK, {}, tmp_path)
    assert found.settings.server == MOCK
    assert found.store is None


async def test_a_cookie_session_login_that_is_refused_keeps_nothing(client: Client) -> None:
    tab = Tab(client)
    await shown(tab, f"{MOCK}/orders")
    wrong = RequestSpec(
        "POST",
        f"{MOCK}/auth/session",
        body=orjson.dumps({"username": "alice", "password": "nope"}).decode(),
        content_type="application/json",
    )
    with pytest.raises(LoginFailed, match=r"The session login answered 401"):
        await tab.log_in(MOCK, None, wrong)
    assert tab.session.credential(MOCK) is None
    right = RequestSpec(
        "POST",
        f"{MOCK}/auth/session",
        body=orjson.dumps({"username": "alice", "password": "wonderland"}).decode(),
        content_type="application/json",
    )
    logged = await tab.log_in(MOCK, None, right)
    assert logged.next is not None
    assert logged.next.kind == "send"
    again = await tab.load(logged.next.spec, logged.next.via)
    assert again.status == HTTPStatus.OK  # the session's cookie went with it


async def test_a_credential_the_server_refuses_is_dropped_on_arrival(client: Client) -> None:
    tab = Tab(client)
    await shown(tab, f"{MOCK}/orders")
    logged = await tab.log_in(MOCK, BasicAuth("alice", "wrong"))
    assert logged.next is not None
    arrival = tab.arrive(await tab.load(logged.next.spec, logged.next.via), record=False)
    assert arrival.proven is False
    assert arrival.said == ("Login failed", "The server refused it: it is dropped.")
    assert tab.session.credential(MOCK) is None


def test_an_arrival_says_a_credential_proven_and_nothing_of_none() -> None:
    page = Page(RequestSpec(url=f"{MOCK}/orders"))
    assert Arrival(page, True).said == ("Credential set", "The server accepted it.")
    assert Arrival(page, None).said is None


# --- paging: + and --all --------------------------------------------------------------------


async def test_plus_adds_the_next_page_below_and_back_shows_the_first(client: Client) -> None:
    tab = Tab(client)
    first = await shown(tab, f"{MOCK}/customers?limit=2")
    step = tab.next_page(first)
    assert (step.spec.url, step.via) == (f"{MOCK}/customers?limit=2&offset=2", "next")
    below = tab.arrive(await tab.add_below(first, step)).page
    assert below.stack is not None
    assert (below.stack.pages, below.stack.added) == (2, 2)
    assert "── page 2: 2 items of" in below.stack.text.text()
    assert tab.session.go(-1) is first


async def test_plus_says_why_it_adds_nothing() -> None:
    tab = Tab(Client())
    with pytest.raises(StackRefused, match="No page is shown"):
        tab.next_page(None)
    lone = Page(RequestSpec(url=MOCK), links=(link(rel="next", method="DELETE"),))
    with pytest.raises(StackRefused):  # an action is no next page
        tab.next_page(lone)


async def test_all_walks_the_pages_and_says_where_it_stopped(client: Client) -> None:
    tab = Tab(client, given=RequestSpec(url=f"{MOCK}/customers?limit=4"))
    first = await tab.load(RequestSpec(url=f"{MOCK}/customers?limit=4"))
    walk = tab.pages(first, "next", {}, max_pages=2)
    urls = [walked.page.url async for walked in walk]
    assert urls == [f"{MOCK}/customers?limit=4", f"{MOCK}/customers?limit=4&offset=4"]
    assert walk.beyond == f"{MOCK}/customers?limit=4&offset=8"
    assert walk.ended == f"page 2 has a 'next' link, not followed: {walk.beyond}"
    assert (walk.tally.pages, walk.tally.items) == (2, 8)
    assert walk.tally.short() == "the answer says 11 items (the body's total); 8 were read"
    every = tab.pages(first, "next", {}, max_pages=100)
    assert [len(walked.items) async for walked in every] == [4, 4, 3]  # 11 shown, 4 a page
    assert every.beyond is None
    assert every.ended == "the last has no 'next' link"
    assert every.tally.short() is None


# --- the history and bookmarks --------------------------------------------------------------


async def test_a_history_entry_made_on_another_runs_mock_is_moved_to_this_one(
    client: Client,
) -> None:
    tab = Tab(client)
    page = await tab.load(RequestSpec(url="http://127.0.0.1:8642/customers"))
    assert page.exchange is not None
    here = BundledMock("http://127.0.0.1:41789")
    reopened = tab.reopen(page.exchange, made_on_bundled=True, bundled=here)
    assert reopened.page.url == "http://127.0.0.1:41789/customers"
    assert (
        reopened.notes[0]
        == "Made on the bundled mock server: r sends it to http://127.0.0.1:41789."
    )
    alone = tab.reopen(page.exchange, made_on_bundled=True, bundled=None)
    assert "this restwalk did not start" in alone.notes[0]


async def test_a_bookmark_is_walked_again_through_the_tab(client: Client) -> None:
    tab = Tab(client)
    root = await shown(tab, f"{MOCK}/")
    (customers,) = [found for found in root.links if found.rel == "rw:customers"]
    step = tab.follow(customers)
    tab.arrive(await tab.read(await tab.load(step.spec, step.via)))
    path = rel_path(tab.session.trail.breadcrumb())
    sent: list[str] = []
    walked = await Tab(client).walk(path, on_send=lambda spec, note: sent.append(spec.url))
    assert walked.problem is None
    assert sent == [f"{MOCK}/", f"{MOCK}/customers"]
    assert [page.status for page in walked.pages] == [HTTPStatus.OK, HTTPStatus.OK]
