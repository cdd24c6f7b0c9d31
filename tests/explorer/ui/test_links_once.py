"""The links panel lists a link the body and the Link header both give once, naming both."""

from __future__ import annotations

from textual.widgets import Static

from explorer.ui.widgets.links_panel import DETAIL_ROWS, LinksPanel, describe_link
from tests.explorer.ui.conftest import SIZE, AppFactory, settle, until


async def test_a_link_of_the_body_and_the_header_is_one_row(make_app: AppFactory) -> None:
    # The mock writes self, first, next and last in its _links and in a Link header.
    app = make_app("http://mock/customers?limit=2")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        nexts = [number for number, link in enumerate(panel.links) if link.rel == "next"]
        assert len(nexts) == 1
        assert not [link for link in panel.links if link.source == "header:Link"]
        assert panel.table.rows[nexts[0]][-1] == "/_links/next + header:Link"
        detail = describe_link(panel.links[nexts[0]]).plain
        assert "rel next · found at /_links/next and header:Link" in detail


async def test_the_detail_says_what_enter_does_before_where_the_link_was_found(
    make_app: AppFactory,
) -> None:
    # The detail is a fixed few rows: a template's long URL wraps, and what comes last is
    # cut off. What Enter does comes before the rel and the place it was found.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        number = next(n for n, link in enumerate(panel.links, 1) if link.rel == "rw:product-search")
        panel.highlight(number)
        await until(
            pilot,
            lambda: "product-search" in str(panel.query_one("#link-detail", Static).render()),
            "the template described",
        )
        await pilot.pause()
        detail = panel.query_one("#link-detail", Static)
        screen = app.browser._compositor.render_strips()
        region = detail.region
        shown = " ".join(
            screen[y].crop(region.x, region.right).text for y in range(region.y, region.bottom)
        )
        assert detail.size.height == DETAIL_ROWS
        assert "A URI template: Enter asks for its variables." in shown  # (its URL: two rows)
        assert "Search products" in shown  # (its title)


async def test_moving_the_cursor_describes_the_link_without_laying_the_screen_out(
    make_app: AppFactory,
) -> None:
    # The detail's rows are fixed: a link described redraws it, and lays nothing out.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        detail = panel.query_one("#link-detail", Static)
        compositor = app.browser._compositor
        reflows: list[object] = []
        reflow = compositor.reflow

        def counted(*args: object, **kwargs: object) -> object:
            reflows.append(args)
            return reflow(*args, **kwargs)  # type: ignore[arg-type]

        compositor.reflow = counted  # type: ignore[method-assign]
        before = str(detail.render())
        panel.table.focus()
        await settle(pilot)
        reflows.clear()
        await pilot.press("down")
        await until(pilot, lambda: str(detail.render()) != before, "the next link described")
        await settle(pilot)
        assert reflows == []
        assert detail.size.height == DETAIL_ROWS
