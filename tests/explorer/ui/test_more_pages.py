"""``+`` adds the next page below the one shown, on the mock server (in-process).

The mock lists 11 customers (a twelfth is held back, neither listed nor counted):
``/customers?limit=5`` has pages of 5, 5 and 1.
"""

from __future__ import annotations

import asyncio
import re

import httpx
import orjson

from explorer.core.http.client import Client
from explorer.core.session.page_stack import MAX_PAGES
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.breadcrumb import Breadcrumb
from explorer.ui.widgets.find_bar import FindBar
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.status_line import StatusLine
from mock_server import Settings
from mock_server import create_app as create_mock_app
from tests.explorer.ui.conftest import SIZE, AppFactory, settle
from tests.mock_server.conftest import TEST_HOSTS

FIRST = "http://mock/customers?limit=5"
LAST = "http://mock/customers?limit=5&offset=10"


def customer_names() -> list[str]:
    """The mock's customers' names, in id order (asked of a mock of its own)."""

    async def ask() -> list[str]:
        transport = httpx.ASGITransport(app=create_mock_app(Settings(allowed_hosts=TEST_HOSTS)))
        async with httpx.AsyncClient(transport=transport, base_url="http://mock") as mock:
            page = (await mock.get("/customers?limit=100")).json()
        return [customer["name"] for customer in page["_embedded"]["customers"]]

    return asyncio.run(ask())


NAMES = customer_names()


def body(app: RestwalkApp) -> BodyView:
    return app.browser.query_one("#body-view", BodyView)


def names_shown(app: RestwalkApp) -> list[str]:
    """The customers' names in the body, top to bottom (curies and form fields have
    a ``name`` too)."""
    names = re.findall(r'^\s*"name": "(.*)",?$', body(app).text.text(), re.MULTILINE)
    return [name for name in names if name in NAMES]


def status(app: RestwalkApp) -> str:
    return str(app.browser.query_one(StatusLine).render())


def hrefs(app: RestwalkApp, rel: str) -> list[str]:
    return [link.href for link in app.browser.query_one(LinksPanel).links if link.rel == rel]


def messages(app: RestwalkApp) -> str:
    return " | ".join(str(n.message) for n in app._notifications)


async def test_plus_twice_shows_pages_1_to_3_one_below_the_other(make_app: AppFactory) -> None:
    assert len(NAMES) == 11
    app = make_app(FIRST)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert names_shown(app) == NAMES[:5]
        assert "+ adds the next page below" in status(app)
        first_text = body(app).text.text()
        await pilot.press("plus")
        await settle(pilot)
        assert names_shown(app) == NAMES[:10]
        await pilot.press("plus")
        await settle(pilot)
        assert names_shown(app) == NAMES  # pages 1, 2 and 3, in order
        text = body(app).text.text()
        assert text.startswith(first_text.rstrip("\n"))  # page 1 as it came, then the items
        assert "── page 2: 5 items of http://mock/customers?limit=5&offset=5 ──" in text
        assert "── page 3: 1 item of http://mock/customers?limit=5&offset=10 ──" in text
        # The links are the last page's: no next, its own self.
        assert hrefs(app, "next") == []
        assert LAST in hrefs(app, "self")
        assert "Pages 1-3 shown, one below the other (6 items added)" in status(app)
        assert "the last has no next page" in status(app)
        assert "+/customers?limit=5&offset=10" in str(app.browser.query_one(Breadcrumb).render())
        # Back shows the pages as they were before each +.
        await pilot.press("alt+left")
        await settle(pilot)
        assert names_shown(app) == NAMES[:10]
        assert "Pages 1-2 shown" in status(app)
        assert "http://mock/customers?limit=5&offset=10" in hrefs(app, "next")
        await pilot.press("alt+left")
        await settle(pilot)
        assert body(app).text.text() == first_text
        assert "Pages" not in status(app)
        await pilot.press("alt+right", "alt+right")
        await settle(pilot)
        assert names_shown(app) == NAMES


