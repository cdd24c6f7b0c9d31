"""The lessons of events, done as a learner does them, on a mock on a real socket (a
stream needs one): each ticks when its task is done, and a foreseen wrong attempt gets
its hint instead. A stream's worker never ends: the tests wait for what they need."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.pilot import Pilot

from explorer.ui.app import RestwalkApp
from mock_server import BackgroundServer, Settings
from tests.explorer.ui.conftest import SIZE
from tests.explorer.ui.course_pilot import compose, opened, send
from tests.explorer.ui.lesson_pilot import add_header, done, missed, served_lesson_app
from tests.explorer.ui.test_streams_tui import rows, until
from tests.mock_server.conftest import TEST_HOSTS

#: Each lesson walked with the real keys: slow, and the same on any Python (run once in CI).
pytestmark = pytest.mark.lesson


@pytest.fixture
def server() -> Iterator[BackgroundServer]:
    settings = Settings(host="127.0.0.1", port=0, rate_limit=None, allowed_hosts=TEST_HOSTS)
    with BackgroundServer(settings) as running:
        yield running


async def open_stream(pilot: Pilot[int]) -> None:
    """ctrl+l, /events, Enter; until the colleague's change is a row of the stream."""
    await pilot.press("ctrl+l", *"/events", "enter")
    app = pilot.app
    assert isinstance(app, RestwalkApp)
    await until(pilot, lambda: any("Ada King" in row[-1] for row in rows(app)))


async def test_stream_a_406_then_the_stream(server: BackgroundServer) -> None:
    app = served_lesson_app("events-stream", server)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "events-stream")
        await compose(pilot, url=server.url + "/events")
        await add_header(pilot, "Accept", "application/json")
        await send(pilot)
        assert missed(app).startswith("406: the stream is only text/event-stream")
        await open_stream(pilot)
        assert done(app)


async def test_resume_again_from_now_then_from_an_id(server: BackgroundServer) -> None:
    app = served_lesson_app("events-resume", server)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "events-resume")
        await open_stream(pilot)
        seen = next(row[1] for row in rows(app) if "Ada King" in row[-1])
        await pilot.press("r")
        await until(pilot, lambda: missed(app).startswith("The stream again, from now on"))
        await compose(pilot)
        await add_header(pilot, "Last-Event-ID", seen)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: done(app))
