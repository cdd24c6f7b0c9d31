"""A response with many links: the body comes first, every link is listed and numbered."""

from __future__ import annotations

import json

import httpx

from explorer.core.http.client import Client
from explorer.ui.app import create_app
from explorer.ui.widgets.links_panel import LinksPanel
from tests.explorer.ui.conftest import SIZE, settle

COUNT = 1500


def handler(request: httpx.Request) -> httpx.Response:
    if request.url.path == "/":
        items = [{"id": i, "_links": {"self": {"href": f"/items/{i}"}}} for i in range(COUNT)]
        document = {"_embedded": {"items": items}}
        return httpx.Response(
            200,
            content=json.dumps(document).encode(),
            headers={"Content-Type": "application/hal+json"},
        )
    return httpx.Response(200, json={"path": request.url.path})


async def test_many_links_all_listed_and_reachable_by_number() -> None:
    app = create_app("http://big/", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        assert len(panel.links) == COUNT
        assert panel.table.row_count == COUNT
        assert panel.border_title == f"Links ({COUNT:,})"
        await pilot.press("f", "end")  # the last row, drawn like the first
        assert panel.table.cursor_row == COUNT - 1
        assert (
            panel.query_one("#link-detail")
            .render()
            .plain.startswith(  # type: ignore[union-attr]
                f"GET http://big/items/{COUNT - 1}"
            )
        )
        number = 1200
        assert panel.links[number - 1].href == f"http://big/items/{number - 1}"
        await pilot.press(*str(number))  # 1, 12, 120 wait for more; 1200 is unambiguous
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == f"http://big/items/{number - 1}"


async def test_ambiguous_number_waits_for_enter() -> None:
    app = create_app("http://big/", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1")
        await pilot.pause()
        assert app.browser.query_one(LinksPanel).numbers.typed == "1"
        assert app.browser.query_one(LinksPanel).table.cursor_row == 0
        await pilot.press("enter")
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == "http://big/items/0"
