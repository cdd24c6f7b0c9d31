"""Dialogs of ``.http`` files: save a request into one, open one of its requests, pick
the environment.

Each returns a typed result (None when cancelled); what they read and write is
the core's business (:mod:`explorer.core.httpfile`). A problem (a file that
cannot be read, an undefined variable, a bad environment file) is explained in
the dialog, which stays open to fix it. A read the file's requests may not make
unasked (:mod:`explorer.core.httpfile.local_reads`: a file outside its folder, an
environment variable no environment file names) is explained there too, with an
"Allow" button: only the person's press lets it happen. A request that uses an
OAuth 2.0 login of its environment (``{{$auth.token("id")}}``) has its token put in
(:class:`~explorer.core.httpfile.auth_tokens.FileLogins`, as ``restwalk run`` does):
the first time, the OAuth dialog logs in over this one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from explorer.core.http.errors import RestwalkError
from explorer.core.http.request import RequestSpec
from explorer.core.httpfile.auth_tokens import FileLogins
from explorer.core.httpfile.environments import ENV_FILE, PRIVATE_ENV_FILE, load_environments
from explorer.core.httpfile.local_reads import Allowed, ReadRefused
from explorer.core.httpfile.opened import OpenedRequest
from explorer.core.httpfile.private_env import TOKEN_VARIABLE
from explorer.core.httpfile.saving import DEFAULT_HTTP_FILE, Draft, Saved, save_into
from explorer.core.httpfile.workspace import Workspace, open_workspace
from explorer.core.oauth.errors import NotLoggedIn
from explorer.core.oauth.login import Login
from explorer.core.text.terminal_text import visible
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.safe_input import SafeInput

__all__ = [
    "EnvironmentChosen",
    "EnvironmentDialog",
    "OpenOutcome",
    "OpenRequestDialog",
    "Opened",
    "SaveRequestDialog",
]

_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 90; max-width: 96%; height: auto; max-height: 90%;
    border: thick $accent; background: $surface; padding: 0 1;
}}
{name} Label {{ margin-top: 1; }}
{name} .problem {{ color: $error; }}
{name} .note {{ color: $warning; }}
{name} OptionList {{ height: auto; max-height: 16; }}
{name} Horizontal {{ height: auto; margin-top: 1; }}
"""


@dataclass(frozen=True)
class Opened:
    """A request picked in a ``.http`` file, its variables substituted."""

    spec: RequestSpec
    #: Where it came from, as written: saving it back keeps its {{variables}}.
    source: OpenedRequest
    #: What restwalk keeps but does not do (scripts...), and notes, to be said.
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class OpenOutcome:
    """How the open dialog was left: the file last listed, the environment, what was opened
    (None: nothing, Escape), and what the person allowed .http files to read."""

    path: str
    environment: str | None
    opened: Opened | None = None
    allowed: Allowed = field(default_factory=Allowed)


@dataclass(frozen=True)
class EnvironmentChosen:
    """The environment picked (None: no environment)."""

    name: str | None


