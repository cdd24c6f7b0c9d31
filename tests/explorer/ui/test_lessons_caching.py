"""The lessons of caching and conditional writes, done as a learner does them: each ticks
when its task is done, and a foreseen wrong attempt gets its hint instead."""

from __future__ import annotations

from dataclasses import replace

import pytest
from textual.pilot import Pilot

from explorer.ui.app import RestwalkApp
from mock_server.app import MockApp
from tests.explorer.ui.conftest import SIZE
from tests.explorer.ui.course_pilot import compose, go, opened, send, wait
from tests.explorer.ui.lesson_pilot import (
    add_header,
    body,
    done,
    lesson_app,
    log_in,
    missed,
    show_me,
)
from tests.explorer.ui.test_browse import follow

#: Each lesson walked with the real keys: slow, and the same on any Python (run once in CI).
#: Among the suite's longest files: started early (see tests/conftest.py).
pytestmark = [pytest.mark.lesson, pytest.mark.early]


def header(app: RestwalkApp, name: str) -> str:
    """Header ``name`` of the page shown (what h shows)."""
    page = app.browser.session.shown
    assert page is not None
    assert page.exchange is not None
    value = page.exchange.response.header(name)
    assert value is not None
    return value


async def reload(pilot: Pilot[int]) -> None:
    await pilot.press("r")
    await wait(pilot)


async def test_cache_control_the_second_read_is_fresh() -> None:
    app, _ = lesson_app("cache-control")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "cache-control")
        await go(pilot, "/customers/1")
        assert "cache is off" in missed(app)
        await pilot.press("C")
        await reload(pilot)
        assert "max-age=60" in missed(app)
        await reload(pilot)  # r revalidates, as a browser's reload does
        assert missed(app).startswith("Revalidated")
        await go(pilot, "/customers/1")
        assert done(app)


async def test_etag_304_and_an_etag_of_another_resource() -> None:
    app, _ = lesson_app("etag-304")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "etag-304")
        await go(pilot, "/customers/2")
        other = header(app, "ETag")
        await go(pilot, "/customers/1")
        await compose(pilot)
        await add_header(pilot, "If-None-Match", other)
        await send(pilot)
        assert missed(app).startswith("You sent If-None-Match, but with an ETag from another")
        await go(pilot, "/customers/1")
        mine = header(app, "ETag")
        await compose(pilot)
        await add_header(pilot, "If-None-Match", mine)
        await send(pilot)
        assert done(app)


async def test_etag_304_a_plain_get_and_show_me() -> None:
    app, _ = lesson_app("etag-304")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "etag-304")
        await go(pilot, "/customers/1")
        await reload(pilot)
        assert "add the header If-None-Match" in missed(app)
        await show_me(pilot)
        await send(pilot)
        assert done(app)


async def test_if_modified_since_by_date_alone() -> None:
    app, _ = lesson_app("if-modified-since")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "if-modified-since")
        await go(pilot, "/customers/1")
        await compose(pilot)
        await add_header(pilot, "If-Modified-Since", "Mon, 01 Jan 2024 00:00:00 GMT")
        await send(pilot)
        assert missed(app).startswith("200: the server found customer 1 modified")
        await go(pilot, "/customers/1")
        await compose(pilot)
        await add_header(pilot, "If-Modified-Since", header(app, "Last-Modified"))
        await send(pilot)
        assert done(app)


async def test_lost_update_412_then_the_fresh_etag() -> None:
    app, _ = lesson_app("lost-update")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "lost-update")
        await go(pilot, "/products/1")  # the colleague changes it right after
        read = header(app, "ETag")
        await log_in(pilot, "alice", "wonderland")
        await compose(pilot, method="PATCH")
        await add_header(pilot, "Content-Type", "application/merge-patch+json")
        await add_header(pilot, "If-Match", read)
        await body(pilot, '{"cost": 12.5}')
        await send(pilot)
        assert missed(app).startswith("412 Precondition Failed")
        await go(pilot, "/products/1")
        fresh = header(app, "ETag")
        assert fresh != read
        await compose(pilot, method="PATCH")
        await add_header(pilot, "Content-Type", "application/merge-patch+json")
        await add_header(pilot, "If-Match", fresh)
        await body(pilot, '{"cost": 12.5}')
        await send(pilot)
        assert done(app)


async def test_lost_update_a_blind_write_is_the_lost_update() -> None:
    app, _ = lesson_app("lost-update")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "lost-update")
        await go(pilot, "/products/1")
        await log_in(pilot, "alice", "wonderland")
        await compose(pilot, method="PATCH")
        await add_header(pilot, "Content-Type", "application/merge-patch+json")
        await body(pilot, '{"cost": 12.5}')
        await send(pilot)
        assert "overwrote your colleague's change" in missed(app)
        assert not done(app)


async def test_cache_control_show_me_twice() -> None:
    app, _ = lesson_app("cache-control")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "cache-control")
        await pilot.press("C")
        for _ in range(2):
            await show_me(pilot)
            await send(pilot)
        assert done(app)


def insisting(mock: MockApp) -> None:
    """The mock as restwalk-mock --require-preconditions."""
    mock.service.settings = replace(mock.service.settings, require_preconditions=True)


async def test_precondition_required_on_a_server_that_does_not_insist() -> None:
    app, _ = lesson_app("precondition-required")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "precondition-required")
        await log_in(pilot, "alice", "wonderland")
        await compose(pilot, method="PATCH")
        await body(pilot, '{"cost": 13.5}')
        await send(pilot)
        assert missed(app).startswith("415: a PATCH here is a JSON merge patch")
        await go(pilot, "/products/1")
        await follow(pilot, "patch")
        await wait(pilot)
        await body(pilot, '{"cost": 13.5}')
        await send(pilot)
        assert missed(app).startswith("Accepted without a precondition")


async def test_precondition_required_428_then_if_match_by_show_me() -> None:
    app, _ = lesson_app("precondition-required", insisting)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "precondition-required")
        await log_in(pilot, "alice", "wonderland")
        await follow(pilot, "patch")
        await wait(pilot)
        await body(pilot, '{"cost": 13.5}')
        await send(pilot)
        assert missed(app).startswith("428: the server will not take a write")
        await go(pilot, "/products/1")
        await show_me(pilot)
        await send(pilot)
        assert done(app)
