"""A stream in the TUI, against the mock's events on real sockets, with writes made during
the test: each event a row as it comes, the one under the cursor in full; the status
line counts; p pauses the view while reading goes on; search and filter over what came;
Escape stops; a broken stream is resumed and the view says so; memory bounded."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import suppress
from pathlib import Path

import httpx
import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from textual.css.query import NoMatches
from textual.pilot import Pilot
from textual.widgets import Input, Static

from explorer.core.streams.limits import StreamLimits
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.widgets.find_bar import FindBar
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.stream_view import StreamView
from tests.explorer.events_mock import create, mock_with_editor
from tests.explorer.servers import CuttingProxy, HypercornServer
from tests.explorer.ui.conftest import SIZE
from tests.explorer.ui.test_browse import follow


async def until(pilot: Pilot[int], check: Callable[[], bool], seconds: float = 15) -> None:
    """Let the app run until ``check()`` holds (a stream's worker never ends: no settle)."""
    for _ in range(int(seconds / 0.05)):
        with suppress(NoMatches):  # the screen not composed yet
            if check():
                return
        await pilot.pause(0.05)
    raise AssertionError("never happened")


def view(app: RestwalkApp) -> StreamView:
    return app.browser.query_one(ResponseTabs).stream_view


def status(app: RestwalkApp) -> str:
    return str(app.browser.query_one(StatusLine).render())


def note(app: RestwalkApp) -> str:
    return str(view(app).query_one("#stream-note", Static).render())


def rows(app: RestwalkApp) -> list[tuple[str, ...]]:
    table = view(app).table
    return [tuple(table.rows[n]) for n in range(table.row_count)]


async def test_events_come_as_rows_while_writes_happen() -> None:
    with mock_with_editor() as (url, editor):
        app = create_app(f"{url}/customers/events")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: view(app).display and "● reading" in status(app))
            create(editor, "Ann", "Bob")
            await until(pilot, lambda: len(rows(app)) == 2)
            await until(pilot, lambda: "2 events (" in status(app))
            shown = rows(app)
            assert [row[2] for row in shown] == ["customer.created"] * 2
            assert [row[1] for row in shown] == ["1", "2"]
            assert '"name":"Bob"' in shown[1][4]
            # The detail follows the cursor to the newest row a message later (QA saw "Ann"
            # read before that under load): wait for it, then read it whole.
            await until(pilot, lambda: '"Bob"' in view(app).detail.text.text())
            detail = view(app).detail.text.text()
            assert orjson.loads(detail)["data"]["name"] == "Bob"  # the newest, in full
            assert "A stream of server-sent events: 2 events (" in status(app)
            assert view(app).table.cursor_row == 1  # it follows the newest

            await pilot.press("p")  # the view pauses, reading goes on
            assert view(app).paused
            create(editor, "Cy")
            await until(pilot, lambda: "3 events (" in status(app))
            assert len(rows(app)) == 2
            assert "the view is paused at 2 events (p shows it live): reading goes on" in note(app)
            await pilot.press("p")
            assert len(rows(app)) == 3
            assert not view(app).paused

            await pilot.press("slash")
            app.browser.query_one("#search-bar", FindBar).input.value = "Bob"
            await until(pilot, lambda: view(app).search_status == "1 of 1 event")
            assert view(app).table.cursor_row == 1
            await pilot.press("escape")  # the search closes (the stream reads on)
            assert app.browser.streams.reading

            await pilot.press("vertical_line")
            app.browser.query_one("#filter-bar", FindBar).input.value = "$[*].data.data.name"
            await until(pilot, lambda: view(app).detail.filtered)
            assert orjson.loads(view(app).detail.text.text()) == ["Ann", "Bob", "Cy"]
            assert "over the 3 events kept, as an array of them" in view(app).detail.notes[0]
            await pilot.press("escape")  # the filter closes
            app.browser.query_one(Input).blur()

            await pilot.press("escape")  # Escape stops reading
            await until(pilot, lambda: "■ stopped" in status(app))
            assert not app.browser.streams.reading
            assert app.browser.tab.live is None
            assert len(rows(app)) == 3  # what came stays
            assert "stopped reading (r reads it again): 3 events (" in note(app)
            assert view(app).check_action("pause", ()) is False  # nothing is read any more


