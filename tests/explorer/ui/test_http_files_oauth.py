"""``o`` opens a ``.http`` request that uses an OAuth 2.0 login of its environment
(``{{$auth.token("id")}}``, JetBrains' ``Security.Auth``) with the token put in, as
``restwalk run`` does: the first time, the OAuth dialog logs in over the open dialog;
then the login is held for the session. The "browser" is a form-submitting client on
the mock's ASGI app, and the way back a real socket to restwalk's loopback listener.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import orjson
import pytest
from textual.pilot import Pilot
from textual.widgets import OptionList, Static

from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.dialogs.http_files import OpenRequestDialog
from explorer.ui.dialogs.oauth_login import OAuthDialog
from explorer.ui.widgets.pairs_editor import PairsEditor
from mock_server import create_app as create_mock_app
from mock_server.app import MockApp
from tests.explorer.oauth_people import FormBrowser
from tests.explorer.ui.conftest import SIZE, on_screen, settle, until
from tests.mock_server.conftest import make_settings

BASE = "http://127.0.0.1"
REQUESTS = """\
### my orders
GET {{base}}/orders
Authorization: Bearer {{$auth.token("person")}}
"""
PERSON = {
    "Type": "OAuth2",
    "Grant Type": "Authorization Code",
    "Auth URL": "{{base}}/oauth/authorize",
    "Token URL": "{{base}}/oauth/token",
    "Client ID": "restwalk-cli",
    "Scope": "orders:read",
}


@pytest.fixture
def mock() -> MockApp:
    return create_mock_app(make_settings())


@pytest.fixture
def http_file(tmp_path: Path) -> Path:
    environments = {"dev": {"base": BASE, "Security": {"Auth": {"person": PERSON}}}}
    (tmp_path / "http-client.env.json").write_text(orjson.dumps(environments).decode())
    path = tmp_path / "api.http"
    path.write_text(REQUESTS)
    return path


async def _open_first(app: RestwalkApp, pilot: Pilot[int], path: Path) -> OpenRequestDialog:
    app.browser.http_files.path = str(path)
    app.browser.http_files.environment = "dev"
    await pilot.press("o")
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, OpenRequestDialog)
    assert dialog.query_one(OptionList).option_count == 1
    await pilot.press("enter")
    return dialog


def _authorization(composer: ComposerScreen) -> str:
    headers = composer.query_one("#headers", PairsEditor).pairs
    (value,) = [value for name, value in headers if name.lower() == "authorization"]
    return value


async def test_o_logs_in_once_and_puts_the_token_in(
    mock: MockApp, browser_opened: list[str], http_file: Path
) -> None:
    app = create_app(f"{BASE}/", client=Client(transport=httpx.ASGITransport(mock)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _open_first(app, pilot, http_file)
        await until(pilot, on_screen(app, OAuthDialog), "opened the OAuth dialog")
        oauth = app.screen
        assert isinstance(oauth, OAuthDialog)
        await until(pilot, lambda: oauth.grants, "offered a way to log in")
        await pilot.press("enter")  # in the browser
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
        await until(pilot, on_screen(app, ComposerScreen), "opened the composer")
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        token = _authorization(composer)
        assert token.startswith("Bearer ey")
        await pilot.press("ctrl+s")
        await settle(pilot)
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.status == 200  # /orders answers with the token
        # Opened again: the login is held, no dialog, the same token.
        await _open_first(app, pilot, http_file)
        await until(pilot, on_screen(app, ComposerScreen), "opened the composer")
        assert _authorization(app.screen) == token  # type: ignore[arg-type]
        assert len(browser_opened) == 1


async def test_a_cancelled_login_is_said_in_the_open_dialog(
    mock: MockApp, browser_opened: list[str], http_file: Path
) -> None:
    app = create_app(f"{BASE}/", client=Client(transport=httpx.ASGITransport(mock)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = await _open_first(app, pilot, http_file)
        await until(pilot, on_screen(app, OAuthDialog), "opened the OAuth dialog")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is dialog, "came back to the open dialog")
        await settle(pilot)
        problem = str(dialog.query_one("#open-problem", Static).render())
        assert "Not opened: Not logged in as 'person': the login was cancelled." in problem
        assert not browser_opened


async def test_with_no_environment_chosen_the_one_with_the_login_is_named(
    mock: MockApp, http_file: Path
) -> None:
    app = create_app(f"{BASE}/", client=Client(transport=httpx.ASGITransport(mock)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.http_files.path = str(http_file)
        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OpenRequestDialog)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog
        problem = str(dialog.query_one("#open-problem", Static).render())
        assert "No Security.Auth 'person'" in problem
        assert "Choose an environment that has it: dev." in problem


async def test_the_palette_forgets_the_http_files_logins(
    mock: MockApp, http_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Client credentials log in without the person; ctrl+p "forget the .http files'
    logins" forgets them (revoked where the server can), and says so; a second time
    there is nothing to forget."""
    environments = {
        "dev": {
            "base": BASE,
            "Security": {
                "Auth": {
                    "person": {
                        "Grant Type": "Client Credentials",
                        "Token URL": "{{base}}/oauth/token",
                        "Client ID": "reports-service",
                        "Client Secret": "reports-secret",
                        "Scope": "reports:read",
                    }
                }
            },
        }
    }
    (http_file.parent / "http-client.env.json").write_text(orjson.dumps(environments).decode())
    app = create_app(f"{BASE}/", client=Client(transport=httpx.ASGITransport(mock)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await _open_first(app, pilot, http_file)
        await until(pilot, on_screen(app, ComposerScreen), "opened the composer")
        assert _authorization(app.screen).startswith("Bearer ey")  # type: ignore[arg-type]
        await pilot.press("escape")
        await settle(pilot)
        logins = app.browser.http_files.logins
        assert logins is not None
        assert logins.logged_in == ["person"]
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"forget the .http")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert logins.logged_in == []
        said = [str(n.message) for n in app._notifications]
        # (its Security.Auth names no revocation endpoint, and nothing is discovered)
        assert "person: the tokens were forgotten (the server names no revocation endpoint)" in said
        app.browser.http_file_badge.forget_logins()
        await settle(pilot)
        said = [str(n.message) for n in app._notifications]
        assert "No .http file's OAuth 2.0 login is held: nothing to forget." in said
