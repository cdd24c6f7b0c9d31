"""History, bookmarks and HAR export in the TUI, with the Pilot, on the mock's ASGI app."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from textual.widgets import Input

from explorer.core.config import Config, HistoryConfig
from explorer.core.http.client import Client
from explorer.core.http.request import RequestSpec
from explorer.core.session.rel_path import RelPath, Step
from explorer.core.storage.bookmarks import BookmarkStore
from explorer.core.storage.history import HistoryStore
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.bookmark_name import BookmarkNameDialog
from explorer.ui.dialogs.login import LoginDialog
from explorer.ui.dialogs.save_path import SavePathDialog
from explorer.ui.har_export import export_walk
from explorer.ui.screens.bookmarks import BookmarksScreen
from explorer.ui.screens.history import HistoryScreen
from explorer.ui.widgets.row_table import RowTable
from tests.explorer.ui.conftest import ROOT, SIZE, mock_client, on_screen, settle, until


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RESTWALK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def app_on_mock(config: Config | None = None) -> RestwalkApp:
    return create_app(ROOT, client=mock_client(), mock_users=True, config=config)


async def follow(pilot, *words: str) -> None:  # type: ignore[no-untyped-def]
    """Follow links of the page shown by the words of ``--follow``."""
    browser = pilot.app.browser
    for word in words:
        link = browser.session.choose(word)
        assert link is not None, word
        browser.follow_link(link)
        await settle(pilot)


def kept_bytes(directory: Path) -> bytes:
    """Every byte of the files restwalk keeps in ``directory``."""
    return b"".join(p.read_bytes() for p in directory.iterdir() if p.is_file())


def moved_aside(directory: Path) -> int:
    """How many damaged history files were moved aside in ``directory``."""
    return len(list(directory.glob("history.sqlite.corrupt-*")))


def write_file(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def flush(app: RestwalkApp) -> None:
    """Wait until the recorder has written what it was given (it runs on its own thread)."""
    assert app.keep.recorder is not None
    assert app.keep.recorder.close()


async def test_every_exchange_is_recorded_off_the_ui_thread(data_dir: Path) -> None:
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, "customers", "item#2")
        flush(app)
        thread = app.keep.recorder._thread
        assert thread is not None
        assert thread.name == "restwalk-history"
    entries = HistoryStore.in_directory(data_dir).search()
    assert [e.url for e in entries] == [
        "http://mock/customers/2",
        "http://mock/customers",
        "http://mock/",
    ]
    assert {e.source for e in entries} == {"tui"}


async def test_the_start_page_is_written_once_the_first_screen_is_drawn(data_dir: Path) -> None:
    """Its writing waits for the first screen (it would share the interpreter with the
    drawing), and no longer: it is in the history while the TUI runs."""
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        recorder = app.keep.recorder
        assert recorder is not None
        await until(pilot, lambda: app.screen is app.browser, "the first screen")
        await until(pilot, lambda: recorder.written == 1, "the start page written")
        entries = HistoryStore.in_directory(data_dir).search()
        assert [e.url for e in entries] == ["http://mock/"]


async def test_a_followed_page_is_written_once_it_is_painted(data_dir: Path) -> None:
    """The history's thread waits while a page is sent and drawn (it would take the
    interpreter from the drawing), and writes it once the page is painted."""
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        recorder = app.keep.recorder
        assert recorder is not None
        await until(pilot, lambda: recorder.written == 1, "the start page written")
        browser = app.browser
        link = browser.session.choose("customers")
        assert link is not None
        browser.follow_link(link)
        assert recorder._held  # from the send
        shown = browser.session
        await until(
            pilot,
            lambda: (
                shown.shown is not None
                and shown.shown.url == "http://mock/customers"
                and shown.shown.wait is not None
                and shown.shown.wait.shown_at is not None
            ),
            "the page painted",
        )
        await until(pilot, lambda: recorder.written == 2, "the page written")
        assert not recorder._held
    entries = HistoryStore.in_directory(data_dir).search()
    assert [e.url for e in entries] == ["http://mock/customers", "http://mock/"]


async def test_the_history_screen_searches_and_reopens_an_entry(data_dir: Path) -> None:
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, "customers", "item#2")
        app.browser.open_url("/nowhere")
        await settle(pilot)
        flush(app)
        app.keep.recorder = None  # written: the rest of the test reads
        await pilot.press("H")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        assert next(e.url for e in screen.entries) == "http://mock/nowhere"
        assert len(screen.entries) == 4
        await pilot.press(*"4xx")
        await settle(pilot)
        assert [e.status for e in screen.entries] == [404]
        await pilot.press("ctrl+u", *"customers GET")
        await settle(pilot)
        assert [e.url for e in screen.entries] == [
            "http://mock/customers/2",
            "http://mock/customers",
        ]
        await pilot.press("down")  # into the table
        await pilot.press("down", "enter")  # the older one: /customers
        await settle(pilot)
        assert app.screen is app.browser
        page = app.browser.session.shown
        assert page is not None
        assert page.via == "history"
        assert page.spec.url == "http://mock/customers"
        assert page.links  # read from the kept body: they work
        assert app.browser.session.choose("item#1") is not None
        before = len(app.browser.trail.pages)
        await pilot.press("r")  # sends it again, in its place
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.via == "history"
        assert page.sent_at is not None  # a new answer, not the kept one
        assert len(app.browser.trail.pages) == before


async def test_a_bad_search_word_is_explained_on_the_screen(data_dir: Path) -> None:
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        await pilot.press(*"since:someday")
        await settle(pilot)
        note = app.screen.query_one("#history-note")
        assert "'someday' is not a time" in str(note.render())


async def test_a_login_token_never_reaches_the_history(data_dir: Path) -> None:
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        dialog = app.screen
        dialog.query_one("#user", Input).value = "alice"
        dialog.query_one("#password", Input).value = "wonderland"
        await pilot.press("ctrl+s")
        await settle(pilot)
        flush(app)
    raw = kept_bytes(data_dir)
    assert b"POST" in raw or b"/auth/token" in raw
    assert b"wonderland" not in raw
    assert b"eyJ" not in raw


async def test_looking_for_a_description_leaves_no_history_entry(data_dir: Path) -> None:
    """a on a Bearer 401 with no OpenAPI description anywhere, then O: restwalk's own
    requests to /openapi.json, /v3/api-docs... (each a 404) are not the person's: H
    lists the one page asked for (QA 2, item 5)."""

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/users/me":
            return httpx.Response(401, headers={"WWW-Authenticate": "Bearer"})
        return httpx.Response(404, json={"detail": "Not Found"})

    app = create_app("http://shop/users/me", client=Client(transport=httpx.MockTransport(answer)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await until(pilot, on_screen(app, LoginDialog), "the login dialog")
        await settle(pilot)
        await pilot.press("escape")
        await pilot.press("O")
        await settle(pilot)
        assert len(app.browser.trail.pages) == 1
        flush(app)
    urls = [entry.url for entry in HistoryStore.in_directory(data_dir).search()]
    assert urls == ["http://shop/users/me"]


async def test_with_masking_off_the_token_is_kept(data_dir: Path) -> None:
    app = app_on_mock(Config(history=HistoryConfig(mask_secrets=False)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.send(
            RequestSpec(method="POST", url="http://mock/anything", body='{"password": "kept"}')
        )
        await settle(pilot)
        flush(app)
    raw = kept_bytes(data_dir)
    assert b'"password": "kept"' in raw


async def test_history_off_records_nothing(data_dir: Path) -> None:
    app = app_on_mock(Config(history=HistoryConfig(enabled=False)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        assert "Recording is off" in str(app.screen.query_one("#history-note").render())
    assert (
        not (data_dir / "history.sqlite").exists()
        or not HistoryStore.in_directory(data_dir).search()
    )


async def test_m_bookmarks_the_walk_and_apostrophe_walks_it_again(data_dir: Path) -> None:
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, "customers", "item#3")
        await pilot.press("m")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, BookmarkNameDialog)
        assert dialog.query_one(Input).value == "Alan Turing"  # the link's title
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is app.browser
        saved = BookmarkStore.in_directory(data_dir).find("Alan Turing")
        assert [s.follow for s in saved.path.steps] == ["rw:customers", "item[title=Alan Turing]"]
        app.browser.open_url("/products")
        await settle(pilot)
        await pilot.press("apostrophe")
        await settle(pilot)
        assert isinstance(app.screen, BookmarksScreen)
        assert app.screen.query_one(RowTable).row_count == 1
        await pilot.press("enter")
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == "http://mock/customers/3"
        trail = [p.spec.url for p in app.browser.trail.breadcrumb()]
        assert trail[-3:] == ["http://mock/", "http://mock/customers", "http://mock/customers/3"]


async def test_a_bookmark_that_no_longer_matches_says_which_step(data_dir: Path) -> None:
    BookmarkStore.in_directory(data_dir).save(
        "gone", RelPath(ROOT, (Step("rw:customers"), Step("item[title=Nobody]")))
    )
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("apostrophe")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == "http://mock/customers"  # as far as it went
        messages = [n.message for n in app._notifications]
        assert any("Step 2 of 2, 'item[title=Nobody]', matches no link" in m for m in messages)


async def test_a_broken_bookmarks_file_is_said_and_kept(data_dir: Path) -> None:
    broken = data_dir / "bookmarks.json"
    write_file(broken, "{not json")
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("apostrophe")
        await settle(pilot)
        note = str(app.screen.query_one("#bookmarks-note").render())
        assert f"{broken}:1: is not valid JSON" in note
        await pilot.press("escape")
        await follow(pilot, "customers")
        await pilot.press("m")
        await settle(pilot)
        assert app.screen is app.browser  # refused, with a notification
    assert broken.read_text() == "{not json"


async def test_the_walk_is_exported_as_har(data_dir: Path, tmp_path: Path) -> None:
    app = app_on_mock()
    target = tmp_path / "walk.har"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, "customers")
        export_walk(app, app.browser.trail.pages, app.keep.config.mask_secrets)
        await settle(pilot)
        assert isinstance(app.screen, SavePathDialog)
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await settle(pilot)
    document = json.loads(target.read_text())
    urls = [e["request"]["url"] for e in document["log"]["entries"]]
    assert urls == ["http://mock/", "http://mock/customers"]


async def test_an_existing_file_is_replaced_only_on_a_second_enter(
    data_dir: Path, tmp_path: Path
) -> None:
    target = tmp_path / "mine.har"
    target.write_text("my own file")
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        await pilot.press("ctrl+e")
        await settle(pilot)
        assert isinstance(app.screen, SavePathDialog)
        app.screen.query_one(Input).value = str(target)
        await pilot.press("enter")
        await settle(pilot)
        assert "exists" in str(app.screen.query_one("#save-note").render())
        assert target.read_text() == "my own file"
        await pilot.press("enter")
        await settle(pilot)
    assert json.loads(target.read_text())["log"]["creator"]["name"] == "restwalk"


async def test_a_damaged_history_is_moved_aside_with_a_notification(data_dir: Path) -> None:
    write_file(data_dir / "history.sqlite", "not a database " * 100)
    app = app_on_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        flush(app)
        await settle(pilot)
        messages = [n.message for n in app._notifications]
        assert any("is damaged" in m and ".corrupt-" in m for m in messages)
    assert moved_aside(data_dir) == 1
    assert [e.url for e in HistoryStore.in_directory(data_dir).search()] == ["http://mock/"]
