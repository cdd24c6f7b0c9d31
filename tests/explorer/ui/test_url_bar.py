"""The URL bar: a paste is never sent by pasting, a curl line that cannot be read stays
there to be corrected, and Escape puts the page's URL back and returns to the page."""

from __future__ import annotations

import asyncio

import httpx
from textual import events
from textual.widgets import ContentSwitcher, Label

from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.url_input import UrlInput
from tests.explorer.ui.conftest import ROOT, SIZE, AppFactory, settle

#: What QA pasted (its ESC taken out by the terminal input filter, its CR kept).
JUNK = 'curl "unterminated [31mRED \x07\rline2 $(rm -rf /) `id`'


def messages(app: RestwalkApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def paste(pilot, text: str) -> UrlInput:  # type: ignore[no-untyped-def]
    """ctrl+l, then ``text`` pasted into the URL bar."""
    await pilot.press("ctrl+l")
    bar = pilot.app.browser.query_one("#url", UrlInput)
    bar.post_message(events.Paste(text))
    await settle(pilot)
    return bar


async def test_an_unreadable_curl_line_stays_in_the_bar(make_app: AppFactory) -> None:
    app = make_app(ROOT + "customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        pages = len(app.browser.trail.pages)
        bar = await paste(pilot, "curl 'http://mock/customers")
        assert bar.value == "curl 'http://mock/customers"
        assert bar.has_focus
        assert any("never closed" in m for m in messages(app))
        bar.value = "curl 'http://mock/customers'"  # corrected
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ComposerScreen)
        assert app.screen.current_spec().url == "http://mock/customers"
        assert len(app.browser.trail.pages) == pages  # nothing was sent meanwhile


async def test_a_pasted_junk_line_is_never_submitted(make_app: AppFactory) -> None:
    app = make_app(ROOT + "customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = app.browser.session.shown
        bar = await paste(pilot, JUNK)
        assert app.browser.session.shown is shown
        assert not app.browser.sending
        assert bar.value == 'curl "unterminated [31mRED \u2407 line2 $(rm -rf /) `id`'
        assert app.screen is app.browser


async def test_a_url_pasted_over_lines_is_joined_not_sent(make_app: AppFactory) -> None:
    app = make_app(ROOT + "customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = app.browser.session.shown
        bar = await paste(pilot, "http://mock/customers?\n   limit=2\x07\n")
        assert bar.value == "http://mock/customers?limit=2"
        assert app.browser.session.shown is shown  # pasted, not sent
        assert any("1 control character" in m for m in messages(app))
        await pilot.press("enter")
        await settle(pilot)
        assert app.browser.session.shown.spec.url == "http://mock/customers?limit=2"


async def test_an_unreadable_curl_line_stays_in_the_composers_field(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        field = composer.query_one("#url", UrlInput)
        field.post_message(events.Paste("curl -H 'X: 1' \\\n  'http://mock/x"))
        await settle(pilot)
        assert app.screen is composer
        assert field.value == "curl -H 'X: 1'   'http://mock/x"


async def test_escape_puts_the_url_back_and_returns_to_the_page(make_app: AppFactory) -> None:
    app = make_app(ROOT + "customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bar = app.browser.query_one("#url", UrlInput)
        await pilot.press("ctrl+l", "a", "b", "c")
        assert bar.value == "abc"
        await pilot.press("escape")
        await settle(pilot)
        assert bar.value == "http://mock/customers/1"
        assert app.browser.query_one(LinksPanel).table.has_focus
        await pilot.press("h")  # a browser key again, not typed into the bar
        await settle(pilot)
        assert bar.value == "http://mock/customers/1"
        assert app.browser.query_one(ResponseTabs).query_one(ContentSwitcher).current == "headers"


async def test_escape_in_the_bar_still_cancels_a_request_on_its_way() -> None:
    async def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/slow":
            await asyncio.sleep(30)
        return httpx.Response(200, json={"_links": {"slow": {"href": "/slow"}}})

    app = create_app("http://api.test/", client=Client(transport=httpx.MockTransport(answer)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1")
        await pilot.pause()
        assert app.browser.sending
        await pilot.press("ctrl+l")  # the bar shows the URL on its way, unedited
        await pilot.press("escape")
        await settle(pilot)  # returns at once: the request was cancelled
        assert not app.browser.sending
        assert app.browser.query_one(LinksPanel).table.has_focus
        assert any("Cancelled" in m for m in messages(app))
        await pilot.press("1")
        await pilot.pause()
        await pilot.press("ctrl+l", "x", "escape")  # an edit: the first Escape undoes it
        assert app.browser.sending
        await pilot.press("escape")  # the second, outside the bar, cancels
        await settle(pilot)
        assert not app.browser.sending


async def test_a_cancelled_request_leaves_the_shown_pages_url_in_the_bar() -> None:
    """QA pass 2, 4: the bar kept the cancelled URL while the page and ``r`` were the
    previous one's."""

    async def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/slow":
            await asyncio.sleep(30)
        return httpx.Response(200, json={"name": "the page shown"})

    app = create_app("http://api.test/start", client=Client(transport=httpx.MockTransport(answer)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bar = app.browser.query_one("#url", UrlInput)
        await pilot.press("ctrl+l", *"/slow", "enter")
        await pilot.pause()
        assert app.browser.sending
        assert bar.value == "http://api.test/slow"
        await pilot.press("escape")  # the focus is on the links after Enter: cancels
        await settle(pilot)
        assert not app.browser.sending
        assert bar.value == "http://api.test/start"
        assert str(app.browser.query_one("#method", Label).content) == "GET"
        step = app.browser.session.reload()
        assert step is not None
        assert step.spec.url == bar.value  # r sends what the bar shows


async def test_an_ipv6_bracket_never_closed_is_explained(make_app: AppFactory) -> None:
    """QA pass 2, 13: `http://[::1` was explained as "Invalid port: ':1'"."""
    app = make_app(ROOT + "customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+l", *"http://[::1", "enter")
        await settle(pilot)
        said = str(app.browser.query_one(StatusLine).render())
        assert "the [ of its IPv6 address is never closed" in said
        assert "Invalid port" not in said


async def test_keys_typed_with_ctrl_l_go_to_the_url_bar(make_app: AppFactory) -> None:
    """QA: on a busy screen (a 38 MB body), ctrl+l then ``/latin1`` opened the search and
    the course: keys that come together are routed before ctrl+l's action ran, to the
    page. They are the URL's, as a browser's address bar takes what is typed after it."""
    app = make_app(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = app.browser.session.shown
        # As the terminal's reader hands them over when the screen reads its input late.
        for key, char in [("ctrl+l", None), ("slash", "/"), ("l", "l"), ("x", "x")]:
            app.post_message(events.Key(key, char))
        await settle(pilot)
        bar = app.browser.query_one("#url", UrlInput)
        assert app.screen is app.browser
        assert bar.has_focus
        assert bar.value == "/lx"
        assert app.browser.session.shown is shown  # nothing sent, nothing logged out
