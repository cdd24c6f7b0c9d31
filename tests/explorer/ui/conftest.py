"""Fixtures for the TUI tests: the app on the mock server's ASGI app, in-process.

No ports and no threads: the core client talks to the mock app through
``httpx.ASGITransport``. ``settle`` waits for every worker (fetches, body
formatting) and for the screen to catch up, so tests never sleep.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import httpx
import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Markdown, Static
from textual.widgets._markdown import MarkdownBlock, MarkdownHeader

from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs import oauth_login
from mock_server import Settings
from mock_server import create_app as create_mock_app
from tests.mock_server.conftest import TEST_HOSTS

ROOT = "http://mock/"
SIZE = (120, 40)

AppFactory = Callable[..., RestwalkApp]


def mock_client(settings: Settings | None = None) -> Client:
    """A core client wired to a fresh mock server app."""
    app = create_mock_app(replace(settings or Settings(), allowed_hosts=TEST_HOSTS))
    return Client(transport=httpx.ASGITransport(app=app))


@pytest.fixture
def make_app() -> AppFactory:
    """Build the app on a fresh mock (``settings`` optional), opened at ``url``."""

    def make(url: str | None = ROOT, settings: Settings | None = None) -> RestwalkApp:
        return create_app(url, client=mock_client(settings), mock_users=True)

    return make


async def settle(pilot: Pilot[int]) -> None:
    """Wait until every worker is done and the screen has processed what they posted."""
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def until(
    pilot: Pilot[int], ready: Callable[[], object], what: str, within: float = 60.0
) -> None:
    """Let the app run until ``ready()`` holds (a login waits on the network); bounded by
    the clock, not by a count of pauses, so a loaded machine only makes it slower."""
    deadline = time.monotonic() + within
    while not ready():
        if time.monotonic() > deadline:
            said = [str(widget.render()) for widget in pilot.app.screen.query(Static)]
            raise AssertionError(f"never {what} in {within:g} s: {said}")
        await pilot.pause(0.02)


def on_screen(app: App[Any], kind: type[Screen[Any]]) -> Callable[[], bool]:
    """Whether the app shows a ``kind`` screen, mounted whole: a screen is the app's as
    soon as it is pushed, before its form is there to read or to take keys."""
    return lambda: isinstance(app.screen, kind) and app.screen.is_mounted


@pytest.fixture
def browser_opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs "the system browser" was opened on (a display is there, for the test)."""
    urls: list[str] = []

    def open_browser(url: str) -> bool:
        urls.append(url)
        return True

    monkeypatch.setattr(oauth_login, "open_browser", open_browser)
    monkeypatch.setattr(oauth_login, "why_no_browser", lambda *_a, **_k: None)
    return urls


def markdown_shown(widget: Markdown) -> str:
    """What a Markdown widget shows: each block's text on a line, a heading after as
    many ``#`` as its level (what is on screen, not the source it was made from)."""
    lines = []
    for block in widget.query(MarkdownBlock):
        text = str(block.content)
        if not text:
            continue
        if isinstance(block, MarkdownHeader):
            text = "#" * int(type(block).__name__[-1]) + " " + text
        lines.append(text)
    return "\n".join(lines)
