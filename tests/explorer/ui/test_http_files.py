"""S saves a request to a .http file, o opens one in the composer, E picks the environment."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Label, OptionList, Static

from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.dialogs.http_files import (
    EnvironmentDialog,
    OpenRequestDialog,
    SaveRequestDialog,
)
from tests.explorer.ui.conftest import ROOT, SIZE, AppFactory, mock_client, settle

KEPT = """\
# My requests: this comment, the unknown directive and the script stay.

### root
# @vendor-thing 1
GET http://old.example/
# a header comment

> {% client.test("kept", () => {}); %}

### other
GET http://other.example/
"""


def _text(app: RestwalkApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def _save(app: RestwalkApp, pilot, path: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(app.screen, SaveRequestDialog)
    app.screen.query_one("#http-path", Input).value = str(path)
    app.screen.query_one("#request-name", Input).value = name
    await pilot.press("enter")
    await pilot.pause()


async def test_s_saves_the_page_into_a_file_changing_only_that_request(
    make_app: AppFactory, tmp_path: Path
) -> None:
    path = tmp_path / "api.http"
    path.write_text(KEPT)
    app = make_app("http://mock/customers?limit=2")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("S")
        await pilot.pause()
        assert app.screen.query_one("#request-name", Input).value == "GET /customers"
        await _save(app, pilot, path, "root")
        assert not isinstance(app.screen, SaveRequestDialog)
        assert path.read_text() == KEPT.replace(
            "GET http://old.example/\n", "GET http://mock/customers?limit=2\n"
        )
        await pilot.press("S")
        await pilot.pause()
        assert app.screen.query_one("#http-path", Input).value == str(path)
        await _save(app, pilot, path, "new one")
        assert path.read_text().endswith("\n### new one\nGET http://mock/customers?limit=2\n")


async def test_the_composer_saves_what_it_holds_and_a_bad_name_is_explained(
    make_app: AppFactory, tmp_path: Path
) -> None:
    path = tmp_path / "twice.http"
    path.write_text("### a\nGET http://x/1\n\n### a\nGET http://x/2\n")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        composer.query_one("#method", Input).value = "DELETE"
        await pilot.press("f2")
        await pilot.pause()
        await _save(app, pilot, path, "a")
        assert isinstance(app.screen, SaveRequestDialog)  # stays open, says why
        assert "Several requests are named 'a' (lines 2, 5)" in _text(app, "#save-problem")
        await _save(app, pilot, path, "gone")
        assert app.screen is composer
        assert "### gone\n# @name gone\nDELETE http://mock/\n" in path.read_text()


async def test_e_picks_the_environment_and_o_opens_a_request_with_it(
    make_app: AppFactory, tmp_path: Path
) -> None:
    (tmp_path / "http-client.env.json").write_text(
        '{"dev": {"base": "http://mock"}, "prod": {"base": "https://api.example"}}'
    )
    (tmp_path / "http-client.private.env.json").write_text('{"dev": {"who": "Ada"}}')
    path = tmp_path / "api.http"
    path.write_text(
        "### find\nGET {{base}}/customers?name={{who}}\n\n> {% kept() %}\n\n"
        "### broken\nGET {{base}}/{{nope}}\n"
    )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.http_files.path = str(path)
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, EnvironmentDialog)
        options = app.screen.query_one(OptionList)
        assert options.option_count == 3  # none, dev, prod
        options.highlighted = 1
        await pilot.press("enter")
        await pilot.pause()
        assert str(app.browser.query_one("#env-badge", Label).render()) == "env: dev"

        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OpenRequestDialog)
        dialog.query_one(OptionList).highlighted = 1
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog  # an undefined variable is explained, not sent
        assert "{{nope}} is not defined in request 'broken' (api.http, line 7)" in _text(
            app, "#open-problem"
        )
        dialog.query_one(OptionList).highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert composer.query_one("#url", Input).value == "http://mock/customers?name=Ada"
        await pilot.press("ctrl+s")
        await settle(pilot)
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.status == 200
        assert app.browser.http_files.opened is not None
        assert app.browser.http_files.opened.name == "find"


async def test_a_bad_env_file_is_explained_in_the_dialog_and_left_alone(
    make_app: AppFactory, tmp_path: Path
) -> None:
    env = tmp_path / "http-client.env.json"
    env.write_text('{"dev": {"base": }')
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.http_files.path = str(tmp_path / "api.http")
        await pilot.press("E")
        await pilot.pause()
        assert f"{env}, line 1: not valid JSON" in _text(app, "#env-problem")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OpenRequestDialog)
        assert env.read_text() == '{"dev": {"base": }'


async def test_the_http_file_and_environment_of_the_command_line_are_used(
    tmp_path: Path,
) -> None:
    (tmp_path / "http-client.env.json").write_text('{"dev": {"base": "http://mock"}}')
    path = tmp_path / "api.http"
    path.write_text("### find\nGET {{base}}/customers\n")
    app = create_app(
        ROOT, client=mock_client(), mock_users=True, http_file=str(path), environment="dev"
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert str(app.browser.query_one("#env-badge", Label).render()) == "env: dev"
        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OpenRequestDialog)
        await pilot.press("enter")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert composer.query_one("#url", Input).value == "http://mock/customers"


async def test_o_says_why_a_request_with_a_version_restwalk_cannot_send_is_not_opened(
    make_app: AppFactory, tmp_path: Path
) -> None:
    path = tmp_path / "api.http"
    path.write_text("### old\nGET http://mock/ HTTP/1.0\n")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.http_files.path = str(path)
        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, OpenRequestDialog)
        dialog.query_one(OptionList).highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog
        assert _text(app, "#open-problem") == (
            "HTTP/1.0 is not a version restwalk can send (api.http, line 2, request 'old'): "
            "restwalk sends HTTP/1.1 and HTTP/2; its client, httpx, never sends HTTP/1.0. "
            "Write HTTP/1.1, HTTP/2 or HTTP/2 (Prior Knowledge) after the URL, or no version."
        )
