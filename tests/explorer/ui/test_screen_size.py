"""The browser screen follows the terminal's size (its layout is not done twice for the
size it was just laid out at, but is done for every new one)."""

from __future__ import annotations

from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.links_panel import LinksPanel
from tests.explorer.ui.conftest import SIZE, AppFactory, settle, until


async def test_a_resized_terminal_lays_the_browser_screen_out_again(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        browser = app.browser
        row = browser.query_one("#url-row")
        assert row.region.width == SIZE[0]
        assert browser.query_one(KeyBar).region.y == SIZE[1] - 1
        for width, height in ((80, 24), (100, 30), SIZE):
            await pilot.resize_terminal(width, height)

            def laid_out(width: int = width, height: int = height) -> bool:
                bottom = browser.query_one(KeyBar).region.y
                return row.region.width == width and bottom == height - 1

            await until(pilot, laid_out, f"the screen laid out at {width}x{height}")
            links = browser.query_one(LinksPanel).region
            assert links.right == width  # the panes fill the new width
