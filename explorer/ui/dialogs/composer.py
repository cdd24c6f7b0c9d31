"""The request composer: method, URL, query, headers, body, API version, credential.

It returns a :class:`Composed` request (or None when cancelled); the browser
screen sends it, and keeps its headers for the server when the person asked to.
The preview on the right is the request exactly as
:func:`~explorer.core.http.request.build_request` will make it, redrawn on every edit.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Button, Checkbox, Input, Label, Select, Static, TextArea

from explorer.core.bodies.json_body import json_problem, meant_as_json
from explorer.core.carry.composed_body import body_fields, body_from_fields
from explorer.core.http.api_version import VERSION_STYLES, VersionStyle, parse_version
from explorer.core.http.errors import RestwalkError
from explorer.core.http.exchange import SentRequest
from explorer.core.http.field_syntax import is_token
from explorer.core.http.request import (
    STANDARD_METHODS,
    Auth,
    BasicAuth,
    BearerAuth,
    CookieSession,
    LoginFlow,
    RequestSpec,
    build_request,
)
from explorer.core.http.upload import MAX_UPLOAD, peek_file
from explorer.core.http.wire import request_text
from explorer.core.knowledge.headers import header_info, header_names
from explorer.core.knowledge.methods import method_info
from explorer.core.session.editing import Editable
from explorer.core.session.reopen import masks_left, masks_refused
from explorer.core.session.typed_url import resolve_typed_url
from explorer.core.text.sizes import size_text
from explorer.core.text.terminal_text import visible
from explorer.ui.widgets.body_editor import BodyEditor
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.pairs_editor import PairsEditor
from explorer.ui.widgets.safe_input import SafeInput
from explorer.ui.widgets.url_input import UrlInput

AUTH_KINDS: tuple[tuple[str, str], ...] = (
    ("No credential (or the session's)", "none"),
    ("Token: Bearer, or the scheme below", "bearer"),
    ("Basic: user + password", "basic"),
    ("Log in: user + password → token", "login"),
    ("Cookies", "cookies"),
)

_STYLE_LABELS = {
    "none": "no version marker",
    "uri": "URI segment /v2/...",
    "query": "query ?version=2",
    "header": "header Custom-Header: api-version=2",
    "media-type": "media type: Accept ...; version=2",
}


@dataclass(frozen=True)
class Composed:
    """The request to send, and whether its headers are kept for its server.

    ``reopen`` is the note of a composer to open again on ``spec`` instead of
    sending it (a curl command line was pasted in the URL field).
    """

    spec: RequestSpec
    keep_headers: bool = False
    reopen: str | None = None


def preview(spec: RequestSpec) -> Text:
    """The request text ``spec`` becomes, or why it cannot be built."""
    shown = spec
    note = ""
    if isinstance(spec.auth, LoginFlow):
        scheme = spec.auth.scheme
        note = f"(logs in at {spec.auth.url} first if need be; the token goes as {scheme})\n\n"
        shown = spec.with_auth(BearerAuth("token-from-login", scheme))
    try:
        request = build_request(shown, read=peek_file)  # a file's name and size, not its bytes
    except RestwalkError as error:
        return Text.assemble(("Cannot send yet: ", "bold red"), visible(error.explanation))
    except (ValueError, TypeError) as error:  # httpx's own checks, past ours
        return Text.assemble(("Cannot send yet: ", "bold red"), visible(str(error)))
    sent = SentRequest(
        method=request.method,
        url=str(request.url),
        headers=tuple((k.decode("latin-1"), v.decode("latin-1")) for k, v in request.headers.raw),
        body=request.content,
    )
    return Text.assemble((visible(note), "italic"), visible(request_text(sent)))


def _empty_credential(auth: Auth | None) -> str:
    """What is missing when a credential is chosen but left empty ("" when none is)."""
    if isinstance(auth, BasicAuth) and not auth.user and not auth.password:
        return "Basic is chosen but the user and password are empty: fill them in, or choose none."
    if isinstance(auth, LoginFlow) and not auth.user and not auth.password:
        return "Log in is chosen but the user and password are empty: fill them in, or choose none."
    if isinstance(auth, BearerAuth) and not auth.token:
        return "Bearer is chosen but the token is empty: paste it, or choose none."
    return ""


def _auth_kind(auth: Auth | None) -> str:
    if isinstance(auth, BearerAuth):
        return "bearer"
    if isinstance(auth, BasicAuth):
        return "basic"
    if isinstance(auth, LoginFlow):
        return "login"
    if isinstance(auth, CookieSession):
        return "cookies"
    return "none"


class ComposerScreen(ModalScreen[Composed | None]):
    """Compose any request; ctrl+s sends it, Escape cancels."""

    CSS_PATH = "composer.tcss"

    BINDINGS = [
        Binding("ctrl+s", "send", "Send"),
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+n", "add_header", "New header"),
        Binding("ctrl+o", "add_query", "New query parameter"),
        Binding("f2", "save_request", "Save to .http", tooltip="Save it to a .http file"),
        # priority: Tab moves on as the app reads it, so what is typed after it goes to
        # the next field (bubbled up from the field, it came after those keys were in)
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True),
    ]

    def __init__(
        self,
        spec: RequestSpec,
        note: str = "",
        *,
        kept: tuple[tuple[str, str], ...] = (),
        base: str | None = None,
        saver: Callable[[RequestSpec], None] | None = None,
        editable: Editable | None = None,
    ) -> None:
        super().__init__()
        #: The resource shown, as a PUT or PATCH of its URL starts from (its JSON).
        self.editable = editable
        #: The body was filled from :attr:`editable` (the method note says so).
        self._from_page = False
        #: Saves a request to a .http file (asking where): F2 and the button.
        self.saver = saver
        #: The page the composer was opened on: a /path in the URL field resolves there.
        self.base = base
        self.spec = spec
        self.note = note
        #: The headers the session keeps for this server (already among the spec's).
        self.kept = kept
        #: The body whose JSON problem the person was told of: ctrl+s again sends it.
        self._warned_body: str | None = None

    def compose(self) -> ComposeResult:
        spec = self.spec
        auth = spec.auth
        body, form_rows = body_fields(spec)
        headers = list(spec.headers)
        if spec.content_type and not any(k.lower() == "content-type" for k, _ in headers):
            headers.append(("Content-Type", spec.content_type))
        with Horizontal(id="composer"):
            with VerticalScroll(id="form"):
                yield Static(
                    "[b]Compose a request[/b]  ctrl+s sends · F2 saves · Escape cancels",
                    markup=True,
                )
                with Horizontal(id="line"):
                    yield SafeInput(
                        spec.method,
                        id="method",
                        suggester=SuggestFromList(STANDARD_METHODS, case_sensitive=False),
                        tooltip="Any standard method, or your own token",
                    )
                    url = UrlInput(spec.url, id="url", placeholder="http://... or a curl command")
                    url.base = self.base
                    yield url
                yield Static("", id="method-note", classes="note")
                yield Label("Query parameters")
                yield PairsEditor(spec.query, kind="parameter", id="query")
                yield Label("Headers")
                yield PairsEditor(headers, kind="header", suggestions=header_names(), id="headers")
                yield Static("", id="header-note", classes="note")
                kept = ", ".join(name for name, _ in self.kept)
                yield Checkbox(
                    f"Keep these headers for this server (kept now: {kept or 'none'})",
                    bool(self.kept),
                    id="keep-headers",
                    tooltip="Send them with every request to this server; s lists them",
                )
                yield Label("Body")
                if self.note:
                    yield Static(visible(self.note), id="fields-note", classes="note", markup=False)
                yield BodyEditor(body, syntax="json", id="body", show_line_numbers=True)
                yield Static("", id="json-note", classes="note")
                yield Label("Form fields (multipart/form-data, instead of the body)")
                yield PairsEditor(form_rows, kind="form field", id="form-fields")
                yield Static(
                    "A value @path sends that file (@photo.png;type=image/png); a body of "
                    "only @path sends a file as the body; files up to "
                    f"{size_text(MAX_UPLOAD)}.",
                    classes="note",
                )
                yield Label("API version")
                with Horizontal(id="version-row"):
                    yield SafeInput(
                        "" if spec.api_version is None else str(spec.api_version),
                        id="version",
                        placeholder="e.g. 2 or 2024-10-21",
                    )
                    yield Select(
                        [(_STYLE_LABELS[s], s) for s in VERSION_STYLES],
                        value=spec.version_style,
                        allow_blank=False,
                        id="version-style",
                    )
                yield SafeInput(
                    spec.version_name,
                    id="version-name",
                    placeholder="its name: api-version, Accept-Version, application/vnd.x+json",
                    tooltip="The parameter, header (Name: value with {version}) or media type "
                    "that carries the version; empty: the form restwalk's mock uses",
                )
                yield Label("Credential")
                yield Select(AUTH_KINDS, value=_auth_kind(auth), allow_blank=False, id="auth")
                yield SafeInput(
                    auth.token if isinstance(auth, BearerAuth) else "",
                    id="token",
                    placeholder="token",
                    password=True,
                    classes="auth bearer",
                )
                yield SafeInput(
                    auth.scheme if isinstance(auth, BearerAuth | LoginFlow) else "Bearer",
                    id="token-scheme",
                    placeholder="scheme: Bearer, or Token (Django REST Framework)",
                    tooltip="The token goes as Authorization: <scheme> <token>",
                    classes="auth bearer login",
                )
                yield SafeInput(
                    auth.user if isinstance(auth, BasicAuth | LoginFlow) else "",
                    id="user",
                    placeholder="user name",
                    classes="auth basic login",
                )
                yield SafeInput(
                    auth.password if isinstance(auth, BasicAuth | LoginFlow) else "",
                    id="password",
                    placeholder="password",
                    password=True,
                    classes="auth basic login",
                )
                yield SafeInput(
                    auth.url if isinstance(auth, LoginFlow) else "",
                    id="login-url",
                    placeholder="login URL, e.g. http://127.0.0.1:8000/auth/token",
                    classes="auth login",
                )
                yield SafeInput(
                    "; ".join(f"{k}={v}" for k, v in auth.cookies)
                    if isinstance(auth, CookieSession)
                    else "",
                    id="cookies",
                    placeholder="name=value; other=value",
                    classes="auth cookies",
                )
                with Horizontal(id="composer-buttons"):
                    yield Button("Send", id="send", variant="primary")
                    if self.saver is not None:
                        yield Button("Save to .http…", id="save-http")
            with Vertical(id="preview-pane"):
                yield Label("The request as it will be sent")
                yield Static("", id="preview")
        yield KeyBar()

    def on_mount(self) -> None:
        self._show_auth_fields()
        self._refresh_preview()
        if self.note or self.spec.has_body:
            self.query_one("#body", TextArea).focus()
        else:
            self.query_one("#url", Input).focus()

    # -- reading the form ---------------------------------------------------------------------

    def _value(self, selector: str) -> str:
        return self.query_one(selector, Input).value

    def _auth(self) -> Auth | None:
        kind = str(self.query_one("#auth", Select).value)
        scheme = self._value("#token-scheme").strip() or "Bearer"
        if kind == "bearer":
            return BearerAuth(self._value("#token").strip(), scheme)
        if kind == "basic":
            return BasicAuth(self._value("#user").strip(), self._value("#password"))
        if kind == "login":
            return LoginFlow(
                self._value("#login-url").strip(),
                self._value("#user").strip(),
                self._value("#password"),
                scheme=scheme,
            )
        if kind == "cookies":
            pairs = []
            for part in self._value("#cookies").split(";"):
                name, _, value = part.strip().partition("=")
                if name:
                    pairs.append((name, value))
            return CookieSession(tuple(pairs))
        return None

    def current_spec(self) -> RequestSpec:
        """The request the form describes now."""
        body, body_file, form = body_from_fields(
            self.query_one("#body", TextArea).text,
            self.query_one("#form-fields", PairsEditor).pairs,
        )
        version_text = self._value("#version").strip()
        style = cast(VersionStyle, str(self.query_one("#version-style", Select).value))
        try:
            version = parse_version(version_text)
        except RestwalkError:
            version = None  # the preview says why (see _refresh_preview)
        if version is not None and style == "none":
            style = "uri"
        return RequestSpec(
            method=self._value("#method").strip() or "GET",
            url=resolve_typed_url(self._value("#url"), self.base),
            query=self.query_one("#query", PairsEditor).pairs,
            headers=self.query_one("#headers", PairsEditor).pairs,
            body=body,
            body_file=body_file,
            form=form,
            api_version=version,
            version_style=style if version is not None else "none",
            version_name=self._value("#version-name").strip(),
            auth=self._auth(),
        )

    # -- reacting to edits --------------------------------------------------------------------

    def _json_note(self, spec: RequestSpec) -> str:
        """Where the body, meant as JSON, is not valid JSON (empty when it is fine)."""
        if spec.body is None or spec.form:
            return ""
        content_type = next((v for k, v in spec.headers if k.lower() == "content-type"), None)
        if not meant_as_json(spec.body, content_type or spec.content_type):
            return ""
        problem = json_problem(spec.body)
        return f"Not valid JSON, {problem}" if problem else ""

    def _refresh_preview(self) -> None:
        spec = self.current_spec()
        self.query_one("#preview", Static).update(preview(spec))
        self.query_one("#json-note", Static).update(self._json_note(spec))
        method = self._value("#method").strip()
        info = method_info(method.upper())
        if info is not None:
            note = f"{info.name}: {info.meaning}"
        elif method and is_token(method):
            note = f"{method}: a custom method; a server that does not know it answers 501."
        else:
            note = "A method is one token such as GET, POST or PATCH."
        if self._from_page:
            note += " The body is the resource as GET read it: change what you want."
        self.query_one("#method-note", Static).update(note)

    def _show_auth_fields(self) -> None:
        kind = str(self.query_one("#auth", Select).value)
        for widget in self.query(".auth"):
            widget.display = kind in widget.classes

    @on(Input.Changed)
    @on(TextArea.Changed)
    @on(PairsEditor.Changed)
    def _edited(self) -> None:
        self._refresh_preview()

    @on(Input.Changed, "#method, #url")
    def _start_from_page(self) -> None:
        """A PUT or PATCH of the resource shown starts from its JSON (an empty body only)."""
        area = self.query_one("#body", TextArea)
        editable = self.editable
        if editable is not None and editable.starts(
            self._value("#method"), self._value("#url"), area.text
        ):
            area.text = editable.body
            self._from_page = True
            self._refresh_preview()

    @on(Input.Changed, ".pair-name")
    def _header_named(self, event: Input.Changed) -> None:
        if event.input.parent is None or event.input.parent.parent is not self.query_one(
            "#headers"
        ):
            return
        typed = event.value.strip()
        info = header_info(typed)
        completing = ""
        if info is None and typed:
            match = next((n for n in header_names() if n.lower().startswith(typed.lower())), None)
            info = header_info(match) if match else None
            completing = "  (→ completes it)"
        note = (
            f"{info.name}: {info.hint or info.meaning}  e.g. {info.example}{completing}"
            if info
            else "Start typing: header names restwalk knows are completed (→ accepts)."
        )
        self.query_one("#header-note", Static).update(note)

    @on(Select.Changed)
    def _selected(self) -> None:
        self._show_auth_fields()
        self._refresh_preview()

    @on(Input.Submitted, "#method, #url, #version")
    def _submitted(self) -> None:
        self.action_send()

    @on(UrlInput.CurlRead)
    def _curl_read(self, event: UrlInput.CurlRead) -> None:
        """A curl line in the URL field: the composer opens again on its request."""
        event.stop()
        self.dismiss(Composed(event.spec, reopen=event.note))

    # -- actions ------------------------------------------------------------------------------

    def action_add_header(self) -> None:
        self.query_one("#headers", PairsEditor).add_row()

    def action_add_query(self) -> None:
        self.query_one("#query", PairsEditor).add_row()

    @on(Button.Pressed, "#send")
    def action_send(self) -> None:
        spec = self.current_spec()
        empty = _empty_credential(spec.auth)
        if empty:  # (an OpenAPI operation's scheme, chosen but not filled in)
            self.notify(empty, severity="error", title="Not sent")
            return
        try:
            if isinstance(spec.auth, LoginFlow):
                build_request(spec.with_auth(BearerAuth("check")))
            else:
                build_request(spec)
        except RestwalkError as error:
            self.notify(
                f"{error.explanation} {error.hint_in_browser}", severity="error", title="Not sent"
            )
            return
        except (ValueError, TypeError) as error:
            self.notify(str(error), severity="error", title="Not sent")
            return
        masked = masks_left(spec)
        if masked:  # a history entry's: the secret it stands for is the person's to type
            self.notify(masks_refused(masked), severity="error", title="Not sent", timeout=15)
            return
        problem = self._json_note(spec)
        body = self.query_one("#body", TextArea).text
        if problem and self._warned_body != body:
            self._warned_body = body
            self.notify(
                f"{problem}. ctrl+s again sends it as it is.", severity="warning", title="Not sent"
            )
            return
        keep = self.query_one("#keep-headers", Checkbox).value
        self.dismiss(Composed(spec, keep_headers=keep))

    @on(Button.Pressed, "#save-http")
    def action_save_request(self) -> None:
        """Save the request as the form describes it to a .http file (it is not sent)."""
        if self.saver is not None:
            self.saver(self.current_spec())

    def action_cancel(self) -> None:
        self.dismiss(None)
