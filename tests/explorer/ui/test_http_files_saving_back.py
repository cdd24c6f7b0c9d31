"""The QA report's .http defects, as a person meets them in the TUI (QA1 items 1, 3 and 6).

1. F2 or S on a request opened from a file writes its {{variables}} back, never a secret;
3. S after a token login saves what ``y t`` copies (the token as {{token}}, kept private);
6. E looks beside the file last listed, o remembers it, E works inside the o dialog.
"""

from __future__ import annotations

import json
from http import HTTPStatus
from pathlib import Path

import pytest
from textual.widgets import Checkbox, Input, Label, OptionList, Static, TextArea

from explorer.ui.app import RestwalkApp
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.dialogs.copy_menu import CopyMenu
from explorer.ui.dialogs.http_files import (
    EnvironmentDialog,
    OpenRequestDialog,
    SaveRequestDialog,
)
from tests.explorer.ui.conftest import SIZE, AppFactory, settle
from tests.explorer.ui.test_requests import log_in

API = """\
### health
GET {{base}}/

### login
# @name login
POST {{base}}/auth/token
Content-Type: application/json

{"username": "alice", "password": "{{password}}"}

> {% client.global.set("token", response.body.access_token); %}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    directory = tmp_path / "proj"
    directory.mkdir()
    (directory / "api.http").write_text(API)
    (directory / "http-client.env.json").write_text('{"dev": {"base": "http://mock"}}')
    (directory / "http-client.private.env.json").write_text('{"dev": {"password": "wonderland"}}')
    return directory


def _text(app: RestwalkApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def _open(app: RestwalkApp, pilot, path: Path, index: int) -> ComposerScreen:  # type: ignore[no-untyped-def]
    """o, the file, Enter, the request, Enter: its composer."""
    await pilot.press("o")
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, OpenRequestDialog)
    dialog.query_one("#http-path", Input).value = str(path)
    dialog.query_one("#http-path", Input).focus()
    await pilot.press("enter")
    await pilot.pause()
    dialog.query_one(OptionList).highlighted = index
    await pilot.press("enter")
    await pilot.pause()
    composer = app.screen
    assert isinstance(composer, ComposerScreen), _text(app, "#open-problem")
    return composer


async def _pick_dev(app: RestwalkApp, pilot) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(app.screen, EnvironmentDialog)
    options = app.screen.query_one(OptionList)
    ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
    options.highlighted = ids.index("env:dev")
    await pilot.press("enter")
    await pilot.pause()


async def test_f2_on_a_request_opened_from_a_file_keeps_its_variables_and_secrets_out(
    make_app: AppFactory, project: Path
) -> None:
    api = project / "api.http"
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.http_files.path = str(api)
        await pilot.press("E")
        await pilot.pause()
        await _pick_dev(app, pilot)
        composer = await _open(app, pilot, api, 1)
        assert "wonderland" in composer.query_one("#body", TextArea).text
        await pilot.press("f2")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, SaveRequestDialog)
        assert dialog.query_one("#http-path", Input).value == str(api)
        assert dialog.query_one("#request-name", Input).value == "login"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is composer
        assert api.read_text() == API  # nothing changed: nothing in the file changes

        # Edited: the edit is saved, the variables where their values were left stay.
        composer.query_one("#url", Input).value = "http://mock/auth/token?x=1"
        body = composer.query_one("#body", TextArea)
        body.text = body.text.replace('"alice"', '"bob"')
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        text = api.read_text()
        assert "POST {{base}}/auth/token?x=1\n" in text
        assert '{"username": "bob", "password": "{{password}}"}\n' in text
        assert "wonderland" not in text
        assert "http://mock" not in text

        # Sent, then S on its page: saved back there again, nothing more changed.
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.browser.session.shown.status == HTTPStatus.UNAUTHORIZED  # bob is no user
        await pilot.press("S")
        await pilot.pause()
        assert app.screen.query_one("#request-name", Input).value == "login"
        await pilot.press("enter")
        await pilot.pause()
        assert api.read_text() == text


async def test_s_after_a_token_login_saves_the_token_kept_private_or_as_y_t_copies_it(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app("http://mock/orders?customerId=3")
    path = tmp_path / "orders.http"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await log_in(pilot, "alice", "wonderland")
        assert app.browser.session.shown.status == HTTPStatus.OK
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, CopyMenu)
        await pilot.press("t")
        await settle(pilot)
        copied = app.clipboard
        token = copied.split("Authorization: Bearer ", 1)[1].split("\n", 1)[0]

        await pilot.press("S")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, SaveRequestDialog)
        assert _text(app, "#save-problem") == ""
        assert dialog.query_one("#private-token", Checkbox).value
        dialog.query_one("#http-path", Input).value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, SaveRequestDialog)
        text = path.read_text()
        assert "GET http://mock/orders?customerId=3\nAuthorization: Bearer {{token}}\n" in text
        assert token not in text
        private = json.loads((tmp_path / "http-client.private.env.json").read_text())
        assert private == {"$shared": {"token": token}}

        await pilot.press("S")
        await pilot.pause()
        dialog = app.screen
        dialog.query_one("#private-token", Checkbox).value = False
        await pilot.pause()
        assert "written into the file as it is" in _text(app, "#save-note")
        dialog.query_one("#request-name", Input).value = "as copied"
        dialog.query_one("#request-name", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert path.read_text().endswith(copied.replace("###\n", "### as copied\n", 1))


async def test_e_and_o_look_beside_the_file_last_listed_and_e_works_inside_o(
    make_app: AppFactory, project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    api = project / "api.http"
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OpenRequestDialog)
        dialog.query_one("#http-path", Input).value = str(api)
        await pilot.press("enter")
        await pilot.pause()
        assert dialog.query_one(OptionList).option_count == 2
        await pilot.press("enter")  # health: {{base}} needs an environment
        await pilot.pause()
        assert "{{base}} is not defined" in _text(app, "#open-problem")
        await pilot.press("E")  # inside the dialog: the environments beside the file
        await pilot.pause()
        assert isinstance(app.screen, EnvironmentDialog)
        assert app.screen.directory == project
        await _pick_dev(app, pilot)
        assert app.screen is dialog
        assert "Environment: dev" in _text(app, "#open-environment")
        await pilot.press("escape")
        await pilot.pause()
        assert str(app.browser.query_one("#env-badge", Label).render()) == "env: dev"
        assert app.browser.http_files.path == str(api)

        await pilot.press("E")  # beside the file listed, not the working directory
        await pilot.pause()
        assert isinstance(app.screen, EnvironmentDialog)
        assert app.screen.directory == project
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("o")  # the file listed is offered again, listed at once
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OpenRequestDialog)
        assert dialog.query_one("#http-path", Input).value == str(api)
        assert dialog.query_one(OptionList).option_count == 2
        await pilot.press("enter")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert composer.query_one("#url", Input).value == "http://mock/"
