"""A dialog whose Enter can fail (saving a body, exporting HAR, naming a bookmark) stays
open with the problem shown: what is typed next goes to the dialog, never to the browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.bookmark_name import BookmarkNameDialog
from explorer.ui.dialogs.save_body import SaveBodyDialog
from explorer.ui.dialogs.save_path import SavePathDialog
from explorer.ui.har_export import export_walk
from tests.explorer.ui.conftest import ROOT, SIZE, mock_client, settle

#: A file name longer than any file system takes (255 bytes): stat and open both fail.
TOO_LONG = "x" * 300 + ".json"


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RESTWALK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def app_on(url: str) -> RestwalkApp:
    return create_app(url, client=mock_client(), mock_users=True)


def files_in(directory: Path) -> list[Path]:
    return list(directory.iterdir())


def note_of(app: RestwalkApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


async def test_save_body_into_a_missing_directory_keeps_the_dialog(
    data_dir: Path, tmp_path: Path
) -> None:
    app = app_on(ROOT + "customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        field = app.screen.query_one("#save-path", Input)
        field.value = str(tmp_path / "nodir" / "x.json")
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SaveBodyDialog)
        assert "does not exist" in note_of(app, "#save-warning")
        field.action_end()
        await pilot.press("slash", "m")  # the browser's search and bookmark keys
        await settle(pilot)
        assert isinstance(app.screen, SaveBodyDialog)
        assert field.value == str(tmp_path / "nodir" / "x.json") + "/m"
        field.value = str(tmp_path / "x.json")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is app.browser
    assert (tmp_path / "x.json").read_bytes().startswith(b"{")
    assert not (data_dir / "bookmarks.json").exists()


async def test_save_body_that_cannot_be_written_keeps_the_dialog(tmp_path: Path) -> None:
    app = app_on(ROOT + "customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        app.screen.query_one("#save-path", Input).value = str(tmp_path / TOO_LONG)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SaveBodyDialog)
        assert "cannot be written" in note_of(app, "#save-warning")
    assert files_in(tmp_path) == []


async def test_har_export_that_cannot_be_written_keeps_the_dialog(
    data_dir: Path, tmp_path: Path
) -> None:
    app = app_on(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        export_walk(app, app.browser.trail.pages, app.keep.config.mask_secrets)
        await settle(pilot)
        assert isinstance(app.screen, SavePathDialog)
        app.screen.query_one(Input).value = str(tmp_path / TOO_LONG)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, SavePathDialog)
        assert "File name too long" in note_of(app, "#save-note")
        app.screen.query_one(Input).value = str(tmp_path / "walk.har")
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is app.browser
    assert json.loads((tmp_path / "walk.har").read_text())["log"]["entries"]


async def test_a_bookmark_that_cannot_be_saved_keeps_the_dialog(data_dir: Path) -> None:
    app = app_on(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert isinstance(app.screen, BookmarkNameDialog)
        bookmarks = data_dir / "bookmarks.json"
        bookmarks.parent.mkdir(parents=True, exist_ok=True)
        bookmarks.write_text("{broken")  # (another restwalk, or an editor, meanwhile)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, BookmarkNameDialog)
        assert "is not valid JSON" in note_of(app, "#bookmark-note")
        assert bookmarks.read_text() == "{broken"
        bookmarks.unlink()
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is app.browser
    assert len(json.loads(bookmarks.read_text())["bookmarks"]) == 1
