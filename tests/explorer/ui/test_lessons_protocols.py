"""The lesson on HTTP/1.1 and HTTP/2, done as a learner does it on a mock served as
``restwalk-mock --http2`` (HTTP/1.1 and h2c on one port, a real socket): HTTP/1.1 gets
its hint, the same path by prior knowledge the tick."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mock_server import BackgroundServer
from tests.explorer.ui.conftest import SIZE
from tests.explorer.ui.course_pilot import go, opened, send, wait
from tests.explorer.ui.lesson_pilot import done, missed, served_lesson_app, show_me
from tests.explorer.ui.test_http2_tui import palette, serve

#: Each lesson walked with the real keys: slow, and the same on any Python (run once in CI).
pytestmark = pytest.mark.lesson


@pytest.fixture(scope="module")
def h2c_server() -> Iterator[BackgroundServer]:
    yield from serve(http2=True)


async def test_http11_then_another_path_then_the_same_by_prior_knowledge(
    h2c_server: BackgroundServer,
) -> None:
    app = served_lesson_app("http-versions", h2c_server)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "http-versions")
        await go(pilot, "/customers/2")
        assert missed(app).startswith("HTTP/1.1 (t shows it)")
        await palette(pilot, "prior knowledge")
        await go(pilot, "/products/1")
        assert missed(app).startswith("HTTP/2, but another path")
        await go(pilot, "/customers/2")
        assert done(app)


async def test_show_me_over_http11_then_reload_by_prior_knowledge(
    h2c_server: BackgroundServer,
) -> None:
    app = served_lesson_app("http-versions", h2c_server)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "http-versions")
        await show_me(pilot)
        await send(pilot)
        assert missed(app).startswith("HTTP/1.1 (t shows it)")
        await palette(pilot, "prior knowledge")
        await pilot.press("r")
        await wait(pilot)
        assert done(app)
