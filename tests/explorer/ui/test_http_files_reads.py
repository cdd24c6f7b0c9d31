"""o on someone else's .http file reads nothing outside its folder, and no environment variable
its environment files do not name, until the person presses "Allow": the refusal is explained
on screen, and each read made is named. The decision is the core's (local_reads)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, OptionList, Static

from explorer.core.config import Config, HttpFilesConfig
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.dialogs.http_files import OpenRequestDialog
from tests.explorer.ui.conftest import ROOT, SIZE, AppFactory, mock_client, settle

SECRET = "TOP-SECRET-VALUE"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RESTWALK_TEST_KEY", SECRET)
    folder = tmp_path / "project"
    folder.mkdir()
    (tmp_path / "secret").write_text(SECRET)
    (folder / "api.http").write_text(
        "### greedy\nPOST http://mock/anything\nContent-Type: text/plain\n\n< ../secret\n\n"
        "### keyed\nGET http://mock/anything\nX-Key: {{$processEnv RESTWALK_TEST_KEY}}\n"
    )
    return folder


def notes(app: RestwalkApp) -> list[str]:
    return [n.message for n in app._notifications]


async def pick(pilot: Pilot[int], project: Path, index: int) -> OpenRequestDialog:
    """o on the project's file, Enter on request ``index``."""
    app = pilot.app
    assert isinstance(app, RestwalkApp)
    if not isinstance(app.screen, OpenRequestDialog):
        app.browser.http_files.path = str(project / "api.http")
        await pilot.press("o")
        await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, OpenRequestDialog)
    dialog.query_one(OptionList).focus()
    dialog.query_one(OptionList).highlighted = index
    await pilot.press("enter")
    await settle(pilot)
    return dialog


def problem(dialog: OpenRequestDialog) -> str:
    return str(dialog.query_one("#open-problem", Static).render()).replace("\n", " ")


async def test_a_file_outside_the_folder_waits_for_the_person_s_allow(
    make_app: AppFactory, project: Path
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        dialog = await pick(pilot, project, 0)
        assert app.screen is dialog  # nothing opened
        assert dialog.refused is not None
        secret = project.parent / "secret"
        assert (dialog.refused.kind, dialog.refused.name) == ("file", str(secret))
        said = problem(dialog)
        assert "is outside the .http file's folder" in said
        assert said.endswith("Allow this file only if you trust the .http file.")
        assert dialog.query_one("#allow-row").display
        assert dialog.focused is dialog.query_one("#refuse-read", Button)  # Enter refuses
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is dialog
        assert not dialog.query_one("#allow-row").display
        assert problem(dialog) == "Not allowed: nothing was read or sent."
        dialog = await pick(pilot, project, 0)
        await pilot.click("#allow-read")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert composer.spec.body_bytes == SECRET.encode()
        assert any(f"read the file {secret} (allowed)" in note for note in notes(app))
        await pilot.press("escape")
        await settle(pilot)
        assert app.browser.http_files.allowed is not None
        assert app.browser.http_files.allowed.allows_file(secret)  # for this session
        await pick(pilot, project, 0)
        assert isinstance(app.screen, ComposerScreen)


async def test_an_environment_variable_no_env_file_names_waits_too(
    make_app: AppFactory, project: Path
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        dialog = await pick(pilot, project, 1)
        assert dialog.refused is not None
        assert (dialog.refused.kind, dialog.refused.name) == ("variable", "RESTWALK_TEST_KEY")
        assert "RESTWALK_TEST_KEY is not named in the environment files" in problem(dialog)
        assert SECRET not in problem(dialog)
        await pilot.click("#allow-read")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert ("X-Key", SECRET) in composer.spec.headers
        assert any("read $RESTWALK_TEST_KEY of the environment (allowed)" in n for n in notes(app))


async def test_config_toml_allows_as_the_button_does(project: Path) -> None:
    config = Config(http_files=HttpFilesConfig(allow_env=("RESTWALK_TEST_KEY",)))
    app = create_app(ROOT, client=mock_client(), config=config)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pick(pilot, project, 1)
        assert isinstance(app.screen, ComposerScreen)
