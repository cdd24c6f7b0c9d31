"""The response's tabs: body, headers, raw wire text, and the trip (redirects, timings).

The body tab is built at once; the others when first shown, so the first
screen draws only what it shows. :meth:`ResponseTabs.show` puts one page in
every built tab.

Under the tabs, a find bar opens on demand: a search (``/``) in the tab shown
(body, raw or headers), or a filter (``|``) of the body tab, which runs it
(:class:`~explorer.ui.widgets.body_tab.BodyTab`).

A stream's page shows its events in the body tab as they come
(:class:`~explorer.ui.widgets.stream_view.StreamView`, :meth:`ResponseTabs.show_stream`):
the search finds events there, and the filter runs over the events kept, as an
array of them.

The tabs own their keys (``b h w t``, ``/ n N | W``, ``y``, ``d``), which work
wherever the focus is on the browser screen (:mod:`explorer.ui.page_keys`).
``y`` sends what can be copied from the response up, as :class:`ResponseTabs.Copy`:
the screen adds the link's URL and the request and opens the copy menu.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import ContentSwitcher

from explorer.core.session.trail import Page
from explorer.core.text.copy_text import copy_refusal
from explorer.core.text.text_search import SearchError, compile_query
from explorer.ui.typed_ahead import opens_dialog
from explorer.ui.widgets.body_tab import BodyTab
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.headers_view import HeadersView
from explorer.ui.widgets.tab_bar import TabBar

if TYPE_CHECKING:
    from pathlib import Path

    from explorer.core.session.live_stream import LiveStream
    from explorer.ui.dialogs.copy_menu import CopyChoice
    from explorer.ui.widgets.find_bar import FindBar, Kind
    from explorer.ui.widgets.stream_view import StreamView

# The copy menu's module is imported when y is first pressed, the find bar's when a bar is
# first opened, the trip's view and the raw text's making when their tab is first shown:
# the first screen does not wait for what it does not show.

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
#: Seconds a filter waits for typing to pause before it runs.
FILTER_DELAY = 0.25

FILTER_HELP = (
    "Filter the JSON body: JSONPath (RFC 9535, e.g. `$..customers[?match(@.name, 'A.*')]`; "
    "`=~ /A.*/` too) or, with restwalk[jq] installed, jq (alt+l switches)"
)


class ResponseTabs(Vertical):
    """A tab bar over the body, headers, raw and trip views of one page."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("b", "tab('body')", "Body", show=False, tooltip="Show the body and move into it"),
        Binding("h", "tab('headers')", "Headers", show=False, tooltip="Show the headers"),
        Binding("w", "tab('raw')", "Raw", show=False, tooltip="Show the raw wire text"),
        Binding("t", "tab('trip')", "Trip", show=False, tooltip="Redirects, timings, sizes"),
        # / and | are priority keys: the app runs them before it hands the next key on, so
        # what is typed after them goes to their bar even when the keys came together (a
        # busy screen reads its input late), never to the page's keys. A field that types
        # them (the URL bar) still does: a focused field's keys leave the page's keys.
        Binding(
            "slash",
            "search",
            "Search",
            tooltip="Search the body, raw or headers tab as you type",
            priority=True,
        ),
        Binding("n", "next_match(1)", "Next", show=False, tooltip="The next match of the search"),
        Binding("N", "next_match(-1)", "Previous", show=False, tooltip="The previous match"),
        Binding(
            "vertical_line", "filter", "Filter", show=False, tooltip=FILTER_HELP, priority=True
        ),
        Binding(
            "W", "wrap", "Wrap", show=False, tooltip="Wrap long lines, or scroll sideways again"
        ),
        opens_dialog(
            "y",
            "copy",
            "Copy",
            tooltip=(
                "Copy the body, a line, a header, a link's URL, or the request as curl, HTTPie "
                "or .http text"
            ),
        ),
        opens_dialog(
            "d",
            "save_body",
            "Save body",
            show=False,
            tooltip="Save the response body to a file (never replaces one without asking)",
        ),
    ]

    class Copy(Message):
        """``y``: copy something; ``choices`` are what the response offers (body, line,
        headers), ``pointed`` the key of the one the person points at."""

        def __init__(self, choices: list[CopyChoice], pointed: str) -> None:
            super().__init__()
            self.choices = choices
            self.pointed = pointed

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.page: Page | None = None
        #: The lazy tabs not showing :attr:`page` yet: filled when shown (not every
        #: page's headers and raw text are built while the body is read).
        self._stale: set[str] = set()
        self._filter_timer: Timer | None = None
        self._body = BodyTab(id="body")
        #: Kept, not queried: which tab is shown is asked on every page.
        self._switcher = ContentSwitcher(initial="body")
        #: The find bars mounted so far (each when first opened; never removed).
        self._bars: dict[Kind, FindBar] = {}

    def compose(self) -> ComposeResult:
        yield TabBar(TABS, active="body")
        with self._switcher:
            yield self._body
            for tab in LAZY_TABS:
                yield Vertical(id=tab)

    @property
    def body_view(self) -> BodyView:
        """The body tab's view."""
        return self._body.body_view

    def show(self, page: Page) -> None:
        """Show ``page`` in every built tab."""
        self.page = page
        self._body.show_page(page)
        self._stale = set(LAZY_TABS)  # each filled when it is next shown
        if self.tab in LAZY_TABS:
            self._fill(self.tab)
        filter_bar = self._bar("filter")
        if filter_bar is not None and filter_bar.display and filter_bar.value:
            self._start_filter()  # the same filter, on the new page

    @property
    def stream_view(self) -> StreamView:
        """A stream's events, in the body tab while one is read (it owns ``p``): made, and
        mounted by :meth:`show_stream`, when a stream is first shown (the first screen
        neither imports nor builds what it hides)."""
        return self._body.stream_view

    @property
    def stream_shown(self) -> bool:
        """True while the body tab shows a stream's events (not the body)."""
        return self._body.stream_shown

    async def show_stream(self, live: LiveStream) -> None:
        """Show ``live``'s events in the body tab as they come (the page shown is its head);
        the first stream mounts the view."""
        await self._body.show_stream(live)

    def _focus_target(self, tab: str) -> str:
        if tab == "body" and self.stream_shown:
            return "#stream-view RowTable"
        return FOCUS[tab]

    async def select(self, tab: str, *, focus: bool = False) -> None:
        """Show tab ``tab`` (building it the first time); ``focus`` moves into it."""
        self.query_one(TabBar).active = tab
        self._switcher.current = tab
        pane = self.query_one(f"#{tab}", Vertical)
        if tab in LAZY_TABS and not pane.children:
            content: Widget
            if tab == "headers":
                content = HeadersView(id="headers-view")
            elif tab == "raw":
                content = BodyView(id="raw-view")
                content.set_wrap(self.body_view.wrap)
            else:
                from explorer.ui.widgets.trip_view import TripView

                content = VerticalScroll(TripView(id="trip-view"), id="trip-scroll")
            await pane.mount(content)
        if tab in self._stale:
            self._fill(tab)
        if focus:
            self.query_one(self._focus_target(tab)).focus()
        if self.searching:
            self._search()  # the same search, in this tab

    @property
    def tab(self) -> str:
        """The tab shown."""
        return self._switcher.current or "body"

    async def on_tab_bar_activated(self, event: TabBar.Activated) -> None:
        await self.select(event.tab)

    def refill(self, tab: str) -> None:
        """Show the page again in tab ``tab`` (what it says of it changed): now if it is
        the tab shown, else when it next is."""
        if self.tab == tab:
            self._fill(tab)
        else:
            self._stale.add(tab)

    def _fill(self, tab: str) -> None:
        """Show the page in tab ``tab``, if that tab is built."""
        page = self.page
        if page is None or not self.query_one(f"#{tab}", Vertical).children:
            return
        self._stale.discard(tab)
        exchange = page.exchange
        if tab == "headers":
            headers = exchange.response.headers if exchange is not None else ()
            self.query_one(HeadersView).show_headers(headers)
        elif tab == "raw":
            from explorer.core.http.wire import exchange_text

            raw_view = self.query_one("#raw-view", BodyView)
            if exchange is not None:
                raw_view.show_text(exchange_text(exchange), "http")
            else:
                raw_view.show_text("Nothing was received.")
        else:
            from explorer.ui.widgets.trip_view import TripView  # (imported with the tab)

            self.query_one(TripView).show_exchange(exchange, page.error, page.wait)

    def toggle_wrap(self) -> bool:
        """Wrap long lines in the body and raw views, or stop; True when they now wrap."""
        wrap = not self.body_view.wrap
        for view in self.query(BodyView):
            view.set_wrap(wrap)
        return wrap

    # -- keys ---------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``n``/``N`` apply while a search is open."""
        if action == "next_match":
            return self.searching
        return True

    async def action_tab(self, tab: str) -> None:
        await self.select(tab, focus=True)

    async def action_search(self) -> None:
        await self.open_bar("search")

    async def action_filter(self) -> None:
        await self.open_bar("filter")

    def action_next_match(self, step: int) -> None:
        self.step_match(step)

    def action_wrap(self) -> None:
        wrapped = self.toggle_wrap()
        self.notify("Long lines wrap." if wrapped else "Long lines scroll sideways.", timeout=2)

    def action_copy(self) -> None:
        self.post_message(self.Copy(self.copy_choices(), self._pointed()))

    def action_save_body(self) -> None:
        """Save the body of the response shown to a file."""
        from explorer.core.text.sizes import size_text
        from explorer.ui.dialogs.save_body import SaveBodyDialog

        exchange = self.page.exchange if self.page is not None else None
        if exchange is None:
            self.notify("No response to save yet.")
            return
        response = exchange.response
        if not response.body:
            self.notify(f"The response ({response.status}) has no body to save.")
            return

        def saved(path: Path | None) -> None:
            if path is not None:
                self.notify(f"Saved {size_text(len(response.body))} to {path}.")

        self.app.push_screen(SaveBodyDialog.of(response), saved)

    def _pointed(self) -> str:
        """The copy menu's key of what the focus is on here: a header, the body's line
        under its cursor, else the body."""
        focused = self.screen.focused
        if focused is not None and any(
            isinstance(node, HeadersView) for node in focused.ancestors_with_self
        ):
            return "h"
        return "l" if focused is not None and self.body_view.cursor_line is not None else "b"

    def copy_choices(self) -> list[CopyChoice]:
        """What can be copied from the response: the body as shown, the body's line under
        its cursor, the header under each headers table's cursor."""
        from explorer.ui.dialogs.copy_menu import CopyChoice

        choices: list[CopyChoice] = []
        view = self.body_view
        text = view.text
        if self.page is not None and text.size:
            # What is copied is the text shown (JSON indented): its size, not the body's.
            what = "the filter's result" if view.filtered else "the body as shown"
            shown = text.text() if copy_refusal(what, text.size) is None else ""
            choices.append(CopyChoice("b", what, shown, text.size))
        if view.cursor_line is not None:
            line = text.line(view.cursor_line, as_shown=False)
            what = f"line {view.cursor_line + 1:,}"
            choices.append(CopyChoice("l", what, line, len(line.encode())))
        for headers in self.query(HeadersView):
            if "headers" in self._stale:  # showing an earlier page's, not this one's
                break
            row = headers.table.cursor_row
            if 0 <= row < len(headers.headers):
                name, value = headers.headers[row]
                header = f"{name}: {value}"
                choices.append(CopyChoice("h", f"the header {name}", header, len(header.encode())))
        return choices

    # -- the find bars ------------------------------------------------------------------------

    def _bar(self, kind: Kind) -> FindBar | None:
        return self._bars.get(kind)

    @property
    def searching(self) -> bool:
        """True while the search bar is open with something typed in it."""
        bar = self._bar("search")
        return bar is not None and bar.display and bool(bar.value)

    def close_search(self) -> None:
        """Close the search bar if it is open (its search stops)."""
        bar = self._bar("search")
        if bar is not None and bar.display:
            bar.action_close()

    async def open_bar(self, kind: Kind) -> None:
        """Open the search or the filter bar (a filter shows the body tab)."""
        if kind == "filter" or self.tab == "trip":
            await self.select("body")
        bar = self._bar(kind)
        if bar is None:
            from explorer.ui.widgets.find_bar import FindBar

            bar = self._bars[kind] = FindBar(kind, id=f"{kind}-bar")
            await self.mount(bar)
        bar.open()
        if bar.value:  # what was typed last, run again (typing replaces it)
            if kind == "search":
                self._search()
            else:
                self._start_filter()

    def _target(self) -> BodyView | HeadersView | StreamView | None:
        """What the search bar searches: the view of the tab shown (the trip has none)."""
        tab = self.tab
        if tab == "body":
            return self.stream_view if self.stream_shown else self.body_view
        if tab == "raw":
            return self.query_one("#raw-view", BodyView)
        if tab == "headers":
            return self.query_one(HeadersView)
        return None

    def _search(self) -> None:
        bar = self._bar("search")
        target = self._target()
        if bar is None or target is None:
            return
        if not bar.value:
            target.search(None)
            bar.show_status("")
            return
        try:
            pattern = compile_query(bar.search_query)
        except SearchError as error:
            target.search(None)
            bar.show_status(error.message, error=True)
            return
        target.search(pattern)
        self._say_search(bar, target)

    @staticmethod
    def _say_search(bar: FindBar, target: BodyView | HeadersView | StreamView) -> None:
        """Show how the search in ``target`` goes: its count, a note on it, or its error."""
        if isinstance(target, BodyView):
            status, error, note = target.search_status, target.search_error, target.search_note
            bar.show_status(status, error=error, hint=note)
        else:
            bar.show_status(target.search_status)

    def step_match(self, step: int) -> None:
        """Go to the next (1) or previous (-1) match of the search."""
        target = self._target()
        bar = self._bar("search")
        if target is not None and bar is not None:
            target.step_match(step)
            self._say_search(bar, target)

    def on_find_bar_changed(self, event: FindBar.Changed) -> None:
        event.stop()
        if event.bar.kind == "search":
            self._search()
            return
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._body.cancel_filter()
        self._filter_timer = self.set_timer(FILTER_DELAY, self._start_filter)

    def on_find_bar_step(self, event: FindBar.Step) -> None:
        event.stop()
        if event.bar.kind == "search" and event.step:
            self.step_match(event.step)
        if event.done:
            self.query_one(self._focus_target(self.tab)).focus()

    def on_find_bar_closed(self, event: FindBar.Closed) -> None:
        event.stop()
        if event.bar.kind == "search":
            for view in self.query(BodyView):
                view.search(None)
            for headers in self.query(HeadersView):
                headers.search(None)
            if self._body.stream_made:
                self.stream_view.search(None)
        else:
            if self._filter_timer is not None:
                self._filter_timer.stop()
            self._body.cancel_filter()
            self._body.detail.unfilter()
        # The bar gave the focus back as it closed; the tab's view has it if nothing took it
        # (another bar opened meanwhile keeps it: the keys typed after Escape are its own).
        if self.screen.focused is None:
            self.screen.set_focus(self.query_one(self._focus_target(self.tab)))

    def on_body_view_search_changed(self, event: BodyView.SearchChanged) -> None:
        event.stop()
        bar = self._bar("search")
        status = event.view.search_status  # ("" when it stopped: a bad pattern says why)
        if bar is not None and event.view is self._target() and status:
            self._say_search(bar, event.view)

    def _start_filter(self) -> None:
        bar = self._bar("filter")
        if bar is not None:
            self._body.start_filter(bar, self.page)
