"""The browser's login (``a``): the dialog, an OAuth 2.0 login in its own, the login made.

:class:`LoggingIn` is given the tab's screen it acts on and whether the server is the
bundled mock (the login dialog then names its seeded users and knows its login URL);
the browser screen owns one and hands ``a`` to it (composition, not a mixin). A
login that needs a request of its own runs in a worker of the screen's (group
``login``, which Escape cancels), started as ``@work`` starts one. What each decides
is the tab's (:class:`~explorer.core.session.tab.Tab`): what the dialog offers, the
login proven, what to do next; what the dialog asks is the dialog's.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from explorer.core.http.errors import RestwalkError

if TYPE_CHECKING:
    from collections.abc import Callable

    from textual.worker import Worker

    from explorer.core.session import Page
    from explorer.ui.dialogs.login import LoginResult
    from explorer.ui.screens.tab_screen import TabScreen

# The dialogs are imported where they open: the first screen does not wait.


class LoggingIn:
    """The login of one tab's screen (composition, not a mixin)."""

    def __init__(self, screen: TabScreen, *, mock_users: bool) -> None:
        self.screen = screen
        #: The server is the bundled mock: the login dialog names its seeded users.
        self.mock_users = mock_users

    def open(self) -> None:
        """``a``: the login dialog, on what the tab offers for the page's server."""
        from explorer.core.http.secret_rules import origin_of
        from explorer.ui.dialogs.login import LoginDialog

        screen = self.screen
        url = screen.page_url()
        # (the bundled mock's login URL is known: its /auth/token, the dialog's default)
        offer = screen.tab.login_offer(url, login_known=self.mock_users)
        dialog = LoginDialog(
            origin_of(url) or url,
            mock_users=self.mock_users,
            kind=offer.kind,
            kind_with_login=offer.kind_with_login,
            login_url=offer.login_url,
            oauth=offer.oauth,
            scheme=offer.scheme,
            # (the bundled mock's is /auth/token)
            find_token_url=None
            if self.mock_users
            else partial(self._find_token_url, url, screen.session.shown),
        )
        screen.app.push_screen(dialog, self._logged_in)

    async def _find_token_url(
        self, url: str, shown: Page | None, told: Callable[[str], None]
    ) -> str | None:
        """The login dialog's search for its login URL (the tab's, polite), ``told`` where
        it looked."""
        return await self.screen.tab.token_url(url, shown, told=told)

    def _logged_in(self, result: LoginResult | None) -> None:
        from explorer.core.http.request import OAuthBearer

        if result is None:
            return
        if isinstance(result.auth, OAuthBearer):
            self._oauth_login(result)
        else:
            self.log_in(result)

    def _oauth_login(self, result: LoginResult) -> None:
        """Log in by OAuth 2.0 in its dialog, then use the login as the credential."""
        from explorer.core.http.request import OAuthBearer
        from explorer.core.paths import data_dir
        from explorer.ui.dialogs.oauth_login import OAuthDialog

        screen = self.screen
        login = screen.tab.oauth_login(result.origin, screen.app.config.oauth, data_dir())  # type: ignore[attr-defined]

        def done(logged_in: bool | None) -> None:
            if logged_in:
                login.attach()
                self.log_in(replace(result, auth=OAuthBearer(login.name)))

        screen.app.push_screen(OAuthDialog(login), done)

    def log_in(self, result: LoginResult) -> Worker[None]:
        """Log in through the tab, in the screen's ``login`` worker (a newer login
        cancels it, as Escape does)."""
        return self.screen.run_worker(partial(self._log_in, result), exclusive=True, group="login")

    async def _log_in(self, result: LoginResult) -> None:
        """Log in through the tab (which proves a login that needs a request of its own),
        then go on as it says."""
        from explorer.core.http.request import CookieSession, LoginFlow

        screen = self.screen
        if result.key is not None:
            screen.notify(result.message, title="Key given", timeout=3)
            screen.do(screen.tab.give_key(result.origin, *result.key))
            screen.show_badges()
            return
        if isinstance(result.auth, LoginFlow):
            screen.notify(f"Logging in at {result.auth.url}…", timeout=2)
        try:
            logged = await screen.tab.log_in(result.origin, result.auth, result.session_spec)
        except RestwalkError as error:
            screen.notify(error.message, title="Login failed", severity="error")
            return
        given = logged.auth is not None and not isinstance(logged.auth, LoginFlow | CookieSession)
        screen.notify(
            result.message,
            title="Credential given" if given else "Credential set",
            timeout=3 if given else None,
        )
        screen.do(logged.next)
        screen.show_badges()
