"""Log in by OAuth 2.0: the grant chosen, then the browser's part or the device code shown.

The dialog first asks the server how it logs in (discovery, and registration when
no client id is given), then lists the grants it offers, the browser's first where
one opens here, the device code's first over SSH. Enter on one runs the login
(:meth:`explorer.core.oauth.login.Login.log_in`) in a worker, the dialog being its
presenter: for the authorization code it says the browser was
opened on the server's page (or gives the URL to open, over SSH), and takes the URL
the browser ends on, or its code, pasted; for the device code it shows the code and
where to type it, a QR code where the terminal has room, and a countdown to the
code's expiry while restwalk polls at the server's interval. Escape cancels the
login. It returns True once logged in.

Everything the server sent (its URLs, the user code) is shown as plain text through
the control-character filter.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from explorer.core.http.errors import RestwalkError
from explorer.core.oauth.browser import open_browser, why_no_browser
from explorer.core.oauth.claims import countdown
from explorer.core.oauth.flows import AuthorizationStep, DeviceCode
from explorer.core.oauth.login import Login
from explorer.core.oauth.qr import qr_lines
from explorer.core.oauth.settings import Grant
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.safe_input import SafeInput

__all__ = ["GRANT_LABELS", "OAuthDialog"]

#: The grants offered, as the person reads them.
GRANT_LABELS: dict[Grant, str] = {
    "authorization_code": "In the browser (authorization code with PKCE)",
    "device_code": "With a code typed on another device (device code)",
    "client_credentials": "As the application itself (client credentials)",
}
#: Lines of the screen the rest of the dialog needs besides the QR code.
_AROUND_QR = 14


class OAuthDialog(ModalScreen[bool]):
    """Choose the grant, then follow the login (see the module docstring)."""

    DEFAULT_CSS = """
    OAuthDialog { align: center middle; }
    OAuthDialog > Vertical {
        width: 90%; max-width: 100; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    OAuthDialog #oauth-grant { margin-top: 1; }
    OAuthDialog #oauth-progress { margin-top: 1; }
    OAuthDialog #oauth-user-code { text-style: bold; color: $success; margin: 1 0 0 4; }
    OAuthDialog #oauth-qr { color: #ffffff; background: #000000; width: auto; margin-top: 1; }
    OAuthDialog #oauth-countdown { color: $text-muted; }
    OAuthDialog .hidden { display: none; }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        login: Login,
        *,
        opener: Callable[[str], bool] | None = None,
        environ: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        self.login = login
        #: The grants offered, once the server said which it has.
        self.grants: list[Grant] = []
        self.why_not = why_no_browser(os.environ if environ is None else environ) or ""
        self.opener = (opener or open_browser) if not self.why_not else None
        self._pasted: asyncio.Queue[str] = asyncio.Queue()
        self._code: DeviceCode | None = None
        self._ticker: Timer | None = None
        self.running = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text.assemble(("Log in by OAuth 2.0", "bold"), f"  ({self.login.name})"))
            yield OptionList(id="oauth-grant")
            yield Static(f"Asking {self.login.name} how it logs in…", id="oauth-progress")
            yield Static("", id="oauth-user-code", classes="hidden")
            yield Static("", id="oauth-qr", classes="hidden")
            yield Static("", id="oauth-countdown")
            yield SafeInput(
                placeholder="Paste the URL the browser ends on (or its code), Enter",
                id="oauth-paste",
                classes="hidden",
            )
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#oauth-grant", OptionList).focus()
        self.prepare()

    @work(exclusive=True, group="oauth-login")
    async def prepare(self) -> None:
        """Ask the server how it logs in, and offer the grants it has."""
        try:
            grants = await self.login.grants()
        except RestwalkError as error:
            self._say(
                Text.assemble(
                    ("Cannot log in: ", "bold red"), error.message, "\n", error.hint_in_browser
                )
            )
            return
        server, settings = grants.server, self.login.settings
        offered: list[Grant] = []
        if server.authorization_endpoint:
            offered.append("authorization_code")
        if server.device_authorization_endpoint:
            offered.insert(len(offered) if self.opener else 0, "device_code")
        if settings.client_secret:
            offered.insert(0, "client_credentials")
        if settings.grant is not None and settings.grant in offered:
            offered.remove(settings.grant)
            offered.insert(0, settings.grant)
        if not offered:
            self._say(
                "The server offers no way restwalk logs in (no authorization or device endpoint)."
            )
            return
        self.grants = offered
        choices = self.query_one("#oauth-grant", OptionList)
        choices.add_options([Option(GRANT_LABELS[grant], id=grant) for grant in offered])
        choices.highlighted = 0
        self._say("Enter logs in the way chosen; Escape cancels.")

    def _say(self, text: Text | str) -> None:
        self.query_one("#oauth-progress", Static).update(text)

    # --- starting and stopping ------------------------------------------------------------------

    @on(OptionList.OptionSelected, "#oauth-grant")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.running or not self.grants:
            return
        self.running = True
        choices = self.query_one("#oauth-grant", OptionList)
        choices.disabled = True
        self._say(f"Logging in to {self.login.name}…")
        self.run_login(self.grants[event.option_index])

    @work(exclusive=True, group="oauth-login")
    async def run_login(self, grant: Grant) -> None:
        """The login, talking to the person through this dialog."""
        try:
            await self.login.log_in(
                self, grant=grant, open_browser=self.opener, why_not=self.why_not
            )
        except RestwalkError as error:
            self._stopped()
            self._say(
                Text.assemble(
                    ("Not logged in: ", "bold red"), error.message, "\n", error.hint_in_browser
                )
            )
            choices = self.query_one("#oauth-grant", OptionList)
            choices.disabled = False
            choices.focus()
            self.running = False
            return
        self._stopped()
        self.dismiss(True)

    def _stopped(self) -> None:
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None

    def action_cancel(self) -> None:
        self.workers.cancel_group(self, "oauth-login")
        self._stopped()
        self.dismiss(False)

    # --- the presenter ----------------------------------------------------------------------

    def show_authorization(self, step: AuthorizationStep) -> None:
        url = visible_line(step.url)
        if step.opened:
            said = Text.assemble(
                "The browser is open on the server's page: log in there and approve. "
                "restwalk waits for it to come back",
                f" to {step.redirect_uri}." if step.listening else ".",
                "\n\n",
                (url, "underline"),
            )
        else:
            said = Text.assemble(
                f"Open this URL in a browser to log in ({step.why_not}):\n\n",
                (url, "underline"),
                "\n\nthen paste here the URL the browser ends on, or its code.",
            )
        self._say(said)
        paste = self.query_one("#oauth-paste", SafeInput)
        paste.remove_class("hidden")
        paste.focus()

    def show_device_code(self, code: DeviceCode) -> None:
        self._code = code
        where = visible_line(code.verification_uri)
        self._say(Text.assemble("Open ", (where, "underline"), " and type this code:"))
        user_code = self.query_one("#oauth-user-code", Static)
        shown = Text(visible_line(code.user_code))
        if code.verification_uri_complete:
            complete = visible_line(code.verification_uri_complete)
            shown.append(f"\n\nor open {complete} (the code filled in), or scan:", "not bold")
        user_code.update(shown)
        user_code.remove_class("hidden")
        size = self.app.size
        lines = qr_lines(
            code.qr_target, max_width=size.width - 8, max_height=size.height - _AROUND_QR
        )
        if lines is not None:
            qr = self.query_one("#oauth-qr", Static)
            qr.update(Text("\n".join(lines)))
            qr.remove_class("hidden")
        self._tick()
        self._ticker = self.set_interval(1, self._tick)

    def _tick(self) -> None:
        code = self._code
        if code is None:
            return
        left = max(0.0, code.expires_at - time.time())
        every = f"{code.interval:g} s"
        self.query_one("#oauth-countdown", Static).update(
            f"The code expires in {countdown(left)}; restwalk asks the server every {every}."
        )

    async def read_pasted(self, problem: str = "") -> str:
        if problem:
            self.notify(problem, severity="warning")
        return await self._pasted.get()

    @on(Input.Submitted, "#oauth-paste")
    def _pasted_line(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self._pasted.put_nowait(event.value.strip())
            event.input.value = ""
