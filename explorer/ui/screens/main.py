"""The browser screen: URL bar, breadcrumb, status line, response tabs, links panel.

It routes messages and runs the network in workers (its dialogs are routed in
:mod:`~explorer.ui.screens.browser_dialogs`); what a browser tab knows and
decides is the :class:`~explorer.core.session.Session`'s. The widgets own their
keys and post what the person did up: the URL bar its editing, the links panel
choosing a link, the response tabs searching, filtering, wrapping and copying
(their keys work wherever the focus is: :mod:`explorer.ui.page_keys`). A fetch
is an exclusive worker, so a newer request (or Escape) cancels an older one and
a stale answer is never shown.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import ComposeResult
from textual.command import Provider
from textual.containers import Horizontal
from textual.widgets import Label
from textual.worker import Worker

from explorer.core.http.request import RequestSpec
from explorer.core.session import Page, Trail
from explorer.core.session.hints import key_hint
from explorer.core.session.loading import load_page, read_safely, with_reading
from explorer.core.session.tab import Tab
from explorer.core.text.copy_text import copy_refusal, describe_copy
from explorer.ui.page_keys import BindingChain, with_page_keys
from explorer.ui.painted import after_paint
from explorer.ui.screens.browser_carry import BrowserCarry
from explorer.ui.screens.browser_connection import BrowserConnection
from explorer.ui.screens.browser_dialogs import BrowserDialogs
from explorer.ui.screens.browser_http_files import BrowserHttpFiles, HttpFilesState
from explorer.ui.screens.browser_keep import BrowserKeep
from explorer.ui.screens.browser_keys import SCREEN_KEYS
from explorer.ui.screens.browser_pages import BrowserPages
from explorer.ui.screens.browser_reading import BrowserReading
from explorer.ui.screens.browser_survey import BrowserSurvey
from explorer.ui.widgets.breadcrumb import Breadcrumb
from explorer.ui.widgets.headers_view import HeadersView
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.url_input import UrlBar

if TYPE_CHECKING:
    from explorer.core.http.client import Client
    from explorer.ui.dialogs.copy_menu import CopyChoice

# The dialogs are imported where they open: the first screen does not wait for them.


def _follow_commands() -> type[Provider]:
    """The palette's "follow WORDS" provider, imported when the palette first opens."""
    from explorer.ui.follow_commands import FollowCommands

    return FollowCommands


class BrowserScreen(
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
    BINDINGS = SCREEN_KEYS
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
        #: The widgets whose keys work wherever the focus is (see :meth:`_binding_chain`).
        self._key_owners = (ResponseTabs(id="tabs"), LinksPanel(id="links"))

    @property
    def trail(self) -> Trail:
        """The session's trail (back and forward)."""
        return self.session.trail

    def compose(self) -> ComposeResult:
        with Horizontal(id="url-row"):
            yield Label("GET", id="method", markup=False)
            yield UrlBar(
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
            yield self._key_owners[0]
            yield self._key_owners[1]
        yield KeyBar()

    @property
    def _binding_chain(self) -> BindingChain:
        # The response tabs' and the links panel's keys work wherever the focus is.
        return with_page_keys(super()._binding_chain, self, self._key_owners)

    def on_mount(self) -> None:
        self.show_environment()  # (one chosen with --env)
        url = self.query_one("#url", UrlBar)
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
        self.query_one("#url", UrlBar).show_url(spec.url)
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
        self.query_one(LinksPanel).new_page()
        self._show_address(page)
        self.query_one(ResponseTabs).show(page)
        self.show_reading(page)
        if page.reading:
            self.read(page)

    def _show_address(self, page: Page) -> None:
        """The method and URL of ``page`` in the URL bar (what ``r`` sends again)."""
        self.query_one("#method", Label).update(page.spec.method)
        url = page.exchange.response.url if page.exchange else page.spec.url
        self.query_one("#url", UrlBar).show_url(url)

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
        if self.focused is None or self.focused is self.query_one("#url", UrlBar):
            self.query_one(LinksPanel).table.focus()  # digits follow links, not type
        self.refresh_bindings()

    def _show_badges(self) -> None:
        """The credential, version and kept headers in use, at the right of the URL bar."""
        shown = self.session.shown
        url = shown.spec.url if shown else self.query_one("#url", UrlBar).value
        self.query_one("#auth-badge", Label).update(self.session.badge(url))

    # -- messages up from the widgets ---------------------------------------------------------

    def on_links_panel_follow(self, event: LinksPanel.Follow) -> None:
        if not self.sending:  # no key acts on a page not shown yet
            self.follow_link(event.link)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "fetch":  # the links shown are chosen from again, or not
            self.query_one(LinksPanel).awaiting = self.sending

    def on_url_bar_opened(self, event: UrlBar.Opened) -> None:
        self.open_url(event.text)
        self.query_one(LinksPanel).table.focus()

    def on_url_bar_left(self, event: UrlBar.Left) -> None:
        self.query_one(LinksPanel).table.focus()

    def on_response_tabs_copy(self, event: ResponseTabs.Copy) -> None:
        links = self.query_one(LinksPanel)
        focused = self.focused
        pointed = "u" if focused is not None and links in focused.ancestors_with_self else ""
        self.copy([*event.choices, *self._copy_choices()], pointed or event.pointed)

    @work(group="copy")
    async def copy(self, choices: list[CopyChoice], pointed: str) -> None:
        """Open the copy menu on ``choices``, the one ``pointed`` at first; copy the one chosen."""
        from explorer.ui.dialogs.copy_menu import CopyMenu

        if not choices:
            self.notify("Nothing to copy yet.")
            return
        focused = next((n for n, c in enumerate(choices) if c.key == pointed), 0)
        choice = await self.app.push_screen_wait(CopyMenu(choices, focused))
        if choice is None:
            return
        refusal = copy_refusal(choice.what, choice.size)
        if refusal is not None:
            self.notify(refusal, severity="warning", timeout=8)
            return
        self.app.copy_to_clipboard(choice.text)
        self.notify(describe_copy(choice.what, choice.text))

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
            return self.session.shown is not None or bool(self.query_one("#url", UrlBar).value)
        if action == "explain_status":
            return self.session.shown is not None
        return True

    def action_focus_url(self) -> None:
        url = self.query_one("#url", UrlBar)
        url.focus()
        url.select_all()

    def action_focus_links(self) -> None:
        self.query_one(LinksPanel).table.focus()

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
        """Escape: cancel the request (the login, the page + adds) on its way; else close
        the search bar, its search stopped (as a browser's find bar closes). (In the URL
        bar, Escape first puts the page's URL back: :meth:`UrlBar.action_leave`.)"""
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
            self.open_url(self.query_one("#url", UrlBar).value or "/")
        else:
            self._do(step)

    def on_key(self, event: events.Key) -> None:
        # A typed link number is one gesture: any other key but Enter ends it.
        if event.key != "enter" and not (event.character or "").isdigit():
            self.query_one(LinksPanel).other_key()
