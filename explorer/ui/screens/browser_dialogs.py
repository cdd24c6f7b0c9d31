"""The browser screen's dialogs: what opens them, and what is done with their answers.

:class:`BrowserDialogs` is the half of the browser screen that routes to and
from its modal dialogs (composer, login, version, session, template form,
explanations); :class:`~explorer.ui.screens.main.BrowserScreen` adds sending
and showing. The session decides; these methods only open and route.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen
from textual.widgets import Input

from explorer.core.http.errors import RestwalkError
from explorer.core.http.request import CookieSession, LoginFlow, RequestSpec
from explorer.core.http.secret_rules import origin_of
from explorer.core.hypermedia.link import Link
from explorer.core.session import Next, Session
from explorer.core.session.hints import key_hint
from explorer.core.text.plural import counted

if TYPE_CHECKING:
    from collections.abc import Callable

    from explorer.core.http.client import Client
    from explorer.core.session.tab import Tab
    from explorer.core.session.version import VersionChoice
    from explorer.ui.dialogs.composer import Composed
    from explorer.ui.dialogs.login import LoginResult

# The dialogs are imported where they open: the first screen does not wait for them.


class BrowserDialogs(Screen[None]):
    """Opens the browser's dialogs and routes their results to the session and to sending."""

    session: Session
    tab: Tab
    client: Client
    mock_users: bool

    if TYPE_CHECKING:  # the browser screen's, which sends and shows

        def send(
            self, spec: RequestSpec, *, via: str = "url", record: bool = True, withheld: str = ""
        ) -> None: ...

        def _show_badges(self) -> None: ...

    def _page_url(self) -> str:
        """The URL of the page shown, or what the URL bar holds before any page."""
        shown = self.session.shown
        return shown.spec.url if shown else self.query_one("#url", Input).value

    def follow_link(self, link: Link) -> None:
        """Follow ``link`` as the tab says: send it, fill its template first, or compose its
        action (the status line says what a send went without)."""
        self._do(self.tab.follow(link), record=True)

    def _template_filled(self, result: tuple[Link, str] | None) -> None:
        if result is not None:
            link, url = result
            self._do(self.tab.filled(link, url), record=True)

    def _open_composer(
        self,
        spec: RequestSpec,
        note: str = "",
        *,
        saver: Callable[[RequestSpec], None] | None = None,
        on_send: Callable[[RequestSpec], None] | None = None,
    ) -> None:
        """Open the composer on ``spec``; ``saver`` is its F2 (default: save as a new
        request), ``on_send`` is told what it sends."""
        # What the session adds goes in, so the composer shows the request as it is sent.
        from explorer.ui.dialogs.composer import ComposerScreen

        spec = self.session.prepare(spec)
        kept = self.session.kept_headers(spec.url)
        saver = saver or getattr(self, "save_request", None)
        dialog = ComposerScreen(spec, note, kept=kept, base=self._page_url(), saver=saver)
        self.app.push_screen(dialog, partial(self._composed, on_send=on_send))

    def _composed(
        self, result: Composed | None, on_send: Callable[[RequestSpec], None] | None = None
    ) -> None:
        if result is None:
            return
        if result.reopen is not None:  # a curl line pasted in the composer's URL field
            self._open_composer(result.spec, result.reopen)
            return
        if on_send is not None:
            on_send(result.spec)
        url = result.spec.url
        had = self.session.kept_headers(url)
        names = self.session.set_kept_headers(
            url, result.spec.headers if result.keep_headers else ()
        )
        if names:
            self.notify(f"Kept for this server: {', '.join(names)} (s lists them).")
        elif had:
            self.notify("No header is kept for this server any more.")
        self.send(result.spec, via="composer")

    def _do(self, step: Next | None, *, record: bool = False) -> None:
        """Do what the tab decided: send (a new page when ``record``, else in the shown one's
        place), ask a template's variables, or open the composer."""
        if step is None:
            return
        if step.kind == "send":
            self.send(step.spec, via=step.via, record=record, withheld=step.withheld)
        elif step.kind == "form" and step.link is not None:
            from explorer.ui.dialogs.template_form import TemplateForm

            self.app.push_screen(TemplateForm(step.link), self._template_filled)
        else:
            self._open_composer(step.spec, step.note)

    def _logged_in(self, result: LoginResult | None) -> None:
        if result is not None:
            self.log_in(result)

    @work(exclusive=True, group="login")
    async def log_in(self, result: LoginResult) -> None:
        """Log in through the tab (which proves a login that needs a request of its own),
        then go on as it says."""
        if isinstance(result.auth, LoginFlow):
            self.notify(f"Logging in at {result.auth.url}…", timeout=2)
        try:
            logged = await self.tab.log_in(result.origin, result.auth, result.session_spec)
        except RestwalkError as error:
            self.notify(error.message, title="Login failed", severity="error")
            return
        auth = logged.auth
        if auth is not None and not isinstance(auth, LoginFlow | CookieSession):
            self.notify(result.message, title="Credential given", timeout=3)
        else:
            self.notify(result.message, title="Credential set")
        self._do(logged.next)
        self._show_badges()

    def action_compose(self) -> None:
        self._open_composer(self.session.to_compose(self.query_one("#url", Input).value))

    def action_login(self) -> None:
        from explorer.ui.dialogs.login import LoginDialog

        url = self._page_url()
        dialog = LoginDialog(
            origin_of(url) or url, mock_users=self.mock_users, kind=self.session.login_kind()
        )
        self.app.push_screen(dialog, self._logged_in)

    def action_logout(self) -> None:
        out = self.tab.log_out(self._page_url())
        if not out.had and not out.cookies:
            self.notify(f"Nothing to log out of: no credential or cookie for {out.origin}.")
        else:
            self.notify(
                f"Forgot {out.forgotten} and {counted(out.cookies, 'cookie')} of {out.origin}.",
                title="Logged out",
            )
        self._show_badges()

    def action_session(self) -> None:
        from explorer.ui.dialogs.session_info import SessionDialog

        dialog = SessionDialog(self.session, self.client.cookie_list())
        self.app.push_screen(dialog, self._after_session)

    def _after_session(self, dropped: tuple[str, str] | None) -> None:
        if dropped is not None:
            origin, name = dropped
            self.session.drop_header(origin, name)
            self.notify(f"{name} is no longer sent to {origin}.")
            self._show_badges()

    def action_version(self) -> None:
        from explorer.core.session.version import VersionChoice
        from explorer.ui.dialogs.version import VersionDialog

        choice = self.session.version(self._page_url()) or VersionChoice(None, "none")
        self.app.push_screen(VersionDialog(choice), self._version_chosen)

    def _version_chosen(self, choice: VersionChoice | None) -> None:
        if choice is not None:
            step = self.session.after_version(self._page_url(), choice)
            self._show_badges()
            self._do(step)

    def action_explain_status(self) -> None:
        current = self.session.shown
        if current is not None:
            from explorer.ui.dialogs.explain import ExplainDialog
            from explorer.ui.explain_text import page_markdown

            markdown = page_markdown(current, key_hint(current))
            self.app.push_screen(ExplainDialog(markdown, current.exchange))
