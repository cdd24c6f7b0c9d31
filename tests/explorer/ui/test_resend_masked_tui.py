"""Sending a history entry again in the TUI: the masked password is asked for, never sent
as ****; the session's credential goes instead of the masked Authorization."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, TextArea

from explorer.core.storage.history import HistoryStore
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.screens.history import HistoryScreen
from tests.explorer.ui.conftest import ROOT, SIZE, mock_client, settle


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RESTWALK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def notes(app: RestwalkApp) -> list[str]:
    return [n.message for n in app._notifications]


async def test_a_kept_login_sent_again_asks_for_the_password(data_dir: Path) -> None:
    app = create_app(ROOT, client=mock_client(), mock_users=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")  # alice logs in: POST /auth/token, kept masked
        await settle(pilot)
        app.screen.query_one("#user", Input).value = "alice"
        app.screen.query_one("#password", Input).value = "wonderland"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.keep.recorder is not None
        assert app.keep.recorder.close()
        app.keep.recorder = None
        await pilot.press("H")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press(*"auth POST")
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert any('body field "password" (r asks for its value)' in m for m in notes(app))
        await pilot.press("r")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        note = str(composer.query_one("#fields-note").render())
        assert 'The history kept **** in place of body field "password"' in note
        before = len(app.browser.trail.pages)
        await pilot.press("ctrl+s")  # **** is still there: refused
        await settle(pilot)
        assert app.screen is composer
        assert any('still in body field "password"' in m for m in notes(app))
        body = composer.query_one("#body", TextArea)
        body.text = body.text.replace('"****"', '"wonderland"')
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is app.browser
        page = app.browser.session.shown
        assert page is not None
        assert page.exchange is not None
        assert page.exchange.response.status == 200  # a new token, not a 400
        sent = page.exchange.request
        assert b"wonderland" in sent.body
        authorization = [v for k, v in sent.headers if k.lower() == "authorization"]
        assert all("****" not in v for v in authorization)
        assert len(app.browser.trail.pages) == before + 1
    kept = HistoryStore.in_directory(data_dir).search(limit=None)
    assert kept  # and what went is kept masked again
