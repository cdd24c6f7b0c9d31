"""An 80x24 terminal: the status block, the body and the key bar stay usable; ?, l, q work."""

from __future__ import annotations

from textual.widget import Widget

from explorer.ui.screens.help import HelpScreen
from explorer.ui.screens.learn import LearnScreen
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.status_line import StatusLine
from tests.explorer.ui.conftest import AppFactory, settle

SMALL = (80, 24)


def shown(widget: Widget) -> bool:
    """On screen, with room: displayed, in the screen's region, at least one row high."""
    region = widget.region
    return (
        widget.display
        and region.height > 0
        and region.width > 0
        and widget.screen.region.contains_region(region)
    )


async def test_the_browser_fits_an_80x24_terminal(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.browser
        status = screen.query_one(StatusLine)
        body = screen.query_one("#body-view", BodyView)
        keys = screen.query_one(KeyBar)
        for widget in (status, body, keys, screen.query_one(LinksPanel)):
            assert shown(widget), widget
        assert "200 OK" in str(status.render())
        assert body.region.height >= 8  # a body one can read, not a sliver
        assert body.row_text(0) == "{"
        # The key bar names ? l q even when the other keys do not all fit.
        bar = str(keys.render())
        assert "? Help" in bar
        assert "l Learn" in bar
        assert "q Quit" in bar
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape", "l")
        await pilot.pause()
        assert isinstance(app.screen, LearnScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0


async def test_the_find_bar_fits_an_80x24_terminal(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("slash", "h", "r", "e", "f")
        await settle(pilot)
        bar = app.browser.query_one("#search-bar")
        body = app.browser.query_one("#body-view", BodyView)
        assert shown(bar)
        assert shown(body)
        assert shown(app.browser.query_one(KeyBar))
        assert body.current_match is not None


async def test_at_60x15_the_links_panel_still_lists_links(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(60, 15)) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        # The list comes before the detail of the link under the cursor: the header
        # and at least the first links are on screen, not only the detail.
        assert shown(panel.table)
        assert panel.table.region.height >= 3
