"""The OAuth 2.0 lesson, done as a learner does it: a 401, a password where a token was
meant, then a, ctrl+o and the browser's login page, and the tick.

The "browser" is a form-submitting client on the mock's ASGI app, and its way back a
real socket to restwalk's loopback listener (as in test_oauth_tui.py).
"""

from __future__ import annotations

import json

import httpx
import pytest

from explorer.ui.dialogs.oauth_login import OAuthDialog
from tests.explorer.oauth_people import FormBrowser
from tests.explorer.ui.conftest import SIZE, until
from tests.explorer.ui.course_pilot import go, opened, send, wait
from tests.explorer.ui.lesson_pilot import done, lesson_app, log_in, missed, show_me

#: Each lesson walked with the real keys: slow, and the same on any Python (run once in CI).
pytestmark = pytest.mark.lesson

#: OAuth over plain http is for loopback only (RFC 6749 section 3.1): the mock's address.
LOOPBACK = "http://127.0.0.1/"


async def test_oauth_a_401_basic_then_ctrl_o(browser_opened: list[str]) -> None:
    app, mock = lesson_app("oauth-login", root=LOOPBACK)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "oauth-login")
        await go(pilot, "/orders")
        assert missed(app).startswith("Orders need a credential")
        await log_in(pilot, "alice", "wonderland", "basic")
        assert missed(app).startswith("The right orders, but with a password")
        await pilot.press("x")
        await wait(pilot)
        await pilot.press("a", "ctrl+o")
        dialog = app.screen
        assert isinstance(dialog, OAuthDialog)
        await until(pilot, lambda: dialog.grants, "offered a way to log in")
        await pilot.press("enter")  # the browser's way
        await until(pilot, lambda: browser_opened, "opened the browser")
        async with FormBrowser(httpx.ASGITransport(mock)) as browser:
            back = await browser.visit(
                browser_opened[0],
                filled={"username": "alice", "password": "wonderland"},
                button=lambda page: page.forms[0].buttons.get("approve"),
                stop=lambda url: "/callback" in url,
            )
        async with httpx.AsyncClient() as to_restwalk:
            assert (await to_restwalk.get(back)).status_code == 200
        await until(pilot, lambda: app.screen is not dialog, "closed the OAuth dialog")
        await wait(pilot)
        assert done(app)


async def test_oauth_show_me_gets_a_token() -> None:
    app, _ = lesson_app("oauth-login", root=LOOPBACK)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "oauth-login")
        await show_me(pilot)
        await send(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.exchange is not None
        assert page.exchange.response.status == 200
        assert json.loads(page.exchange.response.body)["token_type"] == "Bearer"
        assert not done(app)  # the token, not yet used on /orders
