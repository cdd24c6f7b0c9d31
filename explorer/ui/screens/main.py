"""The browser screen: URL bar, breadcrumb, status line, response tabs, links panel.

It routes messages and runs the network in workers; the widgets only show what
they are given, and the core does the work. A fetch is an exclusive worker, so
a newer request cancels an older one and a stale answer is never shown.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from http import HTTPStatus
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Input, Label

from explorer.core.errors import LoginFailed, RestwalkError
from explorer.core.link import Link
from explorer.core.request import Auth, RequestSpec
from explorer.ui.hints import key_hint
from explorer.ui.history import History, Page
from explorer.ui.navigation import (
    Reading,
    action_spec,
    auth_label,
    fields_note,
    origin_of,
    raw_text,
    read_response,
)
from explorer.ui.painted import after_paint
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.breadcrumb import Breadcrumb
from explorer.ui.widgets.headers_view import HeadersView
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.links_panel import LinksPanel, link_kind
from explorer.ui.widgets.status_line import StatusLine
from explorer.ui.widgets.tab_bar import TabBar
from explorer.ui.widgets.trip_view import TripView

if TYPE_CHECKING:
    from explorer.core.client import Client
    from explorer.core.exchange import Exchange
    from explorer.ui.dialogs.login import LoginResult
    from explorer.ui.dialogs.version import VersionChoice


# The dialogs are imported where they open: the first screen does not wait for them.


#: RFC 9110 section 9.2.1: methods that only read. r sends these again at once.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})

#: The response's tabs: (id, label).
TABS = (("body", "Body"), ("headers", "Headers"), ("raw", "Raw"), ("trip", "Trip"))
#: Tabs built when first shown: the first screen shows only the body.
LAZY_TABS = ("headers", "raw", "trip")

#: Bodies up to this size are read for links and advice as they arrive, so the page
#: is drawn once, whole (the mock server's pages take a millisecond or two). Larger
#: ones are drawn first and read in a thread.
READ_AT_ONCE = 64 * 1024


def _read(exchange: Exchange) -> Reading:
    """:func:`read_response`, with a failure turned into advice: the page stays shown."""
    try:
        return read_response(exchange)
    except Exception as exc:
        return Reading((), 0, (f"restwalk could not read this response's links: {exc}",))


def _with_reading(page: Page, reading: Reading) -> Page:
    return replace(
        page,
        links=reading.links,
        links_found=reading.found,
        advice=reading.advice,
        reading=False,
    )


class BrowserScreen(Screen[None]):
    """Browse an API: open URLs, follow links, compose requests, go back and forward."""

    CSS_PATH = "main.tcss"
    #: When the screen comes back (a dialog closed) with nothing focused: the links.
    AUTO_FOCUS = "#links RowTable"

    BINDINGS = [
        Binding(
            "ctrl+l", "focus_url", "URL", tooltip="Go to the URL bar; type a URL, Enter sends a GET"
        ),
        Binding("alt+left", "back", "Back", tooltip="Back to the previous page, as it was"),
        Binding("alt+right", "forward", "Forward", tooltip="Forward again after going back"),
        Binding("backspace", "back", "Back", show=False, tooltip="Back, like alt+left"),
        Binding(
            "f", "focus_links", "Links", tooltip="Move into the links panel (arrows, Enter follows)"
        ),
        Binding(
            "c", "compose", "Compose", tooltip="Compose a request, starting from the current one"
        ),
        Binding("a", "login", "Log in", tooltip="Log in: token, Basic, Bearer or a cookie session"),
        Binding("v", "version", "Version", tooltip="Pick the API version every request asks for"),
        Binding(
            "e",
            "explain_status",
            "Explain",
            tooltip="Explain this response: what to do, REST, the status",
        ),
        Binding(
            "r",
            "reload",
            "Reload",
            tooltip="Send the current request again (a POST, PUT... opens the composer first)",
        ),
        Binding(
            "b",
            "tab('body')",
            "Body",
            show=False,
            tooltip="Show the body and move into it (arrows, PgUp/PgDn scroll)",
        ),
        Binding(
            "h",
            "tab('headers')",
            "Headers",
            show=False,
            tooltip="Show the headers and move into them (Enter explains one)",
        ),
        Binding(
            "w", "tab('raw')", "Raw", show=False, tooltip="Show the raw wire text and move into it"
        ),
        Binding(
            "t",
            "tab('trip')",
            "Trip",
            show=False,
            tooltip="Show the trip: redirects, timings, sizes",
        ),
        *[Binding(str(n), f"digit({n})", f"Link number digit {n}", show=False) for n in range(10)],
    ]

    def __init__(self, client: Client, start_url: str | None, *, mock_users: bool) -> None:
        super().__init__()
        self.client = client
        self.start_url = start_url
        self.mock_users = mock_users
        self.history = History()
        self.session_auth: Auth | None = None
        self.session_origin = ""
        #: The API version asked for on every request to ``version_origin``.
        self.version: VersionChoice | None = None
        self.version_origin = ""
        #: Digits typed so far of a link number (see :meth:`action_digit`).
        self.typed_number = ""
        #: The start page on its way before the screen is shown (see :meth:`prefetch`).
        self._start: asyncio.Future[Page] | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="url-row"):
            yield Label("GET", id="method")
            yield Input(placeholder="http://127.0.0.1:8000/  (Enter sends GET)", id="url")
            yield Label("", id="auth-badge")
        yield Breadcrumb(id="breadcrumb")
        yield StatusLine("Type a URL and press Enter.", id="status")
        with Horizontal(id="panes"):
            with Vertical(id="tabs"):
                yield TabBar(TABS, active="body")
                with ContentSwitcher(initial="body"):
                    yield Vertical(BodyView(id="body-view"), id="body")
                    # The other tabs are built when first shown (see _build_tab).
                    for tab in LAZY_TABS:
                        yield Vertical(id=tab)
            yield LinksPanel(id="links")
        yield KeyBar()

    def on_mount(self) -> None:
        if not self.start_url:
            self.query_one("#url", Input).focus()
            return
        self.query_one("#url", Input).value = self.start_url
        self.query_one(LinksPanel).table.focus()
        start, self._start = self._start, None
        if start is not None and start.cancelled():
            start = None  # (only when the app closed while it waited): ask again
        if start is not None and start.done():
            self._arrived(start.result(), record=True)  # before the screen is first drawn
        else:
            self.send(RequestSpec(url=self.start_url), pending=start)

    async def prefetch(self, hold: float) -> None:
        """Start loading the start page before this screen is shown; wait up to ``hold`` s.

        The app shows the screen after this: with the page when it came in time
        (the screen is then drawn once, whole), else with "sending" until it comes.
        """
        assert self.start_url is not None
        start = asyncio.ensure_future(self._load(self._prepared(RequestSpec(url=self.start_url))))
        self._start = start
        try:
            await asyncio.wait_for(asyncio.shield(start), hold)
        except TimeoutError:
            pass
        except asyncio.CancelledError:  # the app is closing
            start.cancel()
            raise

    # -- sending ----------------------------------------------------------------------------

    def open_url(self, url: str, via: str = "url") -> None:
        """GET ``url`` as a new page."""
        self.send(RequestSpec(url=url.strip()), via=via)

    def _prepared(self, spec: RequestSpec) -> RequestSpec:
        """``spec`` with the session's credential and API version, where they apply."""
        if (
            spec.auth is None
            and self.session_auth is not None
            and origin_of(spec.url) == self.session_origin
        ):
            spec = spec.with_auth(self.session_auth)
        version = self.version
        if (
            version is not None
            and version.version is not None
            and spec.api_version is None
            and origin_of(spec.url) == self.version_origin
        ):
            spec = replace(spec, api_version=version.version, version_style=version.style)
        return spec

    def send(
        self,
        spec: RequestSpec,
        *,
        via: str = "url",
        record: bool = True,
        pending: asyncio.Future[Page] | None = None,
    ) -> None:
        """Send ``spec`` (with the session's credential) in a worker and show the result.

        ``pending`` is that request already on its way (the prefetched start page).
        """
        spec = self._prepared(spec)
        self.query_one("#method", Label).update(spec.method)
        self.query_one("#url", Input).value = spec.url
        self.query_one(StatusLine).show_loading(spec)
        self.fetch(spec, via, record, pending)

    @work(exclusive=True, group="fetch")
    async def fetch(
        self,
        spec: RequestSpec,
        via: str,
        record: bool,
        pending: asyncio.Future[Page] | None = None,
    ) -> Page:
        """Send one request (or wait for ``pending``) and show the response.

        Newer fetches cancel this one, and with it the request.
        """
        page = await (pending if pending is not None else self._load(spec, via))
        self._arrived(page, record)
        return page

    async def _load(self, spec: RequestSpec, via: str = "url") -> Page:
        """The page of one request; nothing is shown.

        A small response is read for links and advice at once, to be shown whole. A
        larger one is shown as soon as it arrives; :meth:`read` then finds its
        links and advice in a thread (a 20 MB body can hold many links).
        """
        try:
            exchange = await self.client.send(spec)
        except RestwalkError as error:
            return Page(spec, error=error, via=via)
        except Exception as exc:
            return Page(spec, error=RestwalkError(f"Unexpected failure: {exc}"), via=via)
        page = Page(spec, exchange=exchange, via=via, reading=True)
        if len(exchange.response.body) <= READ_AT_ONCE:
            page = _with_reading(page, _read(exchange))
        return page

    def _remember_view(self) -> None:
        """Keep where the person is on the current page, for back and forward."""
        row = self.query_one(LinksPanel).table.cursor_row
        self.history.remember((row, round(self.query_one("#body-view", BodyView).scroll_y)))

    def _restore_view(self) -> None:
        """Put the links cursor and the body back where they were when the page was left."""
        view = self.history.view
        if view is not None:
            row, top = view
            self.query_one(LinksPanel).table.move_cursor(row)
            body = self.query_one("#body-view", BodyView)
            # force: the scrollbar of the page shown before may not be laid out yet.
            body.scroll_to(y=top, animate=False, immediate=True, force=True)

    def _arrived(self, page: Page, record: bool) -> None:
        """Put a new page in the history (or in the current one's place) and show it."""
        if isinstance(page.error, LoginFailed) and page.spec.auth == self.session_auth:
            # A login that failed is no credential: the badge goes, and r reloads without it.
            self.session_auth = None
            self.session_origin = ""
            self._show_badges()
            page = replace(page, spec=page.spec.with_auth(None))
        if record:
            self._remember_view()
            self.history.visit(page)
        else:
            self.history.replace(page)
        self.show_page(page)

    @work(exclusive=True, group="read")
    async def read(self, page: Page) -> Page:
        """Read ``page``'s links and advice off the UI thread, then show them if it is current.

        A page left before its reading ended keeps ``reading``; showing it again
        starts this again.
        """
        assert page.exchange is not None
        await after_paint(self)  # parsing a large body holds the GIL for a while
        read = _with_reading(page, await asyncio.to_thread(_read, page.exchange))
        self.history.swap(page, read)
        if self.history.current is read:
            self.show_reading(read)
        return read

    # -- showing ----------------------------------------------------------------------------

    def show_page(self, page: Page) -> None:
        """Put ``page``, the history's current page, in every view (attributes down)."""
        self.typed_number = ""
        self.query_one("#method", Label).update(page.spec.method)
        url = page.exchange.response.url if page.exchange else page.spec.url
        self.query_one("#url", Input).value = url
        body_view = self.query_one("#body-view", BodyView)
        if page.exchange is not None:
            response = page.exchange.response
            if response.body:
                body_view.show(response.body, response.media_type)
            else:
                body_view.show_text(f"(no body: {response.status} {response.reason})")
        else:
            assert page.error is not None
            body_view.show_text(f"{page.error.explanation}\n\n{page.error.hint}")
        for tab in LAZY_TABS:
            self._fill_tab(tab)
        self.show_reading(page)
        if page.reading:
            self.read(page)

    async def _build_tab(self, tab: str) -> None:
        """Build tab ``tab`` the first time it is shown, and fill it with the page shown."""
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
            self._fill_tab(tab)

    def _fill_tab(self, tab: str) -> None:
        """Show the current page (the one on screen) in tab ``tab``, if that tab is built."""
        page = self.history.current
        if page is None or not self.query_one(f"#{tab}", Vertical).children:
            return
        exchange = page.exchange
        if tab == "headers":
            headers = exchange.response.headers if exchange is not None else ()
            self.query_one(HeadersView).show_headers(headers)
        elif tab == "raw":
            raw_view = self.query_one("#raw-view", BodyView)
            if exchange is not None:
                raw_view.show_text(raw_text(exchange), "http")
            else:
                raw_view.show_text("Nothing was received.")
        else:
            self.query_one(TripView).show_exchange(exchange, page.error)

    async def _show_tab(self, tab: str) -> None:
        """Show tab ``tab`` (building it the first time)."""
        self.query_one(TabBar).active = tab
        self.query_one(ContentSwitcher).current = tab
        await self._build_tab(tab)

    async def on_tab_bar_activated(self, event: TabBar.Activated) -> None:
        await self._show_tab(event.tab)

    def show_reading(self, page: Page) -> None:
        """Show what was read from ``page``: status line with advice, links, breadcrumb."""
        hint = "Finding the links…" if page.reading else key_hint(page)
        self.query_one(StatusLine).show_page(page, hint)
        self.query_one(Breadcrumb).show_trail(
            self.history.trail(), len(self.history.pages) - 1 - self.history.index
        )
        self.query_one(LinksPanel).show_links(page.links, page.links_found)
        self._show_badges()
        if self.focused is None or self.focused is self.query_one("#url", Input):
            self.query_one(LinksPanel).table.focus()  # digits follow links, not type
        self.refresh_bindings()

    def _show_badges(self) -> None:
        """The credential and the API version in use, at the right of the URL bar."""
        parts = [auth_label(self.session_auth), self.version.label if self.version else ""]
        self.query_one("#auth-badge", Label).update("  ".join(part for part in parts if part))

    # -- messages up from the widgets ---------------------------------------------------------

    @on(Input.Submitted, "#url")
    def url_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.open_url(event.value)
            self.query_one(LinksPanel).table.focus()

    def on_links_panel_follow(self, event: LinksPanel.Follow) -> None:
        self.typed_number = ""
        self.follow_link(event.link)

    def on_headers_view_explain(self, event: HeadersView.Explain) -> None:
        from explorer.ui.dialogs.explain import ExplainDialog
        from explorer.ui.explain_text import header_markdown

        self.app.push_screen(ExplainDialog(header_markdown(event.name)))

    def follow_link(self, link: Link) -> None:
        """Follow ``link``: GET it, fill its template first, or compose its action."""
        kind = link_kind(link)
        if kind == "form":
            from explorer.ui.dialogs.template_form import TemplateForm

            self.app.push_screen(TemplateForm(link), self._template_filled)
        elif kind == "action":
            self._open_composer(action_spec(link), fields_note(link))
        else:
            self.send(RequestSpec(method=link.method, url=link.href), via=link.rel)

    def _template_filled(self, result: tuple[Link, str] | None) -> None:
        if result is not None:
            link, url = result
            if link.is_action and link.method not in ("GET", "HEAD"):
                self._open_composer(replace(action_spec(link), url=url), fields_note(link))
            else:
                self.send(RequestSpec(method=link.method, url=url), via=link.rel)

    def _open_composer(self, spec: RequestSpec, note: str = "") -> None:
        # The credential and API version in use go in, so the composer shows the
        # request exactly as it will be sent.
        spec = self._prepared(spec)
        from explorer.ui.dialogs.composer import ComposerScreen

        self.app.push_screen(ComposerScreen(spec, note), self._composed)

    def _composed(self, spec: RequestSpec | None) -> None:
        if spec is not None:
            self.send(spec, via="composer")

    def _logged_in(self, result: LoginResult | None) -> None:
        if result is None:
            return
        self.session_auth = result.auth
        self.session_origin = origin_of(result.origin)
        self._show_badges()
        self.notify(result.message, title="Credential set")
        if result.session_spec is not None:
            self.send(result.session_spec, via="login")
            return
        current = self.history.current
        if current is not None:
            self.send(current.spec.with_auth(None), via=current.via, record=False)

    # -- actions (keys) ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out keys that do nothing now (the footer shows what applies)."""
        if action == "back":
            return self.history.can_go_back
        if action == "forward":
            return self.history.can_go_forward
        if action in ("reload", "explain_status"):
            return self.history.current is not None
        if action == "digit":
            return bool(self.query_one(LinksPanel).links)
        return True

    def action_focus_url(self) -> None:
        url = self.query_one("#url", Input)
        url.focus()
        url.select_all()

    def action_focus_links(self) -> None:
        self.query_one(LinksPanel).table.focus()

    async def action_tab(self, tab: str) -> None:
        """Show tab ``tab`` and focus what it shows, so arrows and PgUp/PgDn scroll it."""
        await self._show_tab(tab)
        targets = {
            "body": "#body-view",
            "headers": "#headers-view RowTable",
            "raw": "#raw-view",
            "trip": "#trip-scroll",
        }
        self.query_one(targets[tab]).focus()

    def action_back(self) -> None:
        self._go(self.history.back)

    def action_forward(self) -> None:
        self._go(self.history.forward)

    def _go(self, step: Callable[[], Page | None]) -> None:
        """Back or forward: the page as it was, links cursor and body scroll included."""
        self._remember_view()
        page = step()
        if page is not None:
            self.workers.cancel_group(self, "fetch")
            self.show_page(page)
            self._restore_view()

    def action_reload(self) -> None:
        current = self.history.current
        if current is None:
            return
        method = current.spec.method
        if method not in SAFE_METHODS:
            # As a browser asks before sending a form again: the composer shows it.
            self._open_composer(
                replace(current.spec, auth=None),
                f"Send this {method} again? It is not a safe method: sending it twice may do "
                "it twice. ctrl+s sends it, Escape cancels.",
            )
            return
        self.send(current.spec, via=current.via, record=False)

    def on_key(self, event: events.Key) -> None:
        # A typed link number is one gesture: any other key ends it (Enter, which
        # follows the link it highlighted, too).
        if self.typed_number and not (event.character or "").isdigit():
            self.typed_number = ""

    def action_digit(self, digit: int) -> None:
        """Type a link's number: follow it once no longer number can start with it.

        With 12 links, ``7`` follows link 7 at once; ``1`` highlights link 1 and
        waits: ``2`` then follows link 12, Enter follows link 1.
        """
        panel = self.query_one(LinksPanel)
        count = len(panel.links)
        typed = self.typed_number + str(digit)
        if not 0 < int(typed) <= count:
            typed = str(digit)
            if not 0 < digit <= count:
                self.typed_number = ""
                self.notify(f"There is no link {digit}: links run from 1 to {count}.")
                return
        number = int(typed)
        if number * 10 > count:
            self.typed_number = ""
            self.action_follow(number)
        else:
            self.typed_number = typed
            panel.highlight(number)
            panel.table.focus()
            self.notify(
                f"Link {number}: Enter follows it; another digit makes {number}0-{number}9.",
                timeout=3,
            )

    def action_follow(self, number: int) -> None:
        """Follow link ``number`` of the links panel."""
        self.typed_number = ""
        link = self.query_one(LinksPanel).link_at(number)
        if link is not None:
            self.follow_link(link)

    def action_compose(self) -> None:
        current = self.history.current
        if current is None:
            url = self.query_one("#url", Input).value.strip()
            self._open_composer(RequestSpec(url=url))
        elif current.status == HTTPStatus.METHOD_NOT_ALLOWED and current.exchange is not None:
            allow = current.exchange.response.header("allow") or ""
            methods = [m.strip() for m in allow.split(",") if m.strip()]
            method = next((m for m in methods if m not in ("HEAD", "OPTIONS")), "GET")
            self._open_composer(replace(current.spec, method=method, auth=None))
        else:
            self._open_composer(replace(current.spec, auth=None))

    def action_login(self) -> None:
        from explorer.ui.dialogs.login import LoginDialog

        current = self.history.current
        url = current.spec.url if current else self.query_one("#url", Input).value
        self.app.push_screen(
            LoginDialog(origin_of(url) or url, mock_users=self.mock_users), self._logged_in
        )

    def action_version(self) -> None:
        from explorer.ui.dialogs.version import VersionChoice, VersionDialog

        current = self.version or VersionChoice(None, "none")
        self.app.push_screen(VersionDialog(current), self._version_chosen)

    def _version_chosen(self, choice: VersionChoice | None) -> None:
        if choice is None:
            return
        current = self.history.current
        url = current.spec.url if current else self.query_one("#url", Input).value
        self.version = choice
        self.version_origin = origin_of(url)
        self._show_badges()
        if current is not None:
            spec = replace(current.spec, api_version=None, version_style="none")
            self.send(spec, via=current.via, record=False)

    def action_explain_status(self) -> None:
        current = self.history.current
        if current is not None:
            from explorer.ui.dialogs.explain import ExplainDialog
            from explorer.ui.explain_text import page_markdown

            self.app.push_screen(ExplainDialog(page_markdown(current, key_hint(current))))
