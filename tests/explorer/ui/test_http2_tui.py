"""HTTP/2 in the TUI, against the mock served over HTTP/2 on real sockets: h2c by prior
knowledge, h2 by ALPN over TLS; switched from the palette; the version on every page."""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from explorer.core.http.connection import ConnectionSettings
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.trip_view import TripView
from mock_server import BackgroundServer
from tests.explorer.ui.conftest import SIZE, settle
from tests.mock_server.conftest import make_settings


def serve(**overrides: object) -> Iterator[BackgroundServer]:
    server = BackgroundServer(make_settings(**overrides))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def h2c_server() -> Iterator[BackgroundServer]:
    """``restwalk-mock --http2``: HTTP/1.1 and h2c on one port."""
    yield from serve(http2=True)


@pytest.fixture(scope="module")
def h2_server() -> Iterator[BackgroundServer]:
    """``restwalk-mock --http2 --tls``: h2 or http/1.1 by ALPN."""
    yield from serve(http2=True, tls=True)


def status_text(app: RestwalkApp) -> str:
    return str(app.browser.query_one(StatusLine).render())


def version_shown(app: RestwalkApp) -> str:
    page = app.browser.session.shown
    assert page is not None
    assert page.exchange is not None
    return page.exchange.response.http_version


async def palette(pilot: Pilot[int], words: str) -> None:
    """Run the palette command ``words`` find first."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*["space" if c == " " else c for c in words])
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def test_h2c_by_prior_knowledge_shows_http2_then_http11_from_the_palette(
    h2c_server: BackgroundServer,
) -> None:
    settings = ConnectionSettings(http2_prior_knowledge=True)
    app = create_app(h2c_server.url + "/customers/1", settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert version_shown(app) == "HTTP/2"
        assert " 200 OK   HTTP/2  GET " in status_text(app)
        await palette(pilot, "HTTP/1.1 only")
        assert (app.client.http2, app.client.http2_prior_knowledge) == (False, False)
        await pilot.press("r")
        await settle(pilot)
        assert version_shown(app) == "HTTP/1.1"
        assert " 200 OK   HTTP/1.1  GET " in status_text(app)
        await palette(pilot, "prior knowledge")
        await pilot.press("r")
        await settle(pilot)
        assert version_shown(app) == "HTTP/2"
        await pilot.press("t")
        await settle(pilot)
        assert "Protocol\n  HTTP/2" in str(app.browser.query_one(TripView).render())


async def test_h2_by_alpn_over_tls(h2_server: BackgroundServer) -> None:
    assert h2_server.certificate is not None
    trusted = ssl.create_default_context(cafile=str(h2_server.certificate.ca))
    settings = ConnectionSettings(http2=True, verify=trusted)
    app = create_app(h2_server.url + "/customers/1", settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert version_shown(app) == "HTTP/2"
        await palette(pilot, "HTTP/1.1 only")
        await pilot.press("r")
        await settle(pilot)
        assert version_shown(app) == "HTTP/1.1"  # the same server, http/1.1 by ALPN
        await palette(pilot, "ALPN")
        await pilot.press("r")
        await settle(pilot)
        assert version_shown(app) == "HTTP/2"


async def test_prior_knowledge_to_an_http11_server_says_what_to_try() -> None:
    with BackgroundServer(make_settings()) as plain:  # uvicorn: HTTP/1.1 only
        settings = ConnectionSettings(http2_prior_knowledge=True)
        app = create_app(plain.url + "/", settings=settings)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            shown = status_text(app)
            assert "request failed" in shown
            assert "HTTP/2 in cleartext (h2c)" in shown


async def test_the_config_file_turns_prior_knowledge_on(
    h2c_server: BackgroundServer, tmp_path: Path
) -> None:
    from explorer.cli.options import connection_settings, tui_defaults
    from explorer.cli.settings import load_settings

    config = tmp_path / "config.toml"
    config.write_text("[connection]\nhttp2_prior_knowledge = true\n")
    args = tui_defaults(h2c_server.url + "/")
    args.config = str(config)
    assert load_settings(args) is None
    settings = connection_settings(args)
    assert settings.http2_prior_knowledge
    app = create_app(h2c_server.url + "/", settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert version_shown(app) == "HTTP/2"


async def copy(pilot: Pilot[int], key: str) -> tuple[str, str]:
    """Copy the choice ``key`` of the y menu: (what the menu called it, the text copied)."""
    from explorer.ui.dialogs.copy_menu import CopyMenu

    await pilot.press("y")
    await pilot.pause()  # (settle would wait for the menu's worker: it waits for a key)
    menu = pilot.app.screen
    assert isinstance(menu, CopyMenu)
    (choice,) = [c for c in menu.choices if c.key == key]
    await pilot.press(key)
    await settle(pilot)
    return choice.what, pilot.app.clipboard


async def test_a_copied_request_speaks_the_sessions_protocol(
    h2c_server: BackgroundServer,
) -> None:
    url = h2c_server.url + "/customers/1"
    app = create_app(url, settings=ConnectionSettings(http2_prior_knowledge=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        _, line = await copy(pilot, "c")
        assert line == f"curl -L --http2-prior-knowledge '{url}'"
        # The line copied, run by curl itself: HTTP/2 from the first byte, over http://.
        curl = await asyncio.create_subprocess_exec(
            "bash",
            "-c",
            line + " --silent --max-time 10 -o /dev/null -w '%{http_version}'",
            stdout=asyncio.subprocess.PIPE,
        )
        spoken, _ = await asyncio.wait_for(curl.communicate(), 30)
        assert (curl.returncode, spoken) == (0, b"2")
        _, text = await copy(pilot, "t")
        assert f"GET {url} HTTP/2 (Prior Knowledge)" in text.splitlines()
        what, _ = await copy(pilot, "i")
        assert "HTTPie has no HTTP/2" in what
        await palette(pilot, "HTTP/2 by ALPN")
        assert (await copy(pilot, "c"))[1] == f"curl -L --http2 '{url}'"
        assert f"GET {url} HTTP/2" in (await copy(pilot, "t"))[1].splitlines()
        await palette(pilot, "HTTP/1.1 only")
        assert (await copy(pilot, "c"))[1] == f"curl -L '{url}'"
        what, _ = await copy(pilot, "i")
        assert what == "the request as HTTPie"
