"""The TUI logs in to the mock by OAuth 2.0 in three keys, and shows what its token says.

The mock's 401 names its OAuth metadata, so ``a``'s dialog offers OAuth; ``ctrl+o``
goes on to the OAuth dialog, which asks the server how it logs in; Enter on the first
way (the browser) opens the mock's consent page, where the person approves; the browser
comes back to restwalk's loopback listener and the page is sent again, with the
token. The "browser" is a form-submitting client on the mock's ASGI app, and the
way back a real socket to the listener.
"""

from __future__ import annotations

import httpx
import pytest
from textual.geometry import Region
from textual.widgets import OptionList, Static

from explorer.core.http.client import Client
from explorer.core.http.request import OAuthBearer
from explorer.ui.app import create_app
from explorer.ui.dialogs import oauth_login
from explorer.ui.dialogs.login import LoginDialog
from explorer.ui.dialogs.oauth_login import OAuthDialog
from explorer.ui.dialogs.session_info import SessionDialog
from explorer.ui.dialogs.token_view import TokenViewDialog
from mock_server import create_app as create_mock_app
from mock_server.app import MockApp
from tests.explorer.oauth_people import FormBrowser
from tests.explorer.ui.conftest import SIZE, settle, until
from tests.mock_server.conftest import make_settings

BASE = "http://127.0.0.1"


@pytest.fixture
def mock() -> MockApp:
    return create_mock_app(make_settings())


def on_screen(widget: Static) -> str:
    """The lines ``widget`` draws, as text."""
    lines = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join(line.text for line in lines)


async def test_log_in_to_the_mock_in_three_keys(mock: MockApp, browser_opened: list[str]) -> None:
    app = create_app(f"{BASE}/orders", client=Client(transport=httpx.ASGITransport(mock)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.session.shown.exchange.response.status == 401
        await pilot.press("a")  # 1: log in; the 401 named OAuth metadata: OAuth is offered
        assert isinstance(app.screen, LoginDialog)
        assert "ctrl+o" in str(app.screen.query_one("#oauth-offered", Static).render())
        await pilot.press("ctrl+o")  # 2: on to the OAuth dialog, which asks the server
        dialog = app.screen
        assert isinstance(dialog, OAuthDialog)
        await until(pilot, lambda: dialog.grants, "offered a way to log in")
        assert dialog.grants[0] == "authorization_code"
        await pilot.press("enter")  # 3: in the browser
        await until(pilot, lambda: browser_opened, "opened the browser")
        progress = str(dialog.query_one("#oauth-progress", Static).render())
        assert "The browser is open on the server's page" in progress
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
        await settle(pilot)
        screen = app.screen
        assert screen.session.shown.exchange.response.status == 200
        assert screen.session.credential(BASE) == OAuthBearer(BASE)
        # s lists the credentials; t opens the token's view, each claim explained.
        await pilot.press("s")
        assert isinstance(app.screen, SessionDialog)
        await pilot.press("t")
        assert isinstance(app.screen, TokenViewDialog)
        await pilot.pause()
        shown = on_screen(app.screen.query_one("#token-view", Static))
        assert "a JWT access token (RFC 9068)" in shown
        assert "who may accept it" in shown
        assert "valid for 59 min" in shown
        token = screen.tab.client.token_sources[BASE].tokens.access_token  # type: ignore[attr-defined]
        assert token not in shown
        await pilot.press("t")  # asked for: the token itself
        await pilot.pause()
        assert token[:40] in on_screen(app.screen.query_one("#token-view", Static)).replace(
            "\n", ""
        )
        await pilot.press("escape", "escape")
        # x forgets the login: the client knows it no more.
        await pilot.press("x")
        assert BASE not in screen.tab.client.token_sources


async def test_the_device_code_shows_a_qr_code_and_a_countdown_and_escape_cancels(
    mock: MockApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(oauth_login, "why_no_browser", lambda *_a, **_k: "an SSH session")
    app = create_app(f"{BASE}/orders", client=Client(transport=httpx.ASGITransport(mock)))
    async with app.run_test(size=(120, 60)) as pilot:
        await settle(pilot)
        await pilot.press("a", "ctrl+o")
        dialog = app.screen
        assert isinstance(dialog, OAuthDialog)
        await until(pilot, lambda: dialog.grants, "offered a way to log in")
        assert dialog.grants[0] == "device_code"  # no browser opens here: first
        assert dialog.query_one(OptionList).option_count == 2
        await pilot.press("enter")
        await until(pilot, lambda: dialog._code is not None, "shown the device code")
        code = dialog._code
        assert code is not None
        said = str(dialog.query_one("#oauth-user-code", Static).render())
        assert said.startswith(f"{code.user_code}\n")
        assert f"or open {code.verification_uri_complete} (the code filled in)" in said
        qr = str(dialog.query_one("#oauth-qr", Static).render())
        assert qr.count("\n") > 10
        assert set(qr) <= {"█", "▀", "▄", " ", "\n"}
        countdown = str(dialog.query_one("#oauth-countdown", Static).render())
        assert "The code expires in 9 min" in countdown
        assert "every 5 s" in countdown  # the mock's interval
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, OAuthDialog)
        assert app.screen.session.credential(BASE) is None
        assert not any(w.group == "oauth-login" and w.is_running for w in dialog.workers)
