"""Caching you can see: C turns the session's cache on and off; the status line says
"from cache", the trip tab says what the cache did and why (the mock's ASGI app)."""

from __future__ import annotations

from pathlib import Path

from explorer.core.config import CacheConfig, Config, load_config
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.screens.help import HelpScreen
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.trip_view import TripView
from tests.explorer.ui.conftest import SIZE, AppFactory, mock_client, settle


def status_text(app: RestwalkApp) -> str:
    return str(app.browser.query_one(StatusLine).render())


def trip_text(app: RestwalkApp) -> str:
    """The Trip tab's words, wherever its pane's width breaks their lines."""
    return " ".join(str(app.browser.query_one(TripView).render()).split())


async def test_c_turns_caching_on_r_checks_with_the_server_and_a_link_comes_from_the_cache(
    make_app: AppFactory,
) -> None:
    app = make_app("http://mock/customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.client.caching
        await pilot.press("t")
        await settle(pilot)
        assert "Caching is off" in trip_text(app)
        await pilot.press("C")
        await settle(pilot)
        assert app.client.caching
        await pilot.press("r")  # stored now
        await settle(pilot)
        assert "stored in the cache: fresh for 60 s (max-age=60)" in trip_text(app)
        assert "from cache" not in status_text(app)
        await pilot.press("r")  # a reload asks the server, as a browser's does: a 304
        await settle(pilot)
        assert " from cache, revalidated (304) " in status_text(app)
        trip = trip_text(app)
        assert "revalidated: 304 Not Modified, body from the cache" in trip
        assert "A reload (r) checks the stored copy with the server" in trip
        assert "Nothing was sent" not in trip
        sent = app.browser.session.shown.exchange.final.headers  # type: ignore[union-attr]
        assert ("Cache-Control", "no-cache") in sent
        shown = app.browser.session.shown
        assert shown is not None
        self_link = next(link for link in shown.links if link.rel == "self")
        app.browser.follow_link(self_link)  # a link followed: the fresh copy, nothing sent
        await settle(pilot)
        assert " from cache " in status_text(app)
        trip = trip_text(app)
        assert "from the cache: fresh for another" in trip
        assert "(max-age=60)" in trip
        assert "Nothing was sent" in trip
        await pilot.press("C")
        await settle(pilot)
        assert not app.client.caching
        await pilot.press("r")
        await settle(pilot)
        assert "from cache" not in status_text(app)
        assert "Caching is off" in trip_text(app)


async def test_no_store_says_why_it_was_not_stored(make_app: AppFactory) -> None:
    app = make_app("http://mock/auth")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("C", "r")
        await settle(pilot)
        await pilot.press("r", "t")
        await settle(pilot)
        assert "not stored: no-store" in trip_text(app)
        assert "from cache" not in status_text(app)


async def test_the_config_file_starts_with_caching_on(tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('[cache]\nenabled = true\nmax_bytes = "5MB"\n')
    config = load_config(file)
    assert config.cache == CacheConfig(enabled=True, max_bytes=5_000_000)
    app = create_app("http://mock/customers/1", client=mock_client(), config=config)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.client.caching
        assert app.client.cache is not None
        assert app.client.cache.storage.max_bytes == 5_000_000
        await pilot.press("r")
        await settle(pilot)
        assert " from cache, revalidated (304) " in status_text(app)


async def test_caching_is_off_by_default_and_c_is_in_the_help() -> None:
    app = create_app("http://mock/", client=mock_client(), config=Config())
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.client.caching
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert "Caching on/off" in str(app.screen.query_one("Markdown").source)  # type: ignore[attr-defined]


def test_the_cache_option_of_the_tui_turns_it_on() -> None:
    from explorer.cli.options import connection_settings
    from explorer.cli.parser import build_tui_parser

    args = build_tui_parser().parse_args(["--cache", "http://127.0.0.1:9/"])
    settings = connection_settings(args)
    assert settings.cache
    assert settings.client().caching
    plain = connection_settings(build_tui_parser().parse_args(["http://127.0.0.1:9/"]))
    assert not plain.client().caching
