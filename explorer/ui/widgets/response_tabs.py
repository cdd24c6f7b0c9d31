"""The response's tabs: body, headers, raw wire text, and the trip (redirects, timings).

The body tab is built at once; the others when first shown, so the first
screen draws only what it shows. :meth:`ResponseTabs.show` puts one page in
every built tab.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import ContentSwitcher

from explorer.core.session.history import Page
from explorer.core.wire import exchange_text
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.headers_view import HeadersView
from explorer.ui.widgets.tab_bar import TabBar
from explorer.ui.widgets.trip_view import TripView

#: The tabs: (id, label).
TABS = (("body", "Body"), ("headers", "Headers"), ("raw", "Raw"), ("trip", "Trip"))
#: Tabs built when first shown: the first screen shows only the body.
LAZY_TABS = ("headers", "raw", "trip")
#: What each tab focuses, so arrows and PgUp/PgDn scroll it.
FOCUS = {
    "body": "#body-view",
    "headers": "#headers-view RowTable",
    "raw": "#raw-view",
    "trip": "#trip-scroll",
}


class ResponseTabs(Vertical):
    """A tab bar over the body, headers, raw and trip views of one page."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.page: Page | None = None

    def compose(self) -> ComposeResult:
        yield TabBar(TABS, active="body")
        with ContentSwitcher(initial="body"):
            yield Vertical(BodyView(id="body-view"), id="body")
            for tab in LAZY_TABS:
                yield Vertical(id=tab)

    @property
    def body_view(self) -> BodyView:
        """The body tab's view."""
        return self.query_one("#body-view", BodyView)

    def show(self, page: Page) -> None:
        """Show ``page`` in every built tab."""
        self.page = page
        body_view = self.body_view
        exchange = page.exchange
        if exchange is not None:
            response = exchange.response
            shown = page.revalidated or response
            if shown.body:
                body_view.show(shown.body, shown.media_type)
            else:
                body_view.show_text(f"(no body: {response.status} {response.reason})")
        else:
            assert page.error is not None
            body_view.show_text(f"{page.error.explanation}\n\n{page.error.hint}")
        for tab in LAZY_TABS:
            self._fill(tab)

    async def select(self, tab: str, *, focus: bool = False) -> None:
        """Show tab ``tab`` (building it the first time); ``focus`` moves into it."""
        self.query_one(TabBar).active = tab
        self.query_one(ContentSwitcher).current = tab
        pane = self.query_one(f"#{tab}", Vertical)
        if tab in LAZY_TABS and not pane.children:
            content: Widget
            if tab == "headers":
                content = HeadersView(id="headers-view")
            elif tab == "raw":
                content = BodyView(id="raw-view")
            else:
                content = VerticalScroll(TripView(id="trip-view"), id="trip-scroll")
            await pane.mount(content)
            self._fill(tab)
        if focus:
            self.query_one(FOCUS[tab]).focus()

    async def on_tab_bar_activated(self, event: TabBar.Activated) -> None:
        await self.select(event.tab)

    def _fill(self, tab: str) -> None:
        """Show the page in tab ``tab``, if that tab is built."""
        page = self.page
        if page is None or not self.query_one(f"#{tab}", Vertical).children:
            return
        exchange = page.exchange
        if tab == "headers":
            headers = exchange.response.headers if exchange is not None else ()
            self.query_one(HeadersView).show_headers(headers)
        elif tab == "raw":
            raw_view = self.query_one("#raw-view", BodyView)
            if exchange is not None:
                raw_view.show_text(exchange_text(exchange), "http")
            else:
                raw_view.show_text("Nothing was received.")
        else:
            self.query_one(TripView).show_exchange(exchange, page.error)
