"""The browser screen: URL bar, breadcrumb, status line, response tabs, links panel.

It routes messages and runs the network in workers; what a browser tab knows
and decides is the :class:`~explorer.core.session.Session`'s, and the widgets
only show what they are given. A fetch is an exclusive worker, so a newer
request (or Escape) cancels an older one and a stale answer is never shown.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from http import HTTPStatus
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Input, Label

from explorer.core.errors import RestwalkError
from explorer.core.link import Link
from explorer.core.request import CookieSession, LoginFlow, RequestSpec
from explorer.core.session import History, Next, Page, Session
from explorer.core.session.actions import action_spec, fields_note
from explorer.core.session.hints import key_hint
from explorer.core.session.ordering import link_kind
from explorer.core.session.origins import origin_of
from explorer.core.session.reading import Reading, read_response
from explorer.ui.painted import after_paint
from explorer.ui.screens.browser_keys import BROWSER_KEYS
from explorer.ui.widgets.breadcrumb import Breadcrumb
from explorer.ui.widgets.headers_view import HeadersView
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from explorer.core.client import Client
    from explorer.core.session.version import VersionChoice
    from explorer.ui.dialogs.composer import Composed
    from explorer.ui.dialogs.login import LoginResult

# The dialogs are imported where they open: the first screen does not wait for them.

#: Bodies up to this size are read for links and advice as they arrive, so the page
#: is drawn once, whole. Larger ones are drawn first and read in a thread.
READ_AT_ONCE = 64 * 1024


def _read(exchange: object) -> Reading:
    """:func:`read_response`, with a failure turned into advice: the page stays shown."""
    try:
        return read_response(exchange)  # type: ignore[arg-type]
    except Exception as exc:
        return Reading((), 0, (f"restwalk could not read this response's links: {exc}",))


def _with_reading(page: Page, reading: Reading) -> Page:
    return replace(
        page, links=reading.links, links_found=reading.found, advice=reading.advice, reading=False
    )


class BrowserScreen(Screen[None]):
    """Browse an API: open URLs, follow links, compose requests, go back and forward."""

    CSS_PATH = "main.tcss"
    #: When the screen comes back (a dialog closed) with nothing focused: the links.
    AUTO_FOCUS = "#links RowTable"
    BINDINGS = BROWSER_KEYS

    def __init__(self, client: Client, start_url: str | None, *, mock_users: bool) -> None:
        super().__init__()
        self.client = client
        self.start_url = start_url
        self.mock_users = mock_users
        self.session = Session()
        #: The start page on its way before the screen is shown (see :meth:`prefetch`).
        self._start: asyncio.Future[Page] | None = None

    @property
    def history(self) -> History:
        """The session's history."""
        return self.session.history

    def compose(self) -> ComposeResult:
        with Horizontal(id="url-row"):
            yield Label("GET", id="method")
            yield Input(placeholder="http://127.0.0.1:8000/, /path or host:port", id="url")
            yield Label("", id="auth-badge")
        yield Breadcrumb(id="breadcrumb")
        yield StatusLine("Type a URL and press Enter.", id="status")
        with Horizontal(id="panes"):
            yield ResponseTabs(id="tabs")
            yield LinksPanel(id="links")
        yield KeyBar()

    def on_mount(self) -> None:
        url = self.query_one("#url", Input)
        if not self.start_url:
            url.focus()
            return
        url.value = self.start_url
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
        start = asyncio.ensure_future(self._load(RequestSpec(url=self.start_url)))
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
    ) -> None:
        """Send ``spec``, with what the session keeps for its server, in a worker."""
        spec = self.session.prepare(spec, typed=typed)
        self.query_one("#method", Label).update(spec.method)
        self.query_one("#url", Input).value = spec.url
        self.query_one(StatusLine).show_loading(spec)
        self.session.numbers.other_key()
        self.fetch(spec, via, record, pending)

    @property
    def sending(self) -> bool:
        """True while a request is on its way."""
        return any(w.group == "fetch" and w.is_running for w in self.workers)

    @work(exclusive=True, group="fetch")
    async def fetch(
        self, spec: RequestSpec, via: str, record: bool, pending: asyncio.Future[Page] | None
    ) -> Page:
        """Send one request (or wait for ``pending``) and show the response."""
        page = await (pending if pending is not None else self._load(spec, via))
        self._arrived(page, record)
        return page

    async def _load(self, spec: RequestSpec, via: str = "url") -> Page:
        """The page of one request, read at once when small; nothing is shown."""
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
        top = round(self.query_one(ResponseTabs).body_view.scroll_y)
        self.session.history.remember((row, top))

    def _restore_view(self) -> None:
        """Put the links cursor and the body back where they were when the page was left."""
        view = self.session.history.view
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
        read = _with_reading(page, await asyncio.to_thread(_read, page.exchange))
        self.session.history.swap(page, read)
        if self.session.shown is read:
            self.show_reading(read)
        return read

    # -- showing ----------------------------------------------------------------------------

    def show_page(self, page: Page) -> None:
        """Put ``page``, the page now shown, in every view (attributes down)."""
        self.session.numbers.other_key()
        self.query_one("#method", Label).update(page.spec.method)
        url = page.exchange.response.url if page.exchange else page.spec.url
        self.query_one("#url", Input).value = url
        self.query_one(ResponseTabs).show(page)
        self.show_reading(page)
        if page.reading:
            self.read(page)

    def show_reading(self, page: Page) -> None:
        """Show what was read from ``page``: status line with advice, links, breadcrumb."""
        hint = "Finding the links…" if page.reading else key_hint(page)
        self.query_one(StatusLine).show_page(page, hint)
        history = self.session.history
        self.query_one(Breadcrumb).show_trail(
            history.trail(), len(history.pages) - 1 - history.index
        )
        self.query_one(LinksPanel).show_links(page.links, page.links_found)
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

    @on(Input.Submitted, "#url")
    def url_submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.open_url(event.value)
            self.query_one(LinksPanel).table.focus()

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
        # What the session adds goes in, so the composer shows the request as it is sent.
        from explorer.ui.dialogs.composer import ComposerScreen

        spec = self.session.prepare(spec)
        kept = self.session.kept_headers(spec.url)
        self.app.push_screen(ComposerScreen(spec, note, kept=kept), self._composed)

    def _composed(self, result: Composed | None) -> None:
        if result is None:
            return
        if result.keep_headers:
            names = self.session.keep_headers(result.spec.url, result.spec.headers)
            if names:
                self.notify(f"Kept for this server: {', '.join(names)} (s lists them).")
        self.send(result.spec, via="composer")

    def _do(self, step: Next | None) -> None:
        if step is None:
            return
        if step.kind == "send":
            self.send(step.spec, via=step.via, record=False)
        else:
            self._open_composer(step.spec, step.note)

    # -- logging in ---------------------------------------------------------------------------

    def _logged_in(self, result: LoginResult | None) -> None:
        if result is not None:
            self.log_in(result)

    @work(exclusive=True, group="login")
    async def log_in(self, result: LoginResult) -> None:
        """Prove a login that needs a request of its own first, then go on as the session says."""
        auth = result.auth
        try:
            if isinstance(auth, LoginFlow):
                self.notify(f"Logging in at {auth.url}…", timeout=2)
                await self.client.login(auth)
            elif result.session_spec is not None:
                exchange = await self.client.send(result.session_spec)
                status = exchange.response.status
                if not HTTPStatus.OK <= status < HTTPStatus.MULTIPLE_CHOICES:
                    reason = exchange.response.reason
                    raise RestwalkError(f"The session login answered {status} {reason}.")
                auth = CookieSession(())
        except RestwalkError as error:
            self.notify(error.message, title="Login failed", severity="error")
            return
        if auth is not None and not isinstance(auth, LoginFlow | CookieSession):
            self.notify(result.message, title="Credential given", timeout=3)
        else:
            self.notify(result.message, title="Credential set")
        self._do(self.session.after_login(result.origin, auth))
        if isinstance(auth, LoginFlow | CookieSession):
            self.session.unproven = ""  # proven by the login itself
        self._show_badges()

    # -- actions (keys) ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Grey out keys that do nothing now (the key bar shows what applies)."""
        history = self.session.history
        if action == "back":
            return history.can_go_back or self.session.failed is not None
        if action == "forward":
            return history.can_go_forward
        if action in ("reload", "explain_status"):
            return self.session.shown is not None
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
        """Escape: cancel the request on its way; the page shown stays."""
        if not self.sending:
            return
        self.workers.cancel_group(self, "fetch")
        shown = self.session.shown
        if shown is not None:
            self.show_reading(shown)
        self.notify("Cancelled: nothing more is read (the server may have received it).")

    def action_reload(self) -> None:
        self._do(self.session.reload())

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
            self.notify(
                f"Link {step.number}: Enter follows it; another digit makes "
                f"{step.number}0-{step.number}9.",
                timeout=3,
            )

    def action_compose(self) -> None:
        current = self.session.shown
        if current is None:
            url = self.session.resolve(self.query_one("#url", Input).value or "/")
            self._open_composer(RequestSpec(url=url))
            return
        spec = self.session.unprepared(current.spec)
        if current.status == HTTPStatus.METHOD_NOT_ALLOWED and current.exchange is not None:
            allow = current.exchange.response.header("allow") or ""
            methods = [m.strip() for m in allow.split(",") if m.strip()]
            spec = replace(
                spec, method=next((m for m in methods if m not in ("HEAD", "OPTIONS")), "GET")
            )
        self._open_composer(spec)

    def action_login(self) -> None:
        from explorer.core.session.credentials import login_kind_for
        from explorer.ui.dialogs.login import LoginDialog

        current = self.session.shown
        url = current.spec.url if current else self.query_one("#url", Input).value
        challenges = (
            current.exchange.response.header_values("www-authenticate")
            if (current and current.exchange)
            else []
        )
        dialog = LoginDialog(
            origin_of(url) or url, mock_users=self.mock_users, kind=login_kind_for(challenges)
        )
        self.app.push_screen(dialog, self._logged_in)

    def action_logout(self) -> None:
        current = self.session.shown
        if current is None:
            return
        url = current.spec.url
        forgotten = self.session.log_out(url)
        cleared = self.client.forget_cookies(url)
        self.notify(
            f"Forgot {forgotten} and {cleared} cookie(s) of {origin_of(url)}.", title="Logged out"
        )
        self._show_badges()

    def action_session(self) -> None:
        from explorer.ui.dialogs.session_info import SessionDialog

        self.app.push_screen(
            SessionDialog(self.session, self.client.cookie_list()), self._after_session
        )

    def _after_session(self, dropped: tuple[str, str] | None) -> None:
        if dropped is not None:
            origin, name = dropped
            self.session.drop_header(origin, name)
            self.notify(f"{name} is no longer sent to {origin}.")
            self._show_badges()

    def action_version(self) -> None:
        from explorer.core.session.version import VersionChoice
        from explorer.ui.dialogs.version import VersionDialog

        current = self.session.shown
        url = current.spec.url if current else self.query_one("#url", Input).value
        choice = self.session.version(url) or VersionChoice(None, "none")
        self.app.push_screen(VersionDialog(choice), self._version_chosen)

    def _version_chosen(self, choice: VersionChoice | None) -> None:
        current = self.session.shown
        if choice is None:
            return
        url = current.spec.url if current else self.query_one("#url", Input).value
        self.session.set_version(url, choice)
        self._show_badges()
        if current is not None and current.spec.method in ("GET", "HEAD"):
            spec = replace(current.spec, api_version=None, version_style="none", version_name="")
            self.send(spec, via=current.via, record=False)

    def action_explain_status(self) -> None:
        current = self.session.shown
        if current is not None:
            from explorer.ui.dialogs.explain import ExplainDialog
            from explorer.ui.explain_text import page_markdown

            self.app.push_screen(ExplainDialog(page_markdown(current, key_hint(current))))
