"""The browser screen: URL bar, breadcrumb, status line, response tabs, links panel.

It routes messages and runs the network in workers (its dialogs are routed in
:mod:`~explorer.ui.screens.browser_dialogs`); what a browser tab knows and
decides is the :class:`~explorer.core.session.Session`'s, and the widgets only
show what they are given. A fetch is an exclusive worker, so a newer
request (or Escape) cancels an older one and a stale answer is never shown.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import ComposeResult
from textual.command import Provider
from textual.containers import Horizontal
from textual.widgets import Input, Label

from explorer.core.http.request import RequestSpec
from explorer.core.session import Page, Trail
from explorer.core.session.choice import PAUSE
from explorer.core.session.hints import key_hint
from explorer.core.session.loading import load_page, read_safely, with_reading
from explorer.core.session.tab import Tab
from explorer.ui.painted import after_paint
from explorer.ui.screens.browser_carry import BrowserCarry
from explorer.ui.screens.browser_connection import BrowserConnection
from explorer.ui.screens.browser_dialogs import BrowserDialogs
from explorer.ui.screens.browser_http_files import BrowserHttpFiles, HttpFilesState
from explorer.ui.screens.browser_keep import BrowserKeep
from explorer.ui.screens.browser_keys import BROWSER_KEYS
from explorer.ui.screens.browser_pages import BrowserPages
from explorer.ui.screens.browser_reading import BrowserReading
from explorer.ui.screens.browser_survey import BrowserSurvey
from explorer.ui.screens.browser_url_bar import BrowserUrlBar
from explorer.ui.widgets.breadcrumb import Breadcrumb
from explorer.ui.widgets.headers_view import HeadersView
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.url_input import UrlInput

if TYPE_CHECKING:
    from explorer.core.http.client import Client

# The dialogs are imported where they open: the first screen does not wait for them.


def _follow_commands() -> type[Provider]:
    """The palette's "follow WORDS" provider, imported when the palette first opens."""
    from explorer.ui.follow_commands import FollowCommands

    return FollowCommands


