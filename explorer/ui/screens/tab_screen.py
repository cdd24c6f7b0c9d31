"""A browser tab on screen: URL row, breadcrumb, status line, response tabs, links panel.

:class:`TabScreen` composes the widgets, shows the tab's pages and handles what the
widgets post up; :class:`~explorer.ui.screens.main.BrowserScreen` adds the screen's
own keys and its tools. What the tab decides is its
:class:`~explorer.core.session.tab.Tab`'s (its start page, asked for before the
screen is shown, :class:`~explorer.core.session.start_page.StartPage`'s). The
widgets own their keys: the URL bar (in the :mod:`~explorer.ui.widgets.url_row`)
its editing, the links panel choosing a link, the response tabs searching,
filtering, wrapping, copying and saving the body, the badges of the URL row the
credential and the ``.http`` files (keys that work wherever the focus is:
:mod:`explorer.ui.page_keys`). Each dialog owns its flow and returns a typed
result (the composer, a template's form, the copy menu and a header explained are
opened by :mod:`.tab_dialogs`). A fetch is
an exclusive worker, so a newer request (or Escape) cancels an older one and a
stale answer is never shown. A page whose body does not end is read on by a
worker of its own (:mod:`.stream_reading`), each event shown as it comes, until
the stream ends, Escape stops it or another page is asked for.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import ComposeResult
from textual.command import Provider
from textual.containers import Horizontal
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker

from explorer.core.http.progress import BodyProgress
from explorer.core.http.request import RequestSpec
from explorer.core.http.secret_rules import origin_of
from explorer.core.session import Next, Page, Session, Trail
from explorer.core.session.hints import status_hint
from explorer.core.session.start_page import StartPage
from explorer.core.session.tab import Tab
from explorer.ui.page_keys import BindingChain, with_page_keys
from explorer.ui.painted import after_paint
from explorer.ui.screens.on_its_way import OnItsWay
from explorer.ui.screens.stream_reading import StreamReading
from explorer.ui.screens.tab_dialogs import (
    open_composer,
    open_copy_menu,
    open_header_explained,
    open_template_form,
)
from explorer.ui.waits import CollectionHold, KeyClock, PaintWatch
from explorer.ui.widgets.breadcrumb import Breadcrumb
from explorer.ui.widgets.headers_view import HeadersView
from explorer.ui.widgets.http_file_badge import HttpFileBadge, HttpFilesState
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.url_input import UrlBar, UrlInput
from explorer.ui.widgets.url_row import UrlRow

if TYPE_CHECKING:
    from collections.abc import Callable

    from explorer.core.hypermedia.link import Link
    from explorer.core.session.live_stream import LiveStream
    from explorer.ui.widgets.stream_view import StreamView


# The dialogs and other screens are imported where they open: the first screen does not wait.


def _follow_commands() -> type[Provider]:
    """The palette's "follow WORDS" provider, imported when the palette first opens."""
    from explorer.ui.follow_commands import FollowCommands

    return FollowCommands


