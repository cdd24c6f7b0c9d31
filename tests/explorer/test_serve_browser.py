"""``restwalk serve`` in a real browser: headless Chromium opens the page, restwalk's first
screen arrives in its terminal, a key typed there reaches restwalk and changes the
screen, a second tab gets a restwalk and a mock of its own, and a URL in a link to the
page cannot make it connect elsewhere.

What the terminal shows is read from the frames the page's websocket received (xterm.js
draws on a canvas), and the page is kept as a screenshot in
``screenshots/serve-test.png`` (the README's ``screenshots/serve.png`` is one of them).
"""

from __future__ import annotations

import asyncio
import struct
from pathlib import Path

import pytest

from tests.explorer.browser import Page, chromium, chromium_path, connect
from tests.explorer.serving import MOCK_ORIGIN, Serving, serving

pytestmark = pytest.mark.interop

SCREENSHOT = Path(__file__).resolve().parents[2] / "screenshots" / "serve-test.png"
SIZE = (1280, 800)


def _png_size(data: bytes) -> tuple[int, int]:
    """A PNG's width and height (its IHDR chunk)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def _shown(page: Page) -> None:
    """Wait for restwalk's first screen in the page: the mock's root and its links."""
    await page.until(lambda: "Links (" in page.text, "restwalk's first screen")
    await page.until(lambda: "? Help" in page.text, "restwalk's key bar")
    # The page shows the terminal once its first bytes came (textual-serve's class).
    visible = "document.body.classList.contains('-first-byte')"
    deadline = asyncio.get_running_loop().time() + 60
    while not await page.evaluate(visible):
        assert asyncio.get_running_loop().time() < deadline, "the terminal never showed"
        await asyncio.sleep(0.1)


async def _in_browser(served: Serving, devtools: str) -> None:
    async with connect(devtools) as browser:
        page = await browser.new_page(SIZE)
        await page.open(served.url)
        await _shown(page)
        shot = await page.screenshot()
        assert _png_size(shot) == SIZE
        await asyncio.to_thread(SCREENSHOT.write_bytes, shot)

        await page.type_key("?")
        await page.until(lambda: "Walking an API" in page.text, "the help screen after ?")
        assert '["stdin","?"]' in page.sent

        # Only this server was asked for anything: no font, script or socket elsewhere.
        ours = (served.url, f"ws://127.0.0.1:{served.port}/")
        assert all(url.startswith(ours) for url in page.requested), page.requested
        assert not [line for line in page.log if "Content Security Policy" in line]

        other = await browser.new_page(SIZE)
        await other.open(served.url)
        await _shown(other)
        first, second = (MOCK_ORIGIN.search(p.text) for p in (page, other))
        assert first is not None
        assert second is not None
        assert first.group(0) != second.group(0)  # each tab its own bundled mock

        # textual-serve's script fetches a ?ping= URL from the address bar: the page's
        # policy keeps it on this server, whatever a link to the page says.
        lured = await browser.new_page(SIZE)
        await lured.open(f"{served.url}?ping=http://elsewhere.example/steal")
        await lured.until(
            lambda: any("violates the following Content Security Policy" in x for x in lured.log),
            "the policy to refuse the ping",
        )
        assert not [url for url in lured.requested if "elsewhere" in url.split("?")[0]]


def test_a_browser_tab_shows_restwalk_and_its_keys_reach_it(tmp_path: Path) -> None:
    assert chromium_path() is not None, "make test installs Debian's chromium"
    with serving() as served, chromium(tmp_path / "profile") as devtools:
        asyncio.run(_in_browser(served, devtools))
    assert SCREENSHOT.stat().st_size > 10_000
