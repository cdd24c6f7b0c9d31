"""The first screen waits for nothing it does not show, and the keys that open what it
left out still work at once.

Run in a fresh interpreter: what the first screen imported is then its own (the
other tests of this process have imported everything already).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.explorer.test_cli import LEFT_OUT_OF_THE_FIRST_SCREEN as LEFT_OUT

ROOT = Path(__file__).resolve().parents[3]


FIRST_SCREEN = f"""
import asyncio, sys, time
from dataclasses import replace

import httpx

from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.screens.main import BrowserScreen
from mock_server import Settings, create_app as create_mock_app
from tests.mock_server.conftest import TEST_HOSTS


async def until(pilot, ready, what):
    deadline = time.monotonic() + 60
    while not ready():
        assert time.monotonic() < deadline, "never " + what
        await pilot.pause(0.02)


#: What was imported when the first screen had been drawn (before the start page's writing).
drawn = []
first_screen_drawn = RestwalkApp._first_screen_drawn


def snapshot(app):
    drawn.append(set(sys.modules))
    first_screen_drawn(app)


RestwalkApp._first_screen_drawn = snapshot


async def main():
    mock = create_mock_app(replace(Settings(), allowed_hosts=TEST_HOSTS))
    client = Client(transport=httpx.ASGITransport(app=mock))
    app = create_app("http://mock/", client=client, mock_users=True)
    async with app.run_test(size=(120, 40)) as pilot:
        browser = app.browser
        await until(pilot, lambda: app.screen is browser and browser.session.shown, "shown")
        await until(pilot, lambda: drawn, "drawn")
        late = set({LEFT_OUT!r}) & drawn[0]
        assert not late, late
        await pilot.press("L")  # the course: its panel, imported now
        await until(pilot, lambda: browser.course_panel is not None
                    and browser.course_panel.is_mounted, "the course shown")
        assert browser.course_panel.display


asyncio.run(main())
"""


def test_the_first_screen_imports_nothing_it_does_not_show_and_l_opens_the_course() -> None:
    result = subprocess.run(
        [sys.executable, "-c", FIRST_SCREEN],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