class SaveRequestDialog(ModalScreen[Saved | None]):
    """A file and a name; Enter saves the request there (that request's lines only)."""

    DEFAULT_CSS = _CSS.format(name="SaveRequestDialog")
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save")]

    def __init__(self, draft: Draft, path: str, name: str, environment: str | None) -> None:
        super().__init__()
        self.draft = draft
        self.path = path
        self.request_name = name
        self.environment = environment

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Save the request to a .http file", style="bold"))
            yield Static(
                Text(
                    "A request of that name is replaced, its comments and scripts kept; "
                    "a new name goes at the end. Nothing else in the file changes."
                )
            )
            yield Label("File")
            yield SafeInput(self.path, id="http-path", placeholder=DEFAULT_HTTP_FILE)
            yield Label("Request name")
            yield SafeInput(self.request_name, id="request-name", placeholder="e.g. list customers")
            for note in self._notes():
                yield Static(Text(note), classes="note")
            where = self.environment or "$shared"  # (no environment: every environment's)
            yield Checkbox(
                f"Write {{{{{TOKEN_VARIABLE}}}}}, keep the token in {PRIVATE_ENV_FILE} ({where})",
                value=True,
                id="private-token",
            )
            yield Static("", id="save-note", classes="note")
            yield Static("", id="save-problem", classes="problem")
            with Horizontal():
                yield Button("Save", id="save", variant="primary")
                yield Button("Cancel", id="cancel")
        yield KeyBar()

    def _notes(self) -> list[str]:
        """What is saved besides the obvious: variables kept, the session's credential not."""
        draft = self.draft
        notes = []
        if draft.opened is not None:
            notes.append(
                f"Opened from {draft.opened.path.name}: what you did not change is written as "
                "the file had it, {{variables}} and all; values of "
                f"{PRIVATE_ENV_FILE} and .env are written as their {{{{name}}}}."
            )
        if draft.session_credential_left_out:
            notes.append(
                "The session's credential is left out: the file's request has none "
                "(its lines say how it authenticates)."
            )
        return notes

    def on_mount(self) -> None:
        self.query_one("#private-token", Checkbox).display = self.draft.bearer
        self._credential_note()
        problem = self.draft.problem
        if problem is not None:
            self._problem(f"Cannot be saved: {problem.message} {problem.hint_in_browser}")
        self.query_one("#request-name", Input).focus()

    @on(Checkbox.Changed, "#private-token")
    def _credential_note(self) -> None:
        private = self.draft.bearer and self.query_one("#private-token", Checkbox).value
        note = (
            "The credential is written into the file as it is: keep the file out of git."
            if self.draft.credential and not private
            else ""
        )
        self.query_one("#save-note", Static).update(Text(note))

    def _problem(self, text: str) -> None:
        self.query_one("#save-problem", Static).update(Text(visible(text.strip())))

    @on(Input.Submitted)
    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        path = self.query_one("#http-path", Input).value.strip() or DEFAULT_HTTP_FILE
        name = self.query_one("#request-name", Input).value.strip()
        if not name:
            self._problem("Give the request a name: it is how it is found again.")
            return
        private = self.draft.bearer and self.query_one("#private-token", Checkbox).value
        try:
            saved = save_into(
                Path(path),
                self.draft,
                name,
                private_token=private,
                environment=self.environment,
            )
        except RestwalkError as error:
            self._problem(f"Not saved: {error.message} {error.hint_in_browser}")
            return
        except OSError as error:
            self._problem(f"Not saved: {path}: {error.strerror or error}.")
            return
        self.dismiss(saved)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class OpenRequestDialog(ModalScreen[OpenOutcome]):
    """A ``.http`` file's requests; Enter opens one in the composer, variables substituted.

    E picks the environment of the file listed (from the files beside it). ``logins``
    keeps the OAuth 2.0 logins of ``{{$auth.token("id")}}`` between openings.
    """

    DEFAULT_CSS = _CSS.format(name="OpenRequestDialog")
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("E", "environment", "Environment"),
    ]

    def __init__(
        self,
        path: str,
        environment: str | None,
        allowed: Allowed | None = None,
        *,
        logins: FileLogins | None = None,
    ) -> None:
        super().__init__()
        self.path = path
        self.environment = environment
        self.logins = logins
        self.workspace: Workspace | None = None
        #: What .http files may read besides their folder (config.toml, earlier "Allow"s).
        self.allowed = allowed or Allowed()
        #: The read refused last, which "Allow" allows, and what to do again then.
        self.refused: ReadRefused | None = None
        self._again: int | None = None  # the request to open again (None: list the file)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Open a request of a .http file", style="bold"))
            yield Label("File (Enter lists its requests)")
            yield SafeInput(self.path, id="http-path", placeholder=DEFAULT_HTTP_FILE)
            yield Static(id="open-environment")
            yield OptionList(id="requests")
            yield Static("", id="open-problem", classes="problem")
            with Horizontal(id="allow-row"):
                yield Button("Allow this read", id="allow-read", variant="warning")
                yield Button("Don't", id="refuse-read")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#allow-row").display = False
        self._show_environment()
        if Path(self.path).expanduser().is_file():
            self.load(self.path)
            self.query_one(OptionList).focus()
        else:
            self.query_one("#http-path", Input).focus()

    def _show_environment(self) -> None:
        env = self.environment or "none"
        where = Path(self.path).expanduser().parent.resolve()
        text = f"Environment: {env} (E on the list picks one of {where})"
        self.query_one("#open-environment", Static).update(Text(visible(text)))

    def _problem(self, text: str) -> None:
        self.query_one("#open-problem", Static).update(Text(visible(text)))

    def _refused(self, error: ReadRefused, again: int | None) -> None:
        """Say why the read was refused, and offer to allow it."""
        self.refused, self._again = error, again
        what = "file" if error.kind == "file" else "environment variable"
        self._problem(f"{error.message} Allow this {what} only if you trust the .http file.")
        self.query_one("#allow-row").display = True
        self.query_one("#refuse-read", Button).focus()

    def _not_refused(self) -> None:
        self.refused = None
        self.query_one("#allow-row").display = False

    @on(Button.Pressed, "#allow-read")
    def _allow(self) -> None:
        """The person allowed the read refused: from now on, and try again."""
        refused, again = self.refused, self._again
        if refused is None:
            return
        self._not_refused()
        self.allowed = self.allowed.with_read(refused.kind, refused.name)
        if again is None or self.workspace is None:
            self.load(self.path)
            return
        self.workspace.local_reads.allow(refused.kind, refused.name)
        self.open_request(again)

    @on(Button.Pressed, "#refuse-read")
    def _refuse(self) -> None:
        self._not_refused()
        self._problem("Not allowed: nothing was read or sent.")
        self.query_one(OptionList).focus()

    @on(Input.Submitted, "#http-path")
    def _path_given(self, event: Input.Submitted) -> None:
        self.load(event.value.strip())
        if self.workspace is not None:
            self.query_one(OptionList).focus()

    def load(self, path: str) -> None:
        """List the requests of the file ``path`` (or say why they cannot be)."""
        options = self.query_one(OptionList)
        options.clear_options()
        self.workspace = None
        self._problem("")
        self._not_refused()
        if not path:
            return
        try:
            self.workspace = open_workspace(
                Path(path).expanduser(), self.environment, allowed=self.allowed
            )
        except ReadRefused as error:  # an environment file leading out of the folder
            self.path = path
            self._refused(error, None)
            return
        except RestwalkError as error:
            self._problem(f"{error.message} {error.hint_in_browser}".strip())
            if Path(path).expanduser().is_file():
                self.path = path  # (its environment is what is wrong: E, beside it)
                self._show_environment()
            return
        self.path = path
        self._show_environment()
        requests = self.workspace.http_file.requests
        if not requests:
            self._problem(f"{path} holds no request.")
            return
        for index, request in enumerate(requests):
            label = Text(visible(request.title), style="bold")
            if request.name:
                label.append(visible(f"  {request.effective_method} {request.url}"), style="dim")
            label.append(f"  (line {request.line})", style="dim")
            options.add_option(Option(label, id=str(index)))
        options.highlighted = 0

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        if event.option.id is not None:
            self.open_request(int(event.option.id))

    def open_request(self, index: int) -> None:
        """Open request ``index`` of the file listed, or say why it cannot be; its OAuth
        2.0 logins' tokens put in first (logging in when it needs to)."""
        workspace = self.workspace
        if workspace is None:
            return
        request = workspace.http_file.requests[index]
        if self.logins is not None and workspace.auth_references(request):
            self._with_tokens(workspace, index)
            return
        self._open(workspace, index)

    @work(exclusive=True, group="http-file-login")
    async def _with_tokens(self, workspace: Workspace, index: int) -> None:
        """Open request ``index`` with the tokens of the logins it names."""
        assert self.logins is not None
        request = workspace.http_file.requests[index]
        self._problem("")
        try:
            filled = await self.logins.filled(workspace, request, self._log_in)
        except RestwalkError as error:
            self._problem(f"Not opened: {error.message} {error.hint_in_browser}".strip())
            return
        if self.workspace is workspace:  # (not listed again meanwhile)
            self._open(filled, index)

    async def _log_in(self, login: Login) -> None:
        """Log ``login`` in, in the OAuth dialog over this one."""
        from explorer.ui.dialogs.oauth_login import OAuthDialog

        if not await self.app.push_screen_wait(OAuthDialog(login)):
            raise NotLoggedIn(
                f"Not logged in as {login.name!r}: the login was cancelled.",
                hint="Enter on the request logs in again.",
            )

    def _open(self, workspace: Workspace, index: int) -> None:
        """Open request ``index`` of ``workspace``'s file, or say why it cannot be."""
        request = workspace.http_file.requests[index]
        try:
            resolved, source = workspace.open(request)
        except ReadRefused as error:
            self._refused(error, index)
            return
        except RestwalkError as error:
            hint = error.hint_in_browser or (
                f"Define it in {ENV_FILE} beside the file (E picks the environment), "
                "as '@name = value' in the file, or in .env."
            )
            self._problem(f"{error.message} {hint}")
            return
        notes = resolved.notes + tuple(
            f"not run: the {s.kind} at line {s.line} (restwalk runs no scripts)"
            for s in resolved.not_run
        )
        reads = workspace.local_reads.unsaid()
        if reads:  # each file and variable read on this machine, named
            notes += ("; ".join(str(read) for read in reads) + ".",)
        opened = Opened(resolved.spec, source, notes)
        self.dismiss(OpenOutcome(str(workspace.path), self.environment, opened, self.allowed))

    def action_environment(self) -> None:
        """Pick the environment among those beside the file listed (or typed)."""
        directory = Path(self.path).expanduser().parent
        self.app.push_screen(EnvironmentDialog(directory, self.environment), self._chosen)

    def _chosen(self, chosen: EnvironmentChosen | None) -> None:
        if chosen is None:
            return
        self.environment = chosen.name
        self._show_environment()
        if Path(self.path).expanduser().is_file():
            self.load(self.path)  # listed again: a bad environment is said now, not at Enter
            self.query_one(OptionList).focus()

    def action_cancel(self) -> None:
        self.dismiss(OpenOutcome(self.path, self.environment, allowed=self.allowed))


