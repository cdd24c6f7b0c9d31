"""Browsing the mock server: open, follow, back and forward, templates, errors."""

from __future__ import annotations

import asyncio
import threading
import time
from http import HTTPStatus
from typing import Any

import httpx
import pytest
from textual import events
from textual._context import active_message_pump
from textual.message import Message
from textual.message_pump import MessagePump
from textual.pilot import Pilot
from textual.widgets import Input, Static

from explorer.core.http.client import Client
from explorer.core.http.exchange import Exchange
from explorer.core.session.reading import Reading
from explorer.ui import app as app_module
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.template_form import TemplateForm
from explorer.ui.screens import on_its_way
from explorer.ui.screens.main import BrowserScreen
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.breadcrumb import Breadcrumb
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.url_input import UrlBar
from mock_server import Settings
from mock_server import create_app as create_mock_app
from tests.explorer.servers import closed_port
from tests.explorer.ui.conftest import ROOT, SIZE, AppFactory, mock_client, settle, until
from tests.mock_server.conftest import TEST_HOSTS


def browser(app: RestwalkApp) -> BrowserScreen:
    return app.browser


def status_text(app: RestwalkApp) -> str:
    return str(app.browser.query_one(StatusLine).render())


def link_number(app: RestwalkApp, rel: str) -> int:
    links = app.browser.query_one(LinksPanel).links
    return next(i for i, link in enumerate(links, start=1) if link.rel == rel)


async def type_number(pilot: Pilot[int], number: int) -> None:
    """Type link ``number`` as a person would: its digits, then Enter if still waiting."""
    app = pilot.app
    assert isinstance(app, RestwalkApp)
    await pilot.press(*str(number))
    if app.browser.query_one(LinksPanel).numbers.typed:
        await pilot.press("enter")


async def follow(pilot: Pilot[int], rel: str) -> None:
    """Follow the first link with ``rel`` by typing its number."""
    app = pilot.app
    assert isinstance(app, RestwalkApp)
    await type_number(pilot, link_number(app, rel))


async def test_a_followed_links_messages_stop_where_they_are_handled(make_app: AppFactory) -> None:
    """The follow goes straight to the screen that follows it, not through the panes nor
    on to the app (each hop is a message dispatched, on every follow), and the page's
    body, formatted at once, posts no Ready at all (nothing listens)."""
    app = make_app()
    arrivals: list[tuple[type[Message], MessagePump]] = []

    def note(message: Message) -> None:
        if isinstance(message, (LinksPanel.Follow, BodyView.Ready)):
            arrivals.append((type(message), active_message_pump.get()))

    async with app.run_test(size=SIZE, message_hook=note) as pilot:
        await settle(pilot)
        arrivals.clear()
        await follow(pilot, "rw:customers")
        await settle(pilot)
        follows = [pump for kind, pump in arrivals if kind is LinksPanel.Follow]
        assert follows == [app.browser]
        readies = [pump for kind, pump in arrivals if kind is BodyView.Ready]
        assert readies == []


@pytest.mark.parametrize("by", ["number", "cursor"])
async def test_the_keys_that_follow_a_link_go_to_no_widget(make_app: AppFactory, by: str) -> None:
    """A link's number, the Enter that ends it and Enter on the links table are run by the
    app as it reads them: not handed to the focused table to bubble back up through the
    panel, the panes and the screen first (a message dispatched each, before the request
    goes out)."""
    app = make_app()
    handed: list[tuple[str, MessagePump]] = []

    def note(message: Message) -> None:
        if isinstance(message, events.Key):
            handed.append((message.key, active_message_pump.get()))

    async with app.run_test(size=SIZE, message_hook=note) as pilot:
        await settle(pilot)
        assert app.focused is app.browser.query_one(LinksPanel).table
        number = link_number(app, "rw:products")
        if by == "number":
            handed.clear()
            await type_number(pilot, number)
        else:
            for _ in range(number - 1):
                await pilot.press("down")
            handed.clear()
            await pilot.press("enter")
        await settle(pilot)
        assert handed[-1][0] == "enter", handed  # (root's link number others start)
        assert {pump for _, pump in handed} == {app}, handed
        page = browser(app).session.shown
        assert page is not None
        assert page.spec.url == "http://mock/products"