class BrowserScreen(
    BrowserUrlBar,
    BrowserCarry,
    BrowserDialogs,
    BrowserHttpFiles,
    BrowserReading,
    BrowserConnection,
    BrowserKeep,
    BrowserSurvey,
    BrowserPages,
):
    """Browse an API: open URLs, follow links, compose requests, go back and forward."""

    CSS_PATH = "main.tcss"
    #: When the screen comes back (a dialog closed) with nothing focused: the links.
    AUTO_FOCUS = "#links RowTable"
    BINDINGS = BROWSER_KEYS
    COMMANDS = {_follow_commands}

    def __init__(self, client: Client, start_url: str | None, *, mock_users: bool) -> None:
        super().__init__()
        self.client = client
        self.start_url = start_url
        self.mock_users = mock_users
        self.tab = Tab(client)
        self.session = self.tab.session
        self.http_files = HttpFilesState()
        #: The start page on its way before the screen is shown (see :meth:`prefetch`).
        self._start: asyncio.Future[Page] | None = None

    @property
    def trail(self) -> Trail:
        """The session's trail (back and forward)."""
        return self.session.trail

    def compose(self) -> ComposeResult:
        with Horizontal(id="url-row"):
            yield Label("GET", id="method", markup=False)
            yield UrlInput(
                placeholder="http://127.0.0.1:8000/, /path, host:port or a curl command", id="url"
            )
            yield Label("", id="auth-badge", markup=False)
            yield Label("", id="env-badge", markup=False)
        yield Breadcrumb(id="breadcrumb")
        status = StatusLine("Type a URL and press Enter.", id="status")
        if self.start_url:  # a frame drawn before on_mount says what is coming
            status.show_loading(RequestSpec(url=self.start_url))
        yield status
        with Horizontal(id="panes"):
            yield ResponseTabs(id="tabs")
            yield LinksPanel(id="links")
        yield KeyBar()

    def on_mount(self) -> None:
        self.show_environment()  # (one chosen with --env)
        url = self.query_one("#url", UrlInput)
        if not self.start_url:
            url.focus()
            return
        url.show_url(self.start_url)
        self.query_one(LinksPanel).table.focus()
        start, self._start = self._start, None
        if start is not None and start.cancelled():
            start = None  # (only when the app closed while it waited): ask again
        if start is not None and start.done():
            self._arrived(start.result(), record=True)  # before the screen is first drawn
        else:
            self.send(RequestSpec(url=self.start_url), typed=True, pending=start)

    async def prefetch(self, hold: float) -> None:
        """Start loading the start page before this screen is shown; wait up to ``hold`` s."""
        assert self.start_url is not None
        start = asyncio.ensure_future(load_page(self.client, RequestSpec(url=self.start_url)))
        self._start = start
        try:
            await asyncio.wait_for(asyncio.shield(start), hold)
        except TimeoutError:
            pass
        except asyncio.CancelledError:  # the app is closing
            start.cancel()
            raise

    # -- sending ----------------------------------------------------------------------------

    def open_url(self, text: str) -> None:
        """GET what ``text`` typed in the URL bar means, sent as typed."""
        self.send(RequestSpec(url=self.session.resolve(text)), typed=True)

    def send(
        self,
        spec: RequestSpec,
        *,
        via: str = "url",
        record: bool = True,
        typed: bool = False,
        pending: asyncio.Future[Page] | None = None,
        withheld: str = "",
    ) -> None:
        """Send ``spec``, with what the session keeps for its server, in a worker;
        ``withheld`` says what it goes without (:meth:`Session.following`)."""
        spec = self.session.prepare(spec, typed=typed)
        self.query_one("#method", Label).update(spec.method)
        self.query_one("#url", UrlInput).show_url(spec.url)
        self.query_one(StatusLine).show_loading(spec)
        self.fetch(spec, via, record, pending, withheld)

    @property
    def sending(self) -> bool:
        """True while a request is on its way."""
        return any(w.group == "fetch" and w.is_running for w in self.workers)

    @work(exclusive=True, group="fetch")
    async def fetch(
        self,
        spec: RequestSpec,
        via: str,
        record: bool,
        pending: asyncio.Future[Page] | None,
        withheld: str = "",
    ) -> Page:
        """Send one request (or wait for ``pending``) and show the response."""
        loading = (
            load_page(self.client, spec, via, withheld=withheld) if pending is None else pending
        )
        page = await loading
        self._arrived(page, record)
        return page

    def _remember_view(self) -> None:
        """Keep where the person is on the current page, for back and forward."""
        row = self.query_one(LinksPanel).table.cursor_row
        top = round(self.query_one(ResponseTabs).body_view.scroll_y)
        self.session.trail.remember((row, top))

    def _restore_view(self) -> None:
        """Put the links cursor and the body back where they were when the page was left."""
        view = self.session.trail.view
        if isinstance(view, tuple):
            row, top = view
            self.query_one(LinksPanel).table.move_cursor(row)
            body = self.query_one(ResponseTabs).body_view
            body.scroll_to(y=top, animate=False, immediate=True, force=True)

    def _arrived(self, page: Page, record: bool) -> None:
        """Put a new page in the history (a failed send is only shown) and show it."""
        proven = self.session.check_login(page)
        if proven is not None:
            if proven:
                self.notify("The server accepted it.", title="Credential set")
            else:
                self.notify("The server refused it: it is dropped.", title="Login failed")
        self._remember_view()
        page = self.session.arrived(page, record=record)
        self.show_page(page)

    @work(exclusive=True, group="read")
    async def read(self, page: Page) -> Page:
        """Read ``page``'s links and advice off the UI thread, then show them if it is current."""
        assert page.exchange is not None
        await after_paint(self)  # parsing a large body holds the GIL for a while
        read = with_reading(page, await asyncio.to_thread(read_safely, page.exchange))
        self.session.trail.swap(page, read)
        if self.session.shown is read:
            self.show_reading(read)
        return read

    # -- showing ----------------------------------------------------------------------------

    def show_page(self, page: Page) -> None:
        """Put ``page``, the page now shown, in every view (attributes down)."""
        self.session.numbers.new_page()
        self._show_address(page)
        self.query_one(ResponseTabs).show(page)
        self.show_reading(page)
        if page.reading:
            self.read(page)

    def _show_address(self, page: Page) -> None:
        """The method and URL of ``page`` in the URL bar (what ``r`` sends again)."""
        self.query_one("#method", Label).update(page.spec.method)
        url = page.exchange.response.url if page.exchange else page.spec.url
        self.query_one("#url", UrlInput).show_url(url)

    def show_reading(self, page: Page) -> None:
        """Show what was read from ``page``: status line with advice, links, breadcrumb."""
        hint = "Finding the links…" if page.reading else key_hint(page)
        self.query_one(StatusLine).show_page(page, hint)
        history = self.session.trail
        self.query_one(Breadcrumb).show_trail(
            history.breadcrumb(), len(history.pages) - 1 - history.index
        )
        self.query_one(LinksPanel).show_links(page.links, page.links_found, page.links_stopped)
        self._show_badges()
        if self.focused is None or self.focused is self.query_one("#url", Input):
            self.query_one(LinksPanel).table.focus()  # digits follow links, not type
        self.refresh_bindings()

    def _show_badges(self) -> None:
        """The credential, version and kept headers in use, at the right of the URL bar."""
        shown = self.session.shown
        url = shown.spec.url if shown else self.query_one("#url", Input).value
        self.query_one("#auth-badge", Label).update(self.session.badge(url))

    # -- messages up from the widgets ---------------------------------------------------------

    def on_links_panel_follow(self, event: LinksPanel.Follow) -> None:
        if self.sending:
            return  # no key acts on a page not shown yet
        if self.session.numbers.enter().kind == "done":
            return  # the Enter ending a number already followed
        self.follow_link(event.link)

    def on_headers_view_explain(self, event: HeadersView.Explain) -> None:
        from explorer.ui.dialogs.explain import ExplainDialog
        from explorer.ui.explain_text import header_markdown

        self.app.push_screen(ExplainDialog(header_markdown(event.name)))

    # -- actions (keys) ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out keys that do nothing now (the key bar shows what applies)."""
        history = self.session.trail
        if action == "back":
            return history.can_go_back or self.session.failed is not None
        if action == "forward":
            return history.can_go_forward
        if action == "reload":
            return self.session.shown is not None or bool(self.query_one("#url", Input).value)
        if action == "explain_status":
            return self.session.shown is not None
        if action == "digit":
            return bool(self.query_one(LinksPanel).links)
        return super().check_action(action, parameters)

    def action_focus_links(self) -> None:
        self.query_one(LinksPanel).table.focus()

    async def action_tab(self, tab: str) -> None:
        await self.query_one(ResponseTabs).select(tab, focus=True)

    def action_back(self) -> None:
        self._go(-1)

    def action_forward(self) -> None:
        self._go(1)

    def _go(self, step: int) -> None:
        """Back or forward: the page as it was, links cursor and body scroll included."""
        self.workers.cancel_group(self, "fetch")
        if self.session.failed is None:
            self._remember_view()
        page = self.session.go(step)
        if page is not None:
            self.show_page(page)
            self._restore_view()

    def action_cancel(self) -> None:
        """Escape: in the URL bar, put the page's URL back and return to the page (as a
        browser does); else cancel the request (the login, the page + adds) on its way;
        else close the search bar, its search stopped (as a browser's find bar closes)."""
        if self.leave_url_bar():
            return  # the edit undone; another Escape cancels a request on its way
        busy = [w for w in self.workers if w.group in ("fetch", "login", "more") and w.is_running]
        if not busy:
            self.query_one(ResponseTabs).close_search()
            return
        for worker in busy:
            worker.cancel()
        shown = self.session.shown
        if shown is not None:  # the page shown, its URL back in the bar: what r sends
            self._show_address(shown)
            self.show_reading(shown)
        else:
            self.query_one(StatusLine).show_message(
                "Cancelled before anything came: r sends it again, ctrl+l changes the URL."
            )
        self.notify("Cancelled: nothing more is read (the server may have received it).")

    def action_reload(self) -> None:
        step = self.session.reload()
        if step is None:  # nothing shown yet (the start page was cancelled): the URL bar's
            self.open_url(self.query_one("#url", Input).value or "/")
        else:
            self._do(step)

    def on_key(self, event: events.Key) -> None:
        # A typed link number is one gesture: any other key but Enter ends it.
        if event.key != "enter" and not (event.character or "").isdigit():
            self.session.numbers.other_key()

    def action_digit(self, digit: int) -> None:
        """Type a link's number (the rule is :data:`.browser_keys.NUMBER_RULE`)."""
        if self.sending:
            self.notify("The page is loading: its links are not shown yet.", timeout=2)
            return
        panel = self.query_one(LinksPanel)
        step = self.session.numbers.digit(digit, len(panel.links))
        if step.kind == "bad":
            self.notify(step.message)
        elif step.kind == "follow":
            link = panel.link_at(step.number)
            if link is not None:
                self.follow_link(link)
        else:
            panel.highlight(step.number)
            panel.table.focus()
            last = min(step.number * 10 + 9, len(panel.links))
            self.notify(
                f"Link {step.number}: Enter follows it; another digit makes {step.number}0-{last}.",
                timeout=PAUSE,
            )
