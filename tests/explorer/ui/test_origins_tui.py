"""The TUI keeps secrets to their origin: a followed link, ``+``'s next page, a bookmark's
steps (``'``), a history entry sent again (``H``, Enter, ``r``) and its redirect.

Two servers on two ports are two origins. The session holds a credential and a
kept secret header for ``a``; what each server read off its socket is asserted,
and the status line says, in one line, what a step to ``b`` went without.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from explorer.core.config import Config, HistoryConfig
from explorer.core.http.connection import ConnectionSettings
from explorer.core.http.request import BasicAuth
from explorer.core.session.rel_path import RelPath, Step
from explorer.core.storage.bookmarks import BookmarkStore
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.screens.bookmarks import BookmarksScreen
from explorer.ui.screens.history import HistoryScreen
from explorer.ui.widgets.auth_badge import AuthBadge
from tests.explorer.origin_servers import OriginServer, two_origins
from tests.explorer.ui.conftest import SIZE, settle
from tests.explorer.ui.test_browse import follow, status_text

SETTINGS = ConnectionSettings(timeout=5, max_time=5)


@pytest.fixture
def servers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[OriginServer, ...]]:
    monkeypatch.setenv("RESTWALK_DATA_DIR", str(tmp_path / "data"))
    with two_origins() as (a, b):
        yield a, b


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


def app_on(url: str, *, mask: bool = True) -> RestwalkApp:
    config = Config(history=HistoryConfig(mask_secrets=mask))
    return create_app(url, settings=SETTINGS, config=config)


def given_for(app: RestwalkApp, a: OriginServer) -> None:
    """The person logs in to ``a`` and keeps an API key for it."""
    session = app.browser.session
    session.set_credential(a.url + "/", BasicAuth("alice", "wonderland"))
    session.keep_headers(a.url + "/", (("X-Api-Key", "key-123456"),))


def said(app: RestwalkApp, a: OriginServer, b: OriginServer) -> bool:
    """Whether the status line says, in one line, that the credential and the key stayed."""
    lines = [line for line in status_text(app).splitlines() if line.startswith("🔒 ")]
    if not lines:
        return False
    (line,) = lines
    withheld, _, rest = line.removeprefix("🔒 ").partition(" not sent to ")
    names = set(withheld.replace(" and ", ", ").split(", "))
    return names == {"Authorization", "X-Api-Key"} and rest == f"{b.url}: given for {a.url} only"


async def test_a_followed_link_keeps_the_credential_to_its_origin(
    servers: tuple[OriginServer, OriginServer],
) -> None:
    a, b = servers
    start = a.hal("/", next=a.hal("/2", next=b.hal("/x")))
    app = app_on(start)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        given_for(app, a)
        await follow(pilot, "next")  # a.test → a.test: sent
        await settle(pilot)
        assert not said(app, a, b)
        await follow(pilot, "next")  # a.test → b.test: not sent, and said
        await settle(pilot)
        assert app.browser.session.shown is not None
        assert app.browser.session.shown.url == b.url + "/x"
        assert said(app, a, b)
    assert [s.target for s in a.seen] == ["/", "/2"]
    assert a.received("authorization")
    assert a.received("x-api-key")
    assert [s.target for s in b.seen] == ["/x"]
    assert b.secrets_received() == {}


def listing(server: OriginServer, path: str, number: int, following: str | None) -> str:
    document: dict[str, object] = {
        "_embedded": {"items": [{"n": number}]},
        "_links": {"next": {"href": following}} if following else {},
    }
    return server.page(path, body=orjson.dumps(document), content_type="application/hal+json")


async def test_the_next_page_added_below_keeps_the_credential_to_its_origin(
    servers: tuple[OriginServer, OriginServer],
) -> None:
    a, b = servers
    start = listing(a, "/1", 1, listing(a, "/2", 2, listing(b, "/3", 3, None)))
    app = app_on(start)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        given_for(app, a)
        await pilot.press("+")
        await settle(pilot)
        assert not said(app, a, b)
        await pilot.press("+")
        await settle(pilot)
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.stack is not None
        assert shown.stack.pages == 3
        assert said(app, a, b)
    assert [s.target for s in a.seen] == ["/1", "/2"]
    assert a.received("authorization")
    assert a.received("x-api-key")
    assert [s.target for s in b.seen] == ["/3"]
    assert b.secrets_received() == {}


async def test_a_bookmark_walked_again_keeps_the_credential_to_its_origin(
    servers: tuple[OriginServer, OriginServer], data_dir: Path
) -> None:
    a, b = servers
    start = a.hal("/", orders=a.hal("/orders", next=b.page("/elsewhere")))
    BookmarkStore.in_directory(data_dir).save(
        "orders", RelPath(start, (Step("orders"), Step("next")))
    )
    app = app_on(start)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        given_for(app, a)
        await pilot.press("apostrophe")
        await settle(pilot)
        assert isinstance(app.screen, BookmarksScreen)
        await pilot.press("enter")
        await settle(pilot)
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.url == b.url + "/elsewhere"
        assert said(app, a, b)
    assert [s.target for s in a.seen] == ["/", "/", "/orders"]
    assert len(a.received("authorization")) == len(a.received("x-api-key")) == 2
    assert [s.target for s in b.seen] == ["/elsewhere"]
    assert b.secrets_received() == {}


async def reopen(pilot: object, app: RestwalkApp, words: str) -> None:
    """``H``, search ``words``, Enter on the newest entry found."""
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    await pilot.press("H")
    await settle(pilot)
    assert isinstance(app.screen, HistoryScreen)
    await pilot.press(*words)
    await settle(pilot)
    await pilot.press("down", "enter")
    await settle(pilot)


async def test_a_history_entry_sent_again_keeps_its_secrets_to_their_origin(
    servers: tuple[OriginServer, OriginServer],
) -> None:
    a, b = servers
    away = a.page("/away", status=302, headers=(("location", b.page("/landed")),))
    home = a.page("/home")
    app = app_on(home, mask=False)  # kept in clear: sent again as they were
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        given_for(app, a)
        app.browser.open_url(away)  # a.test redirects to b.test
        await settle(pilot)
        assert said(app, a, b)
        app.browser.open_url(home)
        await settle(pilot)
        assert app.keep.recorder is not None
        assert app.keep.recorder.close()
        app.keep.recorder = None
        await reopen(pilot, app, "away")
        await pilot.press("r")  # the entry sent again: its redirect to b.test too
        await settle(pilot)
        assert said(app, a, b)
        await reopen(pilot, app, "home")
        await pilot.press("r")
        await settle(pilot)
    assert [s.target for s in a.seen] == ["/home", "/away", "/home", "/away", "/home"]
    assert len(a.received("x-api-key")) == len(a.received("authorization")) == 4
    assert [s.target for s in b.seen] == ["/landed", "/landed"]
    assert b.secrets_received() == {}


async def test_the_badge_of_a_page_a_redirect_led_to_names_whose_credential_it_is(
    servers: tuple[OriginServer, OriginServer],
) -> None:
    """Issue 23 checked again: on ``b``'s page, reached by a redirect from ``a``, the badge
    said ``🔑 alice (basic)``, as if ``b`` had been sent the credential."""
    a, b = servers
    landed = b.page("/landed")
    start = a.hal("/", next=a.page("/r", status=302, headers=(("location", landed),)))
    app = app_on(start)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        given_for(app, a)
        await follow(pilot, "next")
        await settle(pilot)
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.url == landed
        badge = str(app.browser.query_one(AuthBadge).render())
        assert badge.startswith(f"🔑 for 127.0.0.1:{a.port} only"), badge
    assert b.secrets_received() == {}