class TabScreen(Screen[None]):
    """One browser tab on screen: its page, links and request; it sends, shows, follows
    and composes, and handles what its widgets post up."""

    CSS_PATH = "main.tcss"
    #: When the screen comes back (a dialog closed) with nothing focused: the links.
    AUTO_FOCUS = "#links RowTable"
    COMMANDS = {_follow_commands}

    def __init__(self, tab: Tab, start_url: str | None) -> None:
        super().__init__()
        self.tab = tab
        self.start_url = start_url
        #: The start page, on its way before the screen is shown (see :meth:`prefetch`).
        self._start = StartPage(tab, start_url)
        clock = tab.client.clock
        #: When keys are pressed, and when each page is painted: the ends of each wait.
        self.keys = KeyClock(clock)
        self._paints = PaintWatch(clock, self._painted)
        #: The garbage collector held off from each key to its page painted.
        self._collection = CollectionHold()
        self._tabs = ResponseTabs(id="tabs")
        self._links = LinksPanel(id="links")
        # Kept, not queried: a query walks the screen's widgets (a page shown asked for
        # these some ten times, half a millisecond).
        self._url_row = UrlRow(tab, id="url-row")
        self._url_bar = self._url_row.bar
        self._breadcrumb = Breadcrumb(id="breadcrumb")
        self._status = StatusLine("Type a URL and press Enter.", id="status")
        #: The request on its way, said once it is slow.
        self._on_its_way = OnItsWay(self, self._status, self._url_row.show_request, clock)
        #: The live stream shown, read as it comes.
        self.streams = StreamReading(self, tab, self._tabs, self._status)
        #: The widgets whose keys work wherever the focus is (see :meth:`_binding_chain`);
        #: a stream's view joins them when a stream is first read.
        self._key_owners: tuple[Widget, ...] = (
            self._tabs,
            self._links,
            self._url_row.auth_badge,
            self._url_row.http_badge,
        )

    @property
    def session(self) -> Session:
        """The tab's session."""
        return self.tab.session

    @property
    def http_files(self) -> HttpFilesState:
        """The ``.http`` file in use, its environment, the request last opened from one."""
        return self._url_row.http_badge.state

    @property
    def http_file_badge(self) -> HttpFileBadge:
        """The widget that owns the ``.http`` keys (S, o, E) and what they keep."""
        return self._url_row.http_badge

    @property
    def trail(self) -> Trail:
        """The session's trail (back and forward)."""
        return self.session.trail

    def compose(self) -> ComposeResult:
        yield self._url_row
        yield self._breadcrumb
        if self.start_url:  # a frame drawn before on_mount says what is coming
            self._status.show_loading(RequestSpec(url=self.start_url))
        yield self._status
        with Horizontal(id="panes"):
            yield self._tabs
            yield self._links
        yield KeyBar()

    def _screen_resized(self, size: Size) -> None:
        """Lay the screen out again for a new size, not for the size it was just laid out
        at: Textual's first layout of a screen pushed sends the screen its own size (a
        Resize from nothing to it), which laid all of it out and drew it a second time, the
        same (some 7 ms of the first screen). What changed since is laid out by the
        screen's next update, as ever; a terminal resized gets its layout here."""
        if size == self._compositor.size:
            return
        super()._screen_resized(size)

    @property
    def _binding_chain(self) -> BindingChain:
        return with_page_keys(super()._binding_chain, self, self._key_owners)

    def on_mount(self) -> None:
        self._paints.watch(self, self._status)
        url = self._url_bar
        if not self.start_url:
            url.focus()
            return
        url.show_url(self.start_url)
        self.show_badges()
        self._links.table.focus()
        start = self._start.take()
        if start is not None and start.done():  # shown before the screen is first drawn
            self.arrived(start.result(), record=True)
        else:
            self.send(RequestSpec(url=self.start_url), typed=True, pending=start)

    def on_unmount(self) -> None:
        self._collection.release()
        self._on_its_way.drop()  # (the loop's timer is not the screen's: it would outlive it)

    async def prefetch(self, hold: float) -> None:
        """Start loading the start page before this screen is shown; wait up to ``hold`` s."""
        await self._start.prefetch(hold)

    # -- sending and showing ----------------------------------------------------------------

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
        reload: bool = False,
    ) -> None:
        """Send ``spec``, with what the session keeps for its server, in a worker;
        ``withheld`` says what it goes without (:meth:`Session.following`); ``reload``:
        it is ``r``'s, checked with the server when a cache has it."""
        spec = self.session.prepare(spec, typed=typed)
        # The start page has no wait: no key asked for it, and the screen's first frame
        # comes before Textual says frames are drawn (the first screen's own measure is
        # bench/bench_tui.py's).
        asked_at = None if pending is not None else self.keys.asked()
        if asked_at is not None:
            self._collection.hold()
        self.streams.stop()
        fresh = pending is None  # (the start page's body is counted since prefetch)
        progress = BodyProgress(self.tab.client.clock) if fresh else self._start.progress
        self.fetch(spec, via, record, pending, withheld, reload, asked_at, progress)
        # Said on the status line only if the answer is slow (see OnItsWay).
        self._on_its_way.hold(spec, progress, now=typed, via=via, record=record)

    @property
    def on_its_way(self) -> RequestSpec | None:
        """The request whose answer is awaited, said on the status line or to be."""
        return self._on_its_way.spec

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
        withheld: str,
        reload: bool,
        asked_at: float | None,
        progress: BodyProgress,
    ) -> None:
        """Send one request (or wait for ``pending``) and show the response (a stream's
        head, its events then read on: :meth:`read_stream`); ``asked_at``: when the
        person asked for it (the key), on the client's clock (None: the start page);
        ``progress``: its body counted as it comes."""
        page = await (
            pending or self.tab.open(spec, via, withheld=withheld, reload=reload, progress=progress)
        )
        self.arrived(page.waited_from(asked_at) if asked_at is not None else page, record)

    def arrived(self, page: Page, record: bool) -> None:
        """Take a page in (a failed send is only shown) and show it."""
        self._on_its_way.drop()
        self.remember_view()
        # A key's page (it has a wait) is mapped once painted: see _painted.
        arrival = self.tab.arrive(page, record=record, map_later=page.wait is not None)
        if (said := arrival.said) is not None:  # a credential just given, proven or dropped
            self.notify(said[1], title=said[0])
        if arrival.page.wait is not None:  # (a key's: painted, it releases the hold)
            self._collection.hold()
        self.show_page(arrival.page)
        self._paints.shown(arrival.page)
        live = self.tab.live
        if live is not None and page.exchange is live.exchange:
            self.read_stream(live)

    def _painted(self, page: Page) -> None:
        """``page`` is on the screen: its wait is whole, for the Trip tab to show."""
        self._collection.release()
        if self.session.shown is not None and self.session.shown.wait is page.wait:
            self._tabs.refill("trip")
            self.refresh_bindings()  # (held from show_reading)
        self.session.map_arrivals()  # (held from arrived: nothing painted reads the map)

    # -- a stream, read as it comes (see StreamReading) ------------------------------------

    def read_stream(self, live: LiveStream) -> None:
        """Read ``live`` as it comes, each event shown, in a worker; stopped, it is closed."""
        view = self._tabs.stream_view
        if view not in self._key_owners:  # (it owns p)
            self._key_owners = (*self._key_owners, view)
        self.streams.read(live)

    def on_stream_view_progress(self, event: StreamView.Progress) -> None:
        event.stop()
        self.streams.show_progress(event.live, reading=self.streams.reading)

    @work(exclusive=True, group="read")
    async def read(self, page: Page) -> None:
        """Read ``page``'s links and advice off the UI thread, then show them if it is current."""
        await after_paint(self)  # parsing a large body holds the GIL for a while
        read = await self.tab.read(page)
        self.trail.swap(page, read)
        if self.session.shown is read:
            self.show_reading(read)

    def remember_view(self) -> None:
        """Keep where the person is on the page shown, for back and forward."""
        row, top = self._links.table.cursor_row, round(self._tabs.body_view.scroll_y)
        self.trail.remember((row, top))

    def show_page(self, page: Page, *, restore: bool = False) -> None:
        """Show ``page``, the page now shown, in every view (attributes down); ``restore``
        the links cursor and the body's scroll where they were when it was left."""
        tabs, links = self._tabs, self._links
        links.new_page()
        self._url_row.show_address(page)
        tabs.show(page)
        self.show_reading(page)
        if page.reading:
            self.read(page)
        view = self.trail.view
        if restore and isinstance(view, tuple):
            links.table.move_cursor(view[0])
            tabs.body_view.scroll_to(y=view[1], animate=False, immediate=True, force=True)

    def show_reading(self, page: Page) -> None:
        """Show what was read from ``page``: status line with advice, links, breadcrumb."""
        self._status.show_page(page, status_hint(page))
        trail = self.trail
        self._breadcrumb.show_trail(trail.breadcrumb(), trail.ahead)
        links = self._links
        links.show_links(page.links, page.links_found, page.links_stopped, origin_of(page.url))
        self.show_badges()
        if self.focused is None or self.focused is self._url_bar:
            links.table.focus()  # digits follow links, not type
        if page.wait is None or page.wait.shown_at is not None:
            self.refresh_bindings()
        # else once it is painted (_painted): the key bar looks at the keys after the page's
        # frame anyway, and told now it took two messages on the page's way to the screen

    def show_badges(self) -> None:
        """The credential, version and kept headers in use, at the right of the URL bar."""
        self._url_row.auth_badge.show(self.page_url())

    def page_url(self) -> str:
        """The URL of the page shown (where its redirects led: whose server's page it is), or
        what the URL bar holds before any page."""
        shown = self.session.shown
        return shown.url if shown else self._url_bar.value

    # -- following, composing, what a dialog answers -------------------------------------------

    def follow_link(self, link: Link) -> None:
        """Follow ``link`` as the tab says: send it, fill its template, or compose its action."""
        self.do(self.tab.follow(link), record=True)

    def do(self, step: Next | None, *, record: bool = False) -> None:
        """Do what the tab decided: send (a new page when ``record``, else in the shown one's
        place), ask a template's variables, or open the composer."""
        if step is None:
            return
        if step.kind == "send":
            self.send(
                step.spec, via=step.via, record=record, withheld=step.withheld, reload=step.reload
            )
        elif step.kind == "form" and step.link is not None:
            open_template_form(self, step.link)
        else:
            self.open_composer(step.spec, step.note)

    def open_composer(
        self,
        spec: RequestSpec,
        note: str = "",
        *,
        saver: Callable[[RequestSpec], None] | None = None,
        on_send: Callable[[RequestSpec], None] | None = None,
    ) -> None:
        """The composer on ``spec`` as it is sent (:func:`~.tab_dialogs.open_composer`)."""
        open_composer(self, spec, note, saver=saver, on_send=on_send)

    # -- messages up from the widgets ---------------------------------------------------------

    def on_links_panel_follow(self, event: LinksPanel.Follow) -> None:
        event.stop()  # (the screen follows it: nothing above listens)
        if not self.sending:  # no key acts on a page not shown yet
            self.follow_link(event.link)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "fetch":  # the links shown are chosen from again, or not
            self._links.awaiting = self.sending
            if not self.sending:
                self._on_its_way.drop()

    def on_url_bar_opened(self, event: UrlBar.Opened) -> None:
        self.open_url(event.text)
        self._links.table.focus()

    def on_url_bar_left(self, event: UrlBar.Left) -> None:
        self._links.table.focus()

    def on_url_input_curl_read(self, event: UrlInput.CurlRead) -> None:
        event.stop()
        self.open_composer(event.spec, event.note)

    def on_http_file_badge_compose(self, event: HttpFileBadge.Compose) -> None:
        self.open_composer(event.spec, saver=event.saver, on_send=event.on_send)

    def on_response_tabs_copy(self, event: ResponseTabs.Copy) -> None:
        open_copy_menu(self, self._links, event)

    def on_headers_view_explain(self, event: HeadersView.Explain) -> None:
        open_header_explained(self, event.name)

    def on_key(self, event: events.Key) -> None:
        # A typed link number is one gesture: any other key but Enter ends it.
        if event.key != "enter" and not (event.character or "").isdigit():
            self._links.other_key()