class EnvironmentDialog(ModalScreen[EnvironmentChosen | None]):
    """The environments of the files beside the ``.http`` file; Enter picks one."""

    DEFAULT_CSS = _CSS.format(name="EnvironmentDialog")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, directory: Path, current: str | None) -> None:
        super().__init__()
        self.directory = directory
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Environment for {{variables}}", style="bold"))
            yield Static(
                Text(
                    f"From {ENV_FILE} and {PRIVATE_ENV_FILE} (its values win) in "
                    f"{self.directory.resolve()}; .env there is read too."
                )
            )
            yield OptionList(id="environments")
            yield Static("", id="env-problem", classes="problem")
        yield KeyBar()

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.add_option(Option(Text("No environment"), id=""))
        try:
            environments = load_environments(self.directory)
        except RestwalkError as error:
            text = f"{error.message} {error.hint_in_browser}".strip()
            self.query_one("#env-problem", Static).update(Text(visible(text)))
            options.focus()
            return
        for name in environments.names:
            options.add_option(Option(Text(visible(name)), id=f"env:{name}"))
        if not environments.names:
            self.query_one("#env-problem", Static).update(
                Text(f"No {ENV_FILE} here, or no environment in it.")
            )
        current = f"env:{self.current}" if self.current else ""
        ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
        options.highlighted = ids.index(current) if current in ids else 0
        options.focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or ""
        self.dismiss(EnvironmentChosen(option_id.removeprefix("env:") or None))

    def action_cancel(self) -> None:
        self.dismiss(None)
