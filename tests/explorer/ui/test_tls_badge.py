"""A page fetched over TLS without its certificate checked carries a badge on the status
line, and keeps it: back, forward and a reopened history entry show it as it was. Against
the mock served over TLS (its own certificate) and in cleartext, on real sockets."""

from __future__ import annotations

import ssl
from collections.abc import Iterator

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from explorer.core.http.connection import ConnectionSettings
from explorer.core.session.trail import Page
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.widgets.status_line import TLS_UNCHECKED, StatusLine
from mock_server import BackgroundServer, Settings
from tests.explorer.ui.conftest import SIZE, settle
from tests.explorer.ui.test_browse import follow

UNCHECKED = ConnectionSettings(verify=False, timeout=5, max_time=10)


@pytest.fixture(scope="module")
def tls_server() -> Iterator[BackgroundServer]:
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None, tls=True)) as server:
        yield server


@pytest.fixture(scope="module")
def plain_server() -> Iterator[BackgroundServer]:
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None)) as server:
        yield server


def shown(app: RestwalkApp) -> Page:
    page = app.browser.session.shown
    assert page is not None
    assert page.exchange is not None
    return page


def badge_shown(app: RestwalkApp) -> bool:
    """Whether the status line, as rendered, has the badge (and the page says so too)."""
    rendered = str(app.browser.query_one(StatusLine).render())
    page = shown(app)
    assert page.exchange is not None
    assert (TLS_UNCHECKED in rendered) == page.exchange.tls_unchecked
    return TLS_UNCHECKED in rendered


async def go(pilot: Pilot[int], url: str) -> None:
    app = pilot.app
    assert isinstance(app, RestwalkApp)
    await pilot.press("ctrl+l")
    app.browser.query_one("#url", Input).value = url
    await pilot.press("enter")
    await settle(pilot)


async def test_every_page_fetched_unchecked_has_the_badge_back_and_forward_too(
    tls_server: BackgroundServer, plain_server: BackgroundServer
) -> None:
    app = create_app(tls_server.url + "/", settings=UNCHECKED)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert shown(app).url.startswith("https://")
        assert badge_shown(app)
        await follow(pilot, "rw:customers")
        await settle(pilot)
        assert shown(app).url.endswith("/customers")
        assert badge_shown(app)
        await go(pilot, plain_server.url + "/")  # no TLS at all: nothing to check
        assert not badge_shown(app)
        await pilot.press("alt+left")
        await settle(pilot)
        assert shown(app).url.startswith("https://")
        assert badge_shown(app)
        await pilot.press("alt+right")
        await settle(pilot)
        assert shown(app).url.startswith("http://")
        assert not badge_shown(app)


async def test_a_history_entry_reopens_with_its_badge(
    tls_server: BackgroundServer, plain_server: BackgroundServer
) -> None:
    app = create_app(tls_server.url + "/", settings=UNCHECKED)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await go(pilot, plain_server.url + "/")
        history = app.browser.keep.history
        by_url = {entry.url: entry.id for entry in history.search()}
        app.browser.reopen(by_url[tls_server.url + "/"])
        await settle(pilot)
        assert shown(app).url.startswith("https://")
        assert badge_shown(app)
        app.browser.reopen(by_url[plain_server.url + "/"])
        await settle(pilot)
        assert not badge_shown(app)


async def test_a_checked_certificate_has_no_badge(tls_server: BackgroundServer) -> None:
    assert tls_server.certificate is not None
    trusted = ssl.create_default_context(cafile=str(tls_server.certificate.ca))
    app = create_app(tls_server.url + "/", settings=ConnectionSettings(verify=trusted))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert shown(app).error is None
        assert not badge_shown(app)
