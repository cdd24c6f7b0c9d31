"""The lessons of limits, done as a learner does them: each ticks when its task is done,
and a foreseen wrong attempt gets its hint instead."""

from __future__ import annotations

import httpx
import pytest

from mock_server.settings import RateLimit
from tests.explorer.ui.conftest import ROOT, SIZE
from tests.explorer.ui.course_pilot import compose, go, opened, send, wait
from tests.explorer.ui.lesson_pilot import add_header, done, lesson_app, missed, show_me

#: Each lesson walked with the real keys: slow, and the same on any Python (run once in CI).
pytestmark = pytest.mark.lesson


async def test_too_many_the_demo_then_a_shell_uses_the_limit_up() -> None:
    # The lesson's mock allows 100 requests in 10 s; this one 4 in a minute: the same
    # refusal after fewer requests.
    app, mock = lesson_app("too-many-requests", rate_limit=RateLimit(4, 60.0))
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "too-many-requests")
        await go(pilot, "/status/429")
        assert missed(app).startswith("That is the status demo")
        await go(pilot, "/customers/1")
        assert missed(app).startswith("Within the limit")
        # The shell's curl loop: the same client to the mock (the same address).
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=mock), base_url=ROOT
        ) as shell:
            answers = [(await shell.get("/customers/1")).status_code for _ in range(5)]
        assert answers[-1] == 429
        await pilot.press("r")
        await wait(pilot)
        assert done(app)


async def test_too_large_a_small_header_then_show_me() -> None:
    app, _ = lesson_app("too-large")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "too-large")
        await compose(pilot)
        await add_header(pilot, "X-Padding", "a" * 100)
        await send(pilot)
        assert missed(app).startswith("Within every limit")
        await show_me(pilot)
        await send(pilot)
        assert done(app)


async def test_too_large_a_long_header_pasted() -> None:
    app, _ = lesson_app("too-large")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "too-large")
        await compose(pilot)
        await add_header(pilot, "X-Note", "a" * 5000)
        await send(pilot)
        assert done(app)
