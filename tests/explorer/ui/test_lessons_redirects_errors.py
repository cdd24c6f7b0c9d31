"""The lessons of redirects and of problem details, done as a learner does them: each
ticks when its task is done, and a foreseen wrong attempt gets its hint instead."""

from __future__ import annotations

import pytest

from tests.explorer.ui.conftest import SIZE
from tests.explorer.ui.course_pilot import compose, go, opened, send
from tests.explorer.ui.lesson_pilot import body, done, lesson_app, log_in, missed, show_me

#: Each lesson walked with the real keys: slow, and the same on any Python (run once in CI).
pytestmark = pytest.mark.lesson


async def test_chain_the_end_first_then_the_chain() -> None:
    app, _ = lesson_app("redirect-chain")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "redirect-chain")
        await go(pilot, "/redirect/0")
        assert missed(app).startswith("That is the end of the chain already")
        await go(pilot, "/redirect/21")
        assert missed(app).startswith("The mock builds chains of at most 20 hops")
        await go(pilot, "/redirect/5")
        assert done(app)


async def test_303_a_get_then_a_307_then_303() -> None:
    app, _ = lesson_app("redirect-303")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "redirect-303")
        await go(pilot, "/redirect/303")
        assert missed(app).startswith("A GET stays a GET")
        await compose(pilot, method="POST", url="/redirect/307")
        await body(pilot, '{"note": "here"}')
        await send(pilot)
        assert missed(app).startswith("307 and 308 keep the method")
        await compose(pilot, method="POST", url="/redirect/303")
        await body(pilot, '{"note": "here"}')
        await send(pilot)
        assert done(app)


async def test_307_a_302_then_show_me() -> None:
    app, _ = lesson_app("redirect-307")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "redirect-307")
        await compose(pilot, method="POST", url="/redirect/302")
        await body(pilot, '{"note": "here"}')
        await send(pilot)
        assert missed(app).startswith("301 and 302 on a POST")
        await show_me(pilot)
        await send(pilot)
        assert done(app)


async def test_problem_details_401_a_valid_one_then_a_422() -> None:
    app, _ = lesson_app("problem-details")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "problem-details")
        await compose(pilot, method="POST")
        await body(pilot, '{"name": "Ann", "address": 42}')
        await send(pilot)
        assert missed(app).startswith("A problem already: 401")
        await log_in(pilot, "alice", "wonderland")
        await compose(pilot, method="POST", url="/customers")
        await body(pilot, '{"name": "Ann", "address": "1 Main St"}')
        await send(pilot)
        assert missed(app).startswith("The customer was valid")
        await compose(pilot, method="POST", url="/customers")
        await body(pilot, '{"name": "Ann", "address": 42}')
        await send(pilot)
        assert done(app)


async def test_problem_details_show_me() -> None:
    app, _ = lesson_app("problem-details")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "problem-details")
        await show_me(pilot)
        await send(pilot)
        assert done(app)
