"""A large body's progress on the status line, from a real server on 127.0.0.1 that sends
its head, then its body a part at a time when the test says (no sleeps)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.screens import on_its_way
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.url_input import UrlBar
from tests.explorer.ui.conftest import SIZE, settle, until

ROOT_PAGE = b'{"_links": {"big": {"href": "/big"}}}'
#: The large body: a JSON string of 20,000 bytes, sent in two parts.
BIG = b'"' + b"x" * 19_998 + b'"'
FIRST_PART = 5_000


class DrippingServer:
    """``/`` is a small page linking to ``/big``; ``/big`` sends its head and
    :data:`FIRST_PART` bytes of :data:`BIG`, the rest once :attr:`more` is set."""

    def __init__(self) -> None:
        self.more = asyncio.Event()
        self.url = ""
        #: The paths asked for, in order.
        self.asked: list[bytes] = []
        self._writers: list[asyncio.StreamWriter] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)
        try:
            while head := await reader.readuntil(b"\r\n\r\n"):
                path = head.split(b" ", 2)[1]
                self.asked.append(path)
                body = BIG if path == b"/big" else ROOT_PAGE
                kind = b"application/json" if path == b"/big" else b"application/hal+json"
                writer.write(
                    b"HTTP/1.1 200 OK\r\nContent-Type: " + kind + b"\r\n"
                    b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n"
                )
                if path == b"/big":
                    writer.write(body[:FIRST_PART])
                    await writer.drain()
                    await self.more.wait()
                    body = body[FIRST_PART:]
                writer.write(body)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    @asynccontextmanager
    async def serving(self) -> AsyncIterator[DrippingServer]:
        server = await asyncio.start_server(self.handle, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        try:
            yield self
        finally:
            self.more.set()
            server.close()
            for writer in self._writers:
                writer.close()


def status_text(app: RestwalkApp) -> str:
    return str(app.browser.query_one(StatusLine).render())


@pytest.fixture(autouse=True)
def quick_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(on_its_way, "SENDING_HOLD", 0.01)


async def test_a_body_on_its_way_says_how_much_of_it_came() -> None:
    async with DrippingServer().serving() as server:
        app = create_app(f"{server.url}/", client=Client())
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("1")  # (the page's one link: /big)
            await until(pilot, lambda: "receiving" in status_text(app), "said what came")
            said = status_text(app)
            assert said.startswith(f"… GET {server.url}/big 200 · receiving 5 KB of 20 KB (25%)")
            assert "Escape cancels" in said
            server.more.set()
            await settle(pilot)
            said = status_text(app)
            assert said.startswith(" 200 OK"), said
            assert "receiving" not in said
            shown = app.browser.session.shown
            assert shown is not None
            assert shown.exchange is not None
            assert shown.exchange.response.body == BIG


async def test_at_80_columns_the_progress_leaves_the_url_to_the_url_bar() -> None:
    """QA: at 80 columns the line wrapped in the middle of the rate; the URL bar shows the
    URL on its way, so the status line keeps one row without it."""
    async with DrippingServer().serving() as server:
        app = create_app(f"{server.url}/", client=Client())
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("1")
            await until(pilot, lambda: "receiving" in status_text(app), "said what came")
            said = status_text(app)
            assert said.startswith("… GET 200 · receiving 5 KB of 20 KB (25%)"), said
            assert said.rstrip().endswith("Escape cancels")
            assert app.browser.query_one(UrlBar).value == f"{server.url}/big"
            line = app.browser.query_one(StatusLine)
            assert (
                line.get_content_height(line.content_size, app.size, line.content_size.width) == 1
            )
            server.more.set()
            await settle(pilot)
            assert status_text(app).startswith(" 200 OK")


async def test_escape_stops_a_body_on_its_way_and_its_progress() -> None:
    async with DrippingServer().serving() as server:
        app = create_app(f"{server.url}/", client=Client())
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("1")
            await until(pilot, lambda: "receiving" in status_text(app), "said what came")
            await pilot.press("escape")
            await settle(pilot)
            assert not app.browser.sending
            assert app.browser.on_its_way is None
            said = status_text(app)
            assert said.startswith(" 200 OK"), said
            assert "receiving" not in said
            shown = app.browser.session.shown
            assert shown is not None
            assert shown.url == f"{server.url}/"


async def test_the_start_page_says_how_much_of_it_came_too() -> None:
    """The page given on the command line is asked for before the screen is shown."""
    async with DrippingServer().serving() as server:
        app = create_app(f"{server.url}/big", client=Client())
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.browser.is_mounted, "the browser shown")
            await until(pilot, lambda: "receiving" in status_text(app), "said what came")
            assert "200 · receiving 5 KB of 20 KB (25%)" in status_text(app)
            server.more.set()
            await settle(pilot)
            assert status_text(app).startswith(" 200 OK")


async def test_escape_on_the_start_page_says_what_of_it_had_come() -> None:
    """The start page cancelled with its head in and part of its body: not "before
    anything came" (a 200 and 5 KB had)."""
    async with DrippingServer().serving() as server:
        app = create_app(f"{server.url}/big", client=Client())
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.browser.is_mounted, "the browser shown")
            await until(pilot, lambda: "receiving" in status_text(app), "said what came")
            await pilot.press("escape")
            await settle(pilot)
            assert not app.browser.sending
            assert app.browser.session.shown is None
            said = status_text(app)
            assert "Cancelled while its body came (200, 5 KB of 20 KB), none shown" in said
            assert "r sends it again" in said


async def test_r_while_a_body_comes_loads_its_url_again() -> None:
    """QA: ``r`` while ``/big`` came cancelled it without a word and reloaded the page
    shown, while the URL bar showed ``/big``. A browser's reload while a page loads starts
    the load of the URL being loaded over: so does ``r``, and it is still a new page."""
    async with DrippingServer().serving() as server:
        app = create_app(f"{server.url}/", client=Client())
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("1")
            await until(pilot, lambda: "receiving" in status_text(app), "said what came")
            await pilot.press("r")
            await until(pilot, lambda: len(server.asked) == 3, "asked again")
            assert server.asked == [b"/", b"/big", b"/big"]
            on_its_way = app.browser.on_its_way
            assert on_its_way is not None
            assert on_its_way.url == f"{server.url}/big"
            assert app.browser.sending
            server.more.set()
            await until(pilot, lambda: not app.browser.sending, "the answer came")
            await settle(pilot)
            assert status_text(app).startswith(" 200 OK")
            assert app.browser.query_one(UrlBar).value == f"{server.url}/big"
            shown = app.browser.session.shown
            assert shown is not None
            assert shown.exchange is not None
            assert shown.exchange.response.body == BIG
            assert [page.url for page in app.browser.session.trail.pages] == [
                f"{server.url}/",
                f"{server.url}/big",
            ]
