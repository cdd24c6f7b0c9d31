"""History entries and bookmarks made on the bundled mock server in an earlier run, on
another port, still work: they follow it to where it answers now."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input

from explorer.core.bundled.rebase import BundledMock
from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.session.rel_path import RelPath, Step
from explorer.core.storage.bookmarks import BookmarkStore
from explorer.core.storage.history import HistoryStore
from explorer.ui.app import RestwalkApp, create_app
from tests.explorer.ui.conftest import ROOT, SIZE, mock_client, settle

EARLIER = "http://127.0.0.1:42495"  # the port of an earlier run


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RESTWALK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def app_on_bundled_mock() -> RestwalkApp:
    """The app as 'restwalk' with no URL opens it: the mock (here at http://mock) is the
    bundled one."""
    return create_app(
        ROOT, client=mock_client(), mock_users=True, bundled=BundledMock("http://mock")
    )


def notes(app: RestwalkApp) -> list[str]:
    return [n.message for n in app._notifications]


def kept_on_earlier_run(data_dir: Path) -> int:
    store = HistoryStore.in_directory(data_dir)
    request = SentRequest("GET", f"{EARLIER}/customers/2", (("Accept", "application/json"),))
    body = b'{"id": 2, "name": "Grace Hopper", "_links": {"self": {"href": "/customers/2"}}}'
    response = ReceivedResponse(
        200, "OK", "HTTP/1.1", (("Content-Type", "application/hal+json"),), body, request.url
    )
    entry_id = store.add(
        Exchange(request, request, response, timings=Timings(0.01, 0.01)), bundled=True
    )
    store.close()
    assert entry_id is not None
    return entry_id


async def test_an_entry_of_an_earlier_run_is_sent_to_this_runs_mock(data_dir: Path) -> None:
    entry_id = kept_on_earlier_run(data_dir)
    app = app_on_bundled_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.reopen(entry_id)
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == "http://mock/customers/2"
        assert any("r sends it to http://mock" in m for m in notes(app))
        await pilot.press("r")
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.exchange is not None
        assert page.exchange.response.status == 200  # the mock answered, not a refusal
        assert page.exchange.response.url == "http://mock/customers/2"


async def test_what_is_made_on_the_bundled_mock_is_marked_so(data_dir: Path) -> None:
    app = app_on_bundled_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        browser = app.browser
        link = browser.session.choose("customers")
        assert link is not None
        browser.follow_link(link)
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        app.screen.query_one(Input).value = "customers"
        await pilot.press("enter")
        await settle(pilot)
        assert app.keep.recorder is not None
        assert app.keep.recorder.close()
    assert all(e.bundled for e in HistoryStore.in_directory(data_dir).search())
    document = json.loads((data_dir / "bookmarks.json").read_text())
    assert document["bookmarks"][0]["bundled_mock"] is True


async def test_a_bookmark_of_an_earlier_run_is_walked_on_this_runs_mock(data_dir: Path) -> None:
    BookmarkStore.in_directory(data_dir).save(
        "Grace", RelPath(f"{EARLIER}/", (Step("rw:customers"), Step("item#2"))), bundled=True
    )
    app = app_on_bundled_mock()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("apostrophe")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == "http://mock/customers/2"
        trail = [p.spec.url for p in app.browser.trail.breadcrumb()]
        assert trail[-3:] == ["http://mock/", "http://mock/customers", "http://mock/customers/2"]


async def test_an_entry_of_the_bundled_mock_opened_elsewhere_says_so(data_dir: Path) -> None:
    entry_id = kept_on_earlier_run(data_dir)
    app = create_app(ROOT, client=mock_client(), mock_users=False)  # restwalk URL
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.reopen(entry_id)
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == f"{EARLIER}/customers/2"  # as kept
        assert any("which this restwalk did not start" in m for m in notes(app))