async def test_open_root_shows_status_explanation_and_links(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        page = browser(app).session.shown
        assert page is not None
        assert page.status == HTTPStatus.OK
        rels = [link.rel for link in page.links]
        assert "rw:customers" in rels
        assert "rw:orders" in rels
        assert "200 OK" in status_text(app)
        assert "type a link's number to follow it" in status_text(app)
        assert app.browser.query_one(LinksPanel).table.row_count == len(page.links)


class Delayed(httpx.AsyncBaseTransport):
    """The mock app, answering once ``release`` is set (after ``delay`` seconds if given)."""

    def __init__(self, delay: float | None = None) -> None:
        self.inner = httpx.ASGITransport(app=create_mock_app(Settings(allowed_hosts=TEST_HOSTS)))
        self.release = asyncio.Event()
        self.delay = delay

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.delay is not None:
            await asyncio.sleep(self.delay)
            self.release.set()
        await self.release.wait()
        return await self.inner.handle_async_request(request)


def record_frames(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The status line as each frame of the browser screen is drawn."""
    frames: list[str] = []
    display = RestwalkApp._display

    def recorded(self: RestwalkApp, *args: object) -> None:
        if self.screen is self.browser:
            links = len(self.browser.query_one(LinksPanel).links)
            frames.append(f"{status_text(self).strip()} [{links} links]")
        display(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(RestwalkApp, "_display", recorded)
    return frames


async def test_paint_holding_the_first_frame_shows_the_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Like a browser, the first paint waits (a while) for the start page's answer."""
    monkeypatch.setattr(app_module, "FIRST_PAINT_HOLD", 5.0)
    frames = record_frames(monkeypatch)
    app = create_app(ROOT, client=Client(transport=Delayed(0.3)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
    assert frames, "the browser screen was never drawn"
    assert frames[0].startswith("200 OK"), frames[0]
    # A small page is read for links as it arrives: the first frame is whole.
    assert "Finding the links" not in frames[0]
    assert frames[0].endswith("[22 links]"), frames[0]


async def test_a_slow_answer_is_waited_for_only_so_long(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app_module, "FIRST_PAINT_HOLD", 0.1)
    frames = record_frames(monkeypatch)
    transport = Delayed()
    app = create_app(ROOT, client=Client(transport=transport))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.3)
        assert frames, "nothing drawn while the answer was slow"
        assert frames[0].startswith("… GET http://mock/ sending"), frames[0]
        await pilot.press("l")  # the app answers keys meanwhile
        assert app.screen is not app.browser
        await pilot.press("escape")
        transport.release.set()
        await settle(pilot)
        assert status_text(app).strip().startswith("200 OK")


async def test_the_app_starts_while_the_server_it_started_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bundled mock's start is not waited for: the start page's request is out while
    its process still starts (here: before ``server_started`` returns), and the page is
    shown once the server answers."""
    monkeypatch.setattr(app_module, "FIRST_PAINT_HOLD", 60.0)  # (the start page waited for)
    transport = Delayed()
    starting = threading.Event()

    def server_started() -> None:
        starting.wait()
        transport.release.set()  # (its socket's queue answered once it serves)

    app = create_app(ROOT, client=Client(transport=transport), server_started=server_started)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.browser.tab.session.shown is None
        assert any(w.group == "start" and w.is_running for w in app.workers)
        starting.set()
        await settle(pilot)
        assert status_text(app).strip().startswith("200 OK")
        assert app.is_running


async def test_a_server_that_cannot_start_ends_the_app_with_status_1() -> None:
    """The app only ends: the command line says why, once the terminal is its own again
    (tests/explorer/test_cli.py)."""

    def server_started() -> None:
        raise RuntimeError("the mock server stopped while starting")

    app = create_app(ROOT, client=mock_client(), server_started=server_started)
    async with app.run_test(size=SIZE) as pilot:
        while app.is_running:
            await pilot.pause()
    assert app.return_code == 1


async def test_a_quick_answer_to_a_link_is_drawn_once_without_sending(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While a followed link's answer is on its way (within the hold) nothing is drawn:
    a frame then would hold up the event loop that reads the answer."""
    monkeypatch.setattr(on_its_way, "SENDING_HOLD", 30.0)
    transport = Delayed()
    transport.release.set()
    app = create_app(ROOT, client=Client(transport=transport))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        frames = record_frames(monkeypatch)
        transport.release.clear()
        await follow(pilot, "rw:customers")
        await pilot.pause()
        assert app.browser.sending
        # The root page stays as it was (its row under the cursor may move), no "sending".
        assert all(frame.startswith(f"200 OK   HTTP/1.1  GET {ROOT}\n") for frame in frames)
        assert app.browser.query_one(UrlBar).value == ROOT
        frames.clear()
        transport.release.set()
        await settle(pilot)
        assert frames, "the page was never drawn"
        assert not any("sending" in frame or "receiving" in frame for frame in frames), frames
        assert frames[0].startswith("200 OK"), frames[0]
        assert app.browser.query_one(UrlBar).value == f"{ROOT}customers"


async def test_a_slow_answer_to_a_link_says_sending_after_the_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(on_its_way, "SENDING_HOLD", 0.05)
    transport = Delayed()
    transport.release.set()
    app = create_app(ROOT, client=Client(transport=transport))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        transport.release.clear()
        await follow(pilot, "rw:customers")
        for _ in range(500):  # until the hold is over (a condition, not a duration)
            if "sending" in status_text(app):
                break
            await pilot.pause(0.01)
        assert status_text(app).startswith(f"… GET {ROOT}customers sending")
        # A wait says how to stop it (QA: 30 s of "sending" on a slow API said nothing of
        # Escape, and the key bar does not show it).
        assert "Escape cancels" in status_text(app)
        assert app.browser.query_one(UrlBar).value == f"{ROOT}customers"
        transport.release.set()
        await settle(pilot)
        assert status_text(app).strip().startswith("200 OK")


async def test_a_request_long_unanswered_says_how_long_it_has_waited(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past the hold, "sending" becomes "waiting for the answer · N s", counted on the
    client's clock (here one the test moves: no test waits 12 s)."""
    monkeypatch.setattr(on_its_way, "SENDING_HOLD", 0.05)
    transport = Delayed()
    transport.release.set()
    ahead = [0.0]
    client = Client(transport=transport, clock=lambda: time.perf_counter() + ahead[0])
    app = create_app(ROOT, client=client)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        transport.release.clear()
        await follow(pilot, "rw:customers")
        await until(pilot, lambda: "sending" in status_text(app), "sending said")
        ahead[0] = 12.2
        await until(
            pilot,
            lambda: "waiting for the answer · 12 s" in status_text(app),
            "the wait counted",
        )
        assert status_text(app).startswith(f"… GET {ROOT}customers waiting for the answer")
        assert "Escape cancels" in status_text(app)
        transport.release.set()
        await settle(pilot)
        assert status_text(app).strip().startswith("200 OK")


async def test_a_followed_page_is_shown_without_querying_the_panes(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The links panel and the response tabs keep their parts: a page shown asked for the
    links table, the link detail and the tabs' switcher six times, each a walk."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        queried: list[object] = []
        for widget in (app.browser.query_one(LinksPanel), app.browser.query_one(ResponseTabs)):
            original = widget.query_one

            def counted(*args: Any, original: Any = original, **kwargs: Any) -> Any:
                queried.append(args)
                return original(*args, **kwargs)

            monkeypatch.setattr(widget, "query_one", counted)
        await follow(pilot, "rw:customers")
        await settle(pilot)
        assert app.browser.session.shown is not None
        assert app.browser.session.shown.url == f"{ROOT}customers"
        assert queried == []


async def test_the_sending_hold_is_a_loop_timer_that_ends_with_the_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The hold before "sending" is shown is the event loop's timer, not a Textual Timer
    (a task started and cancelled for every quick answer), and the app closing while a
    request is held ends it (it is not the screen's, to end with it)."""
    monkeypatch.setattr(on_its_way, "SENDING_HOLD", 30.0)
    transport = Delayed()
    transport.release.set()
    app = create_app(ROOT, client=Client(transport=transport))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        transport.release.clear()
        await follow(pilot, "rw:customers")
        held = app.browser._on_its_way._hold
        assert isinstance(held, asyncio.TimerHandle)
        assert not held.cancelled()
        transport.release.set()
        await settle(pilot)
        assert held.cancelled()
        assert app.browser._on_its_way._hold is None
        transport.release.clear()
        await follow(pilot, "up")
        held = app.browser._on_its_way._hold
        assert held is not None
        assert not held.cancelled()
    assert held.cancelled()
    assert app.browser._on_its_way._hold is None


async def test_ctrl_l_shows_the_url_on_its_way_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(on_its_way, "SENDING_HOLD", 30.0)
    transport = Delayed()
    transport.release.set()
    app = create_app(ROOT, client=Client(transport=transport))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        transport.release.clear()
        await follow(pilot, "rw:customers")
        await pilot.press("ctrl+l")
        assert app.browser.query_one(UrlBar).value == f"{ROOT}customers"
        assert "sending" in status_text(app)
        transport.release.set()
        await settle(pilot)


async def test_follow_link_then_back_and_forward(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        history = browser(app).trail
        await follow(pilot, "rw:customers")
        await settle(pilot)
        assert history.current is not None
        assert history.current.spec.url == "http://mock/customers"
        assert history.current.status == HTTPStatus.OK
        assert "/customers" in str(app.browser.query_one(Breadcrumb).render())
        await pilot.press("alt+left")
        await settle(pilot)
        assert history.current is not None
        assert history.current.spec.url == ROOT
        assert app.browser.query_one("#url", Input).value == ROOT
        await pilot.press("alt+right")
        await settle(pilot)
        assert history.current is not None
        assert history.current.spec.url == "http://mock/customers"
        assert len(history.pages) == 2


async def test_back_and_forward_restore_the_links_cursor_and_the_body_scroll(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.browser.query_one(LinksPanel).table
        body = app.browser.query_one("#body-view", BodyView)
        await pilot.press("b", "pagedown", "f", "down", "down")  # scrolled, on link 3
        await settle(pilot)
        left_at = round(body.scroll_y)
        assert left_at > 0
        assert table.cursor_row == 2
        await pilot.press("enter")  # follows link 3
        await settle(pilot)
        assert (table.cursor_row, round(body.scroll_y)) == (0, 0)  # a new page: its top
        await pilot.press("down")
        await pilot.press("alt+left")
        await settle(pilot)
        assert (table.cursor_row, round(body.scroll_y)) == (2, left_at)  # as it was left
        await pilot.press("alt+right")
        await settle(pilot)
        assert table.cursor_row == 1


async def test_links_panel_enter_follows_highlighted_link(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f")
        for _ in range(link_number(app, "rw:products") - 1):
            await pilot.press("down")
        await pilot.press("enter")
        await settle(pilot)
        page = browser(app).session.shown
        assert page is not None
        assert page.spec.url == "http://mock/products"


async def test_url_bar_sends_get(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+l")
        app.browser.query_one("#url", Input).value = "http://mock/products/1"
        await pilot.press("enter")
        await settle(pilot)
        page = browser(app).session.shown
        assert page is not None
        assert page.spec.url == "http://mock/products/1"
        assert page.status == HTTPStatus.OK


async def test_templated_link_opens_form_and_expands(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, "rw:customer-search")
        await pilot.pause()
        assert isinstance(app.screen, TemplateForm)
        assert app.screen.variables[:2] == ["name", "city"]
        said = str(app.screen.query_one(".help", Static).render())
        assert "(or ctrl+s) opens the URL;" in said  # a link that reads is sent
        await pilot.press(*"ada")
        await pilot.press("ctrl+s")
        await settle(pilot)
        page = browser(app).session.shown
        assert page is not None
        assert page.spec.url == "http://mock/customers?name=ada"
        assert page.status == HTTPStatus.OK
        assert b"Ada Lovelace" in page.exchange.response.body  # type: ignore[union-attr]


async def test_unauthorized_orders_say_how_to_log_in(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, "rw:orders")
        await settle(pilot)
        page = browser(app).session.shown
        assert page is not None
        assert page.status == HTTPStatus.UNAUTHORIZED
        text = status_text(app)
        assert "401 Unauthorized" in text
        assert "Press a to log in" in text


async def test_connection_refused_is_explained_not_raised(make_app: AppFactory) -> None:
    from explorer.ui.app import create_app

    url = f"http://127.0.0.1:{closed_port()}/"
    app = create_app(url)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.error is not None
        text = status_text(app)
        assert "request failed" in text
        assert "refused" in text
        assert "Press r to try again" in text
        await pilot.press("e")
        await pilot.pause()
        assert "ConnectionRefused" in str(app.screen.query_one("#explanation").source)  # type: ignore[attr-defined]


async def test_invalid_url_is_explained(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+l")
        app.browser.query_one("#url", Input).value = "ftp://nowhere"
        await pilot.press("enter")
        await settle(pilot)
        page = browser(app).session.shown
        assert page is not None
        assert page.error is not None
        assert "ftp://" in status_text(app)


async def test_page_left_while_reading_is_read_when_shown_again(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from explorer.core.session import loading

    release = threading.Event()
    real = loading.read_response

    def slow_for_customers(exchange: Exchange) -> Reading:
        if exchange.response.url.endswith("/customers") and not release.is_set():
            release.wait(10)
            raise RuntimeError("stale: this result must be dropped")
        return real(exchange)

    monkeypatch.setattr(loading, "read_response", slow_for_customers)
    monkeypatch.setattr(loading, "READ_AT_ONCE", 0)  # every body read in a thread
    app = make_app("http://mock/customers")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while app.browser.session.shown is None:
            await pilot.pause()
        assert app.browser.session.shown.reading
        assert "Finding the links" in status_text(app)
        app.browser.open_url("http://mock/products")  # cancels the customers' reading
        release.set()
        await settle(pilot)
        assert app.browser.session.shown is not None
        assert app.browser.session.shown.spec.url == "http://mock/products"
        await pilot.press("alt+left")
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == "http://mock/customers"
        assert not page.reading
        assert any(link.rel == "create" for link in page.links)


async def test_the_hint_counts_one_link_as_one() -> None:
    def one_link(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"next_url": "http://one/next"})

    app = create_app("http://one/", client=Client(transport=httpx.MockTransport(one_link)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "1 link: type 1 to follow it" in status_text(app)
        assert "1 links" not in status_text(app)


async def test_a_typed_number_ends_with_any_other_key(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(app.browser.query_one(LinksPanel).links) >= 12
        await pilot.press("1")  # waits: 1 or 10-19
        assert app.browser.query_one(LinksPanel).numbers.typed == "1"
        await pilot.press("h")  # the headers tab: the number is given up
        await settle(pilot)
        assert app.browser.query_one(LinksPanel).numbers.typed == ""
        await pilot.press("2")  # link 2 (or 20, 21: Enter says which), not 12
        await pilot.press("enter")
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == "http://mock/products"


async def test_a_body_in_latin_1_is_shown_decoded_from_it() -> None:
    """QA: ``text/plain; charset=iso-8859-1`` was read as UTF-8 in the body tab (``caf�``,
    "Not valid UTF-8"), while the Raw tab read it by its charset."""

    def latin_1(request: httpx.Request) -> httpx.Response:
        return httpx.Response(
            200,
            content="café naïve façade\n".encode("latin-1"),
            headers={"Content-Type": "text/plain; charset=iso-8859-1"},
        )

    app = create_app("http://old/", client=Client(transport=httpx.MockTransport(latin_1)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = app.browser.query_one("#body-view", BodyView).text
        assert text.line(0) == "café naïve façade"
        assert text.notes == ("Decoded from iso8859-1, the charset its Content-Type names.",)


async def test_a_number_one_digit_can_lengthen_says_which_digit() -> None:
    """QA: on a page of 10 links, ``1`` said "another digit makes 10-10"."""

    def ten_links(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={f"l{n}_url": f"http://ten/{n}" for n in range(10)})

    app = create_app("http://ten/", client=Client(transport=httpx.MockTransport(ten_links)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert len(app.browser.query_one(LinksPanel).links) == 10
        await pilot.press("1")
        said = [str(n.message) for n in app._notifications]
        assert said[-1] == "Link 1: Enter follows it; 0 makes 10."