async def test_a_broken_stream_is_resumed_and_the_view_says_so() -> None:
    with mock_with_editor() as (url, editor), CuttingProxy(httpx.URL(url).port or 0) as proxy:
        app = create_app(f"{proxy.url}/customers/events")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "● reading" in status(app))
            create(editor, "Ann")
            await until(pilot, lambda: len(rows(app)) == 1)
            first_id = rows(app)[0][3]
            proxy.cut()
            await until(pilot, lambda: f"with Last-Event-ID {first_id}" in note(app))
            assert "reconnecting in 2 s" in note(app)
            create(editor, "Bob")  # while it waits
            await until(pilot, lambda: len(rows(app)) == 2)
            resumed = f"reconnected: 200 OK; asked for the events after {first_id}"
            await until(pilot, lambda: resumed in note(app))  # said at the next redraw
            assert '"name":"Bob"' in rows(app)[1][4]
            await until(pilot, lambda: "1 reconnection" in status(app))


async def test_the_oldest_rows_go_past_the_bound_and_the_view_says_how_many() -> None:
    with mock_with_editor() as (url, editor):
        app = create_app(f"{url}/customers/events")
        async with app.run_test(size=SIZE) as pilot:
            app.browser.tab.limits = StreamLimits(max_events=2)
            await pilot.press("r")  # read it again, with the bound
            await until(pilot, lambda: "● reading" in status(app) and not rows(app))
            create(editor, "Ann", "Bob", "Cy", "Di")
            await until(pilot, lambda: "4 events (" in status(app))
            assert [row[1] for row in rows(app)] == ["3", "4"]
            dropped = "2 older events dropped to keep memory bounded"
            await until(pilot, lambda: dropped in note(app))  # said at the next redraw


async def test_another_page_stops_the_stream(tmp_path: Path) -> None:
    with mock_with_editor() as (url, _):
        app = create_app(f"{url}/events")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.browser.streams.reading)
            live = app.browser.tab.live
            await pilot.press("ctrl+l")
            app.browser.query_one("#url", Input).value = f"{url}/"
            await pilot.press("enter")
            await until(pilot, lambda: not app.browser.streams.reading and not view(app).display)
            assert app.browser.tab.live is None
            assert live is not None
            assert live.reader.connections == 1
            await pilot.press("alt+left")  # back to the stream's page: its head
            await until(pilot, lambda: "r reads it again" in view_text(app))


def view_text(app: RestwalkApp) -> str:
    from explorer.ui.widgets.response_tabs import ResponseTabs

    return app.browser.query_one(ResponseTabs).body_view.text.text()


@pytest.mark.parametrize("lines", [3])
async def test_json_lines_one_value_a_row(tmp_path: Path, lines: int) -> None:
    async def endpoint(request: Request) -> Response:
        async def body() -> AsyncIterator[bytes]:
            for number in range(lines):
                yield orjson.dumps({"n": number, "text": "\x1b[2J"}) + b"\n"

        return StreamingResponse(body(), media_type="application/x-ndjson")

    app_under = Starlette(routes=[Route("/lines", endpoint)])
    with HypercornServer(app_under, tls=False, tmp_path=tmp_path) as server:
        app = create_app(f"{server.url}/lines")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "■ stopped" in status(app) and len(rows(app)) == lines)
            shown = rows(app)
            assert [len(row) for row in shown] == [3] * lines  # time, number, data
            assert shown[0][2] == '{"n":0,"text":"\\u001b[2J"}'
            assert "the stream ended (r reads it again): 3 events" in note(app)
            assert "JSON lines" in status(app)


async def test_following_the_root_s_events_link_shows_its_events_at_once() -> None:
    """rw:events is typed text/event-stream: followed, its head is shown at once and its
    events as they come (the page waited for the whole deadline before)."""
    with mock_with_editor() as (url, editor):
        app = create_app(f"{url}/")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.browser.session.shown is not None)
            started = time.monotonic()
            await follow(pilot, "rw:events")
            await until(pilot, lambda: "● reading" in status(app))
            assert time.monotonic() - started < 10
            create(editor, "Ann")
            await until(pilot, lambda: len(rows(app)) == 1)


async def test_a_view_paused_when_reading_stops_shows_all_that_came() -> None:
    with mock_with_editor() as (url, editor):
        app = create_app(f"{url}/customers/events")
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: "● reading" in status(app))
            await pilot.press("p")
            create(editor, "Ann")
            await until(pilot, lambda: "1 event (" in status(app))
            assert rows(app) == []
            await pilot.press("escape")
            await until(pilot, lambda: "■ stopped" in status(app))
            assert not view(app).paused
            assert len(rows(app)) == 1
            assert "paused" not in note(app)
