"""The lessons of statelessness and authentication, done as a learner does them: each
ticks when its task is done, and a foreseen wrong attempt gets its hint instead."""

from __future__ import annotations

import pytest

from tests.explorer.ui.conftest import SIZE
from tests.explorer.ui.course_pilot import compose, go, opened, send
from tests.explorer.ui.lesson_pilot import body, done, lesson_app, log_in, missed, show_me

#: Each lesson walked with the real keys: slow, and the same on any Python (run once in CI).
pytestmark = pytest.mark.lesson


async def test_challenge_the_401_then_basic() -> None:
    app, _ = lesson_app("challenge")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "challenge")
        await go(pilot, "/orders")
        assert "WWW-Authenticate" in missed(app)
        await log_in(pilot, "alice", "wrong", kind="basic")
        assert "wrong" in missed(app)
        assert not done(app)
        await pilot.press("x")
        await log_in(pilot, "alice", "wonderland", kind="basic")
        assert done(app)


async def test_challenge_a_token_is_not_basic() -> None:
    app, _ = lesson_app("challenge")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "challenge")
        await go(pilot, "/orders")
        await log_in(pilot, "bob", "builder", kind="token")
        assert "Bearer token, not Basic" in missed(app)
        assert not done(app)


async def test_token_logs_in_once_and_sends_the_token() -> None:
    app, _ = lesson_app("token")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "token")
        await log_in(pilot, "bob", "builder", kind="basic")
        assert "That is Basic" in missed(app)
        await pilot.press("x")
        await log_in(pilot, "bob", "builder", kind="token")
        assert done(app)


async def test_forbidden_is_bob_writing() -> None:
    app, _ = lesson_app("forbidden")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "forbidden")
        await compose(pilot, method="POST")
        await body(pilot, '{"name": "Ann", "address": "1 Main St, Springfield, IL 62701"}')
        await send(pilot)
        assert missed(app).startswith("401: the server does not know who you are")
        await log_in(pilot, "bob", "builder")  # the composer asks to send the POST again
        await send(pilot)
        assert done(app)


async def test_forbidden_not_as_alice() -> None:
    app, _ = lesson_app("forbidden")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "forbidden")
        await log_in(pilot, "alice", "wonderland")
        await show_me(pilot)  # bob's Basic credential in the header wins over alice's
        await send(pilot)
        assert done(app)


async def test_session_then_logout() -> None:
    app, _ = lesson_app("session-logout")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "session-logout")
        await go(pilot, "/auth/whoami")
        assert "No session yet" in missed(app)
        await pilot.press("alt+left")
        await log_in(pilot, "bob", "builder", kind="session")
        await go(pilot, "/auth/whoami")
        assert "Now end the session" in missed(app)
        await go(pilot, "/auth")
        await compose(pilot, method="DELETE", url="/auth/session")
        await send(pilot)
        assert "The session is over" in missed(app)
        await go(pilot, "/auth/whoami")
        assert done(app)
