"""The lessons of asynchronous work and partial content, done as a learner does them:
each ticks when its task is done, and a foreseen wrong attempt gets its hint instead."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

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
pytestmark = pytest.mark.lesson


class Clock:
    """The mock's clock, moved by the test instead of waiting for the job."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def clocked(clock: Clock):  # type: ignore[no-untyped-def]
    def prepare(mock: MockApp) -> None:
        mock.service.clock = clock

    return prepare


async def start_report(pilot: Pilot[int]) -> None:
    """Logged in as alice on /reports, its create action sent with a state chosen."""
    await log_in(pilot, "alice", "wonderland")
    await follow(pilot, "create")
    await wait(pilot)
    await body(pilot, '{"status": "placed"}')
    await send(pilot)


async def test_job_202_polled_while_running_then_the_report() -> None:
    clock = Clock()
    app, _ = lesson_app("async-job", clocked(clock))
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "async-job")
        await start_report(pilot)
        assert missed(app).startswith("202 Accepted: the work has only begun")
        await follow(pilot, "location")
        await wait(pilot)
        assert missed(app).startswith("Still running")
        clock.now += 60
        await pilot.press("r")
        await wait(pilot)
        assert done(app)


async def test_job_the_report_too_early_then_show_me() -> None:
    clock = Clock()
    app, _ = lesson_app("async-job", clocked(clock))
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "async-job")
        await log_in(pilot, "alice", "wonderland")
        await follow(pilot, "create")
        await wait(pilot)
        await body(pilot, '{"status": "sent"}')  # no state of an order
        await send(pilot)
        assert missed(app).startswith("The status field keeps only orders in one state")
        await compose(pilot)  # c on the 422: the same request, to correct
        await body(pilot, '{"status": ""}')  # as the action came: empty, every order
        await send(pilot)
        await go(pilot, "/reports/1")
        assert missed(app).startswith("The report does not exist until")
        clock.now += 60
        await show_me(pilot)
        await send(pilot)
        assert done(app)


def quick_jobs(mock: MockApp) -> None:
    mock.service.jobs.duration = 0.0


async def test_range_the_whole_report_a_unit_forgotten_then_206() -> None:
    app, _ = lesson_app("range-206", quick_jobs)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "range-206")
        await log_in(pilot, "alice", "wonderland")
        await go(pilot, "/reports/1")
        assert missed(app).startswith("The whole report, 200")
        await compose(pilot)
        await add_header(pilot, "Range", "0-99")
        await send(pilot)
        assert missed(app).startswith("The unit comes first")
        await compose(pilot)  # the request before, its Range kept: a second one added
        await add_header(pilot, "Range", "bytes=0-99")
        await send(pilot)
        assert missed(app).startswith("Range was sent twice")
        await go(pilot, "/reports/1")
        await compose(pilot)
        await add_header(pilot, "Range", "bytes=0-99")
        await send(pilot)
        assert done(app)


async def test_range_show_me() -> None:
    app, _ = lesson_app("range-206", quick_jobs)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "range-206")
        await show_me(pilot)
        await send(pilot)
        assert done(app)


async def test_unsatisfiable_a_range_inside_then_past_the_end() -> None:
    app, _ = lesson_app("range-416", quick_jobs)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "range-416")
        await log_in(pilot, "alice", "wonderland")
        await go(pilot, "/reports/1")
        await compose(pilot)
        await add_header(pilot, "Range", "bytes=0-99")
        await send(pilot)
        assert missed(app).startswith("206: that range is inside")
        await compose(pilot)  # the request before, its Range kept: a second one added
        await add_header(pilot, "Range", "bytes=100000-")
        await send(pilot)
        assert missed(app).startswith("Range was sent twice")
        await go(pilot, "/reports/1")
        await compose(pilot)
        await add_header(pilot, "Range", "bytes=100000-")
        await send(pilot)
        assert done(app)
