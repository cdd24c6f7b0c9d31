"""Give the browser a credential: log in for a token, Basic, a Bearer token, a session,
or OAuth 2.0.

The dialog returns a :class:`LoginResult`; the browser screen keeps the
credential for the server it was given for and sends the current request again.
Nothing here touches the network: a token login runs inside the client on the
next request (:class:`~explorer.core.http.request.LoginFlow`), a cookie session
is one request the browser sends (its cookie lands in the client's jar), and an
OAuth 2.0 login is the OAuth dialog's (:mod:`explorer.ui.dialogs.oauth_login`),
which the screen opens next: ``ctrl+o`` chooses it at once, and the dialog says so
when the server's 401 names its OAuth metadata.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

from explorer.core.http.errors import RestwalkError
from explorer.core.http.field_syntax import is_token
from explorer.core.http.request import (
    Auth,
    BasicAuth,
    BearerAuth,
    LoginFlow,
    OAuthBearer,
    RequestSpec,
)
from explorer.core.session.api_key import DEFAULT_KEY_HEADER, key_problem
from explorer.core.session.credentials import LoginKind
from explorer.core.session.pasted_token import read_pasted_token
from explorer.core.text.terminal_text import visible_line
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.safe_input import SafeInput

KINDS: tuple[tuple[str, str], ...] = (
    ("Log in with user + password, use the token (Bearer)", "token"),
    ("Basic: user + password on every request", "basic"),
    ("Paste a token or key (Authorization: Bearer or Token ...)", "bearer"),
    ("API key in a header of the API's own (X-API-Key: ...)", "key"),
    ("Cookie session: log in once, the cookie is sent back", "session"),
    ("OAuth 2.0: the server's own login page in the browser, or a device code", "oauth"),
)

MOCK_USERS = (
    "The bundled mock server knows: alice / wonderland (editor: may write), "
    "bob / builder (viewer: reads only), admin / admin (everything)."
)


def _typed(kind: str) -> str:
    """What to type for ``kind``, and what happens next."""
    what = (
        "Paste the token or API key, Enter"
        if kind in ("bearer", "key")
        else "Type the user name, Tab, the password, Enter"
    )
    return (
        f"{what}. A page that only reads is sent again with the credential; a POST, "
        "PUT... opens the composer. Escape cancels."
    )


@dataclass(frozen=True)
class LoginResult:
    """What the dialog decided: a credential for ``origin``, or a session to open."""

    auth: Auth | None
    origin: str
    message: str
    #: For a cookie session: the login request to send (its cookie is then kept).
    session_spec: RequestSpec | None = None
    #: For an API key: the header and its value, kept for ``origin``.
    key: tuple[str, str] | None = None


class LoginDialog(ModalScreen[LoginResult | None]):
    """Ask for a user name and password (or a token) and how to use them."""

    DEFAULT_CSS = """
    LoginDialog { align: center middle; }
    LoginDialog > Vertical {
        width: 90%; max-width: 90; height: auto;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    LoginDialog Label { margin-top: 1; }
    LoginDialog #mock-users { color: $success; margin-top: 1; }
    LoginDialog #oauth-offered { color: $accent; margin-top: 1; }
    LoginDialog #token-url-from { color: $success; }
    LoginDialog .hidden { display: none; }
    LoginDialog Button { margin-top: 1; }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        # Priority: move focus before the keys typed after Tab are handed out.
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True),
        Binding("ctrl+s", "submit", "Log in"),
        Binding("ctrl+o", "oauth", "OAuth 2.0"),
    ]

    def __init__(
        self,
        origin: str,
        *,
        mock_users: bool = False,
        kind: LoginKind = "token",
        oauth: bool = False,
        scheme: str = "Bearer",
        login_url: str | None = None,
        kind_with_login: LoginKind | None = None,
        find_token_url: Callable[[Callable[[str], None]], Awaitable[str | None]] | None = None,
    ) -> None:
        super().__init__()
        self.origin = origin.rstrip("/")
        self.mock_users = mock_users
        #: The kind preselected: what the server's challenge offers.
        self.kind = kind
        #: The server said it logs in by OAuth 2.0 (its 401 named its metadata).
        self.oauth = oauth
        #: The scheme a token goes under (``Token``: the server's challenge named it).
        self.scheme = scheme
        #: Where a user name and password get a token: the mock's path (Django REST
        #: Framework's for a Token scheme) until the API's description names its own
        #: (:meth:`suggest_token_url`).
        self.token_url = login_url or self.origin + (
            "/api-token-auth/" if scheme.lower() == "token" else "/auth/token"
        )  # Django REST Framework's documented path for obtain_auth_token, for a Token
        #: The kind to preselect once a login URL is known (the API's description names
        #: its tokenUrl), while the person has not chosen yet; None: the same.
        self.kind_with_login = kind_with_login
        #: Where to look for the token URL the API's description names (None: nowhere);
        #: it is given what to call with its line on where it looked.
        self._find_token_url = find_token_url
        #: That line, once the search has said it ("" until then).
        self._looked = ""

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text.assemble(("Log in", "bold"), "  to ", self.origin))
            yield Static(_typed(self.kind), id="typed", classes="typed")
            if self.oauth:
                yield Static(
                    "This server logs in by OAuth 2.0 too: ctrl+o goes on through its own "
                    "login page.",
                    id="oauth-offered",
                )
            if self.mock_users:
                yield Static(MOCK_USERS, id="mock-users")
            yield Label("How")
            yield Select(KINDS, value=self.kind, allow_blank=False, id="kind")
            yield Label("User name", classes="userpass")
            yield SafeInput(id="user", classes="userpass")
            yield Label("Password", classes="userpass")
            yield SafeInput(id="password", password=True, classes="userpass")
            yield Label("Header", classes="key hidden")
            yield SafeInput(DEFAULT_KEY_HEADER, id="key-header", classes="key hidden")
            yield Label("Token", id="token-label", classes="bearer key hidden")
            yield SafeInput(id="token", password=True, classes="bearer key hidden")
            yield Label(
                "Scheme: sent as Authorization: <scheme> <token> (Token for Django REST Framework)",
                classes="scheme",
            )
            yield SafeInput(self.scheme, id="scheme", classes="scheme")
            yield Label("Login URL", classes="login-url")
            yield SafeInput(self.token_url, id="login-url", classes="login-url")
            yield Static("", id="token-url-from", classes="hidden")
            yield Static(
                "restwalk finds how the server logs in (its OAuth metadata), then logs in "
                "through its own page: in the browser, or with a code typed on another "
                "device. Your password never passes through restwalk.",
                classes="oauth hidden",
            )
            yield Button("Log in", id="submit", variant="primary")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show_kind(self.kind)
        if self.kind == "oauth":
            self.query_one("#submit", Button).focus()  # Enter goes on to the OAuth login
        else:
            pasted = self.kind in ("bearer", "key")
            self.query_one("#token" if pasted else "#user", Input).focus()
        if self._find_token_url is not None:
            self._suggest(self._find_token_url)

    @work(exclusive=True, group="token-url")
    async def _suggest(
        self, find: Callable[[Callable[[str], None]], Awaitable[str | None]]
    ) -> None:
        """Suggest where the API's description says a password gets a token, once found,
        and say where it was looked for: restwalk sent those requests for the person."""
        try:
            found = await find(self._told)
        except RestwalkError as error:
            # no description to be had: the field keeps its default
            self._say(f"Looking for the API's OpenAPI description failed: {error.message}")
            return
        if found is not None:
            self.suggest_token_url(found)
        elif self._looked:
            self._say(self._looked)

    def _told(self, line: str) -> None:
        self._looked = line

    def _say(self, line: str) -> None:
        said = self.query_one("#token-url-from", Static)
        said.update(Text(visible_line(line)))  # it names server URLs and errors
        said.remove_class("hidden")

    @on(Select.Changed, "#kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        self._show_kind(str(event.value))

    def _show_kind(self, kind: str) -> None:
        for widget in self.query(".userpass"):
            widget.set_class(kind in ("bearer", "key", "oauth"), "hidden")
        for widget in self.query(".oauth"):
            widget.set_class(kind != "oauth", "hidden")
        for widget in self.query(".typed"):
            widget.set_class(kind == "oauth", "hidden")
        self.query_one("#typed", Static).update(_typed(kind))
        for widget in self.query(".bearer, .key"):
            widget.set_class(kind not in widget.classes, "hidden")
        self.query_one("#token-label", Label).update("Key" if kind == "key" else "Token")
        for widget in self.query(".login-url"):
            widget.set_class(kind not in ("token", "session"), "hidden")
        # A login's token goes as Bearer unless the server named another scheme: the
        # field is shown for it then only (the dialog stays short at 80x24).
        with_scheme = ("bearer", "token") if self.scheme.lower() != "bearer" else ("bearer",)
        for widget in self.query(".scheme"):
            widget.set_class(kind not in with_scheme, "hidden")
        url = self.origin + "/auth/session" if kind == "session" else self.token_url
        self.query_one("#login-url", Input).value = url

    def suggest_token_url(self, url: str) -> None:
        """The API's description names ``url`` as where a password gets a token: it
        becomes the login URL, unless the person has typed one."""
        field = self.query_one("#login-url", Input)
        untouched = field.value == self.token_url
        self.token_url = url
        kind = self.query_one("#kind", Select)
        token = self.query_one("#token", Input)
        waited = self.kind_with_login == "token" and self.kind != "token"
        if waited and kind.value == self.kind and not token.value:
            # the token to paste was chosen for want of a login URL: now there is one
            kind.value = "token"
            self._show_kind("token")
            self.query_one("#user", Input).focus()
        elif untouched and str(kind.value) == "token":
            field.value = url
        if field.value == url and str(kind.value) == "token":
            self._say(self._looked or "Login URL: the tokenUrl of the API's OpenAPI description.")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "user":
            self.query_one("#password", Input).focus()
        else:
            self.action_submit()

    def _key_result(self, name: str, key: str) -> LoginResult | None:
        """An API key sent in header ``name``; None when the pair is no header."""
        if key_problem(name, key):
            return None
        return LoginResult(
            None,
            self.origin,
            f"Sent to {self.origin} only: {name}: ****. x forgets it.",
            key=(name, key),
        )

    def result(self) -> LoginResult | None:
        """The credential the fields describe, or None when something is missing."""
        kind = str(self.query_one("#kind", Select).value)
        user = self.query_one("#user", Input).value.strip()
        password = self.query_one("#password", Input).value
        login_url = self.query_one("#login-url", Input).value.strip()
        scheme = self.query_one("#scheme", Input).value.strip()
        if kind in ("token", "bearer") and not is_token(scheme):
            return None
        if kind == "oauth":
            return LoginResult(
                OAuthBearer(self.origin),
                self.origin,
                f"Logged in to {self.origin} by OAuth 2.0: its token goes with each request.",
            )
        if kind == "key":
            name = self.query_one("#key-header", Input).value.strip()
            return self._key_result(name, self.query_one("#token", Input).value.strip())
        if kind == "bearer":
            # pasted as the header line it was copied from, or with its scheme
            pasted = read_pasted_token(self.query_one("#token", Input).value, scheme)
            if not pasted.token:
                return None
            if pasted.header is not None:  # another header's line: an API key for it
                return self._key_result(pasted.header, pasted.token)
            return LoginResult(
                BearerAuth(pasted.token, pasted.scheme),
                self.origin,
                f"Sent to {self.origin} only: Authorization: {pasted.scheme} ****.",
            )
        if not user:
            return None
        if kind == "basic":
            return LoginResult(
                BasicAuth(user, password),
                self.origin,
                f"Basic credentials for {user} go with every request to {self.origin}.",
            )
        if kind == "session":
            body = json.dumps({"username": user, "password": password})
            spec = RequestSpec(
                method="POST", url=login_url, body=body, content_type="application/json"
            )
            return LoginResult(
                None,
                self.origin,
                f"Opening a cookie session as {user}: the server's cookie is sent back.",
                session_spec=spec,
            )
        return LoginResult(
            LoginFlow(login_url, user, password, scheme=scheme),
            self.origin,
            f"Logging in as {user} at {login_url}; the token goes with each request.",
        )

    @on(Button.Pressed, "#submit")
    def action_submit(self) -> None:
        result = self.result()
        if result is None:
            self.notify(self._missing(), severity="warning")
            return
        self.dismiss(result)

    def _missing(self) -> str:
        """What the fields lack, for a person who pressed Log in too soon."""
        kind = str(self.query_one("#kind", Select).value)
        scheme = self.query_one("#scheme", Input).value.strip()
        if kind == "key":
            name = self.query_one("#key-header", Input).value.strip()
            return key_problem(name, self.query_one("#token", Input).value.strip())
        if kind in ("token", "bearer") and not is_token(scheme):
            return "The scheme is one word, such as Bearer or Token."
        if kind == "bearer":
            pasted = read_pasted_token(self.query_one("#token", Input).value, scheme)
            if pasted.token and pasted.header is not None:
                return key_problem(pasted.header, pasted.token)
        return "Fill in the token first." if kind == "bearer" else "Fill in the user name first."

    def action_oauth(self) -> None:
        """Log in by OAuth 2.0 (the OAuth dialog opens next)."""
        self.query_one("#kind", Select).value = "oauth"
        self.action_submit()

    def action_cancel(self) -> None:
        self.dismiss(None)