async def test_plus_keeps_the_body_where_it_was_read(make_app: AppFactory) -> None:
    app = make_app(FIRST)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("b", "pagedown")
        await settle(pilot)
        reading_at = round(body(app).scroll_y)
        assert reading_at > 0
        await pilot.press("plus")
        await settle(pilot)
        assert round(body(app).scroll_y) == reading_at


async def test_plus_on_the_last_page_says_there_is_no_next_page(make_app: AppFactory) -> None:
    app = make_app(LAST)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "+ adds" not in status(app)
        await pilot.press("plus")
        await settle(pilot)
        assert (
            "No next page: this page ends here (no 'next' link): 1 item in 1 page (begun "
            "after the first page)." in messages(app)
        )
        assert len(app.browser.trail.pages) == 1
        assert names_shown(app) == NAMES[10:]


async def test_plus_after_plus_at_the_end_says_the_pages_end(make_app: AppFactory) -> None:
    app = make_app("http://mock/customers?limit=5&offset=5")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("plus")
        await settle(pilot)
        await pilot.press("plus")
        await settle(pilot)
        assert (
            "No next page: the 2 pages shown end here (no 'next' link): 6 items in 2 pages "
            "(begun after the first page)." in messages(app)
        )
        assert len(app.browser.trail.pages) == 2


class HeldNextPage(httpx.AsyncBaseTransport):
    """The mock, holding the answer to the second page until ``release`` is set."""

    def __init__(self) -> None:
        self.inner = httpx.ASGITransport(app=create_mock_app(Settings(allowed_hosts=TEST_HOSTS)))
        self.asked = asyncio.Event()
        self.release = asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if "offset=5" in str(request.url):
            self.asked.set()
            await self.release.wait()
        return await self.inner.handle_async_request(request)


async def test_escape_cancels_the_page_on_its_way() -> None:
    transport = HeldNextPage()
    app = create_app(FIRST, client=Client(transport=transport))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("plus")
        await transport.asked.wait()
        assert "… GET http://mock/customers?limit=5&offset=5 sending" in status(app)
        await pilot.press("plus")  # a second + while it loads does not send it again
        assert "A page is on its way: Escape cancels it." in messages(app)
        await pilot.press("escape")
        transport.release.set()
        await settle(pilot)
        assert "Cancelled" in messages(app)
        assert len(app.browser.trail.pages) == 1
        assert names_shown(app) == NAMES[:5]
        assert status(app).startswith(" 200 OK")


async def test_a_page_that_fails_is_not_added() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if "offset=5" in str(request.url):
            return httpx.Response(503, json={"title": "down"})
        page = {
            "_links": {"next": {"href": "/customers?limit=5&offset=5"}},
            "_embedded": {"customers": [{"name": "One"}]},
        }
        return httpx.Response(
            200, content=orjson.dumps(page), headers={"Content-Type": "application/hal+json"}
        )

    app = create_app(FIRST, client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("plus")
        await settle(pilot)
        assert "Page 2 answered 503 Service Unavailable: nothing was added." in messages(app)
        assert len(app.browser.trail.pages) == 1
        assert '"name": "One"' in body(app).text.text()
        assert "── page 2" not in body(app).text.text()


async def test_a_filter_reads_every_page_shown(make_app: AppFactory) -> None:
    app = make_app(FIRST)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("plus")
        await settle(pilot)
        await pilot.press("plus")
        await settle(pilot)
        await pilot.press("vertical_line")
        bar = app.browser.query_one("#filter-bar", FindBar)
        bar.input.value = "$[*]._embedded.customers[*].name"
        # Closed and opened again, the bar runs what it holds at once (no typing pause).
        await pilot.press("escape", "vertical_line")
        await settle(pilot)
        view = body(app)
        assert view.filtered
        assert orjson.loads(view.text.text()) == NAMES
        assert "over the 3 pages shown, as an array of them" in view.notes[0]


def test_the_bound_is_restwalk_request_all_s() -> None:
    from explorer.cli.parser import build_parser

    assert build_parser().parse_args(["request", "GET", "http://x/"]).max_pages == MAX_PAGES
