"""The links panel lists a link the body and the Link header both give once, naming both."""

from __future__ import annotations

from explorer.ui.widgets.links_panel import LinksPanel, describe_link
from tests.explorer.ui.conftest import SIZE, AppFactory, settle


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
