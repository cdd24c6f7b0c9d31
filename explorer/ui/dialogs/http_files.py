"""Dialogs of ``.http`` files: save a request into one, open one of its requests, pick
the environment.

Each returns a typed result (None when cancelled); what they read and write is
the core's business (:mod:`explorer.core.httpfile`). A problem (a file that
cannot be read, an undefined variable, a bad environment file) is explained in
the dialog, which stays open to fix it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from explorer.core.errors import RestwalkError
from explorer.core.httpfile.environments import ENV_FILE, PRIVATE_ENV_FILE, load_environments
from explorer.core.httpfile.saving import DEFAULT_HTTP_FILE, Saved, save_into
from explorer.core.httpfile.workspace import Workspace, open_workspace
from explorer.core.request import RequestSpec
from explorer.core.terminal_text import visible
from explorer.ui.widgets.key_bar import KeyBar

__all__ = [
    "EnvironmentDialog",
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
    path: str
    name: str
    #: What restwalk keeps but does not do (scripts...), and notes, to be said.
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnvironmentChosen:
    """The environment picked (None: no environment)."""

    name: str | None


class SaveRequestDialog(ModalScreen[Saved | None]):
    """A file and a name; Enter saves the request there (that request's lines only)."""

    DEFAULT_CSS = _CSS.format(name="SaveRequestDialog")
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save")]

    def __init__(self, spec: RequestSpec, path: str, name: str) -> None:
        super().__init__()
        self.spec = spec
        self.path = path
        self.request_name = name

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
            yield Input(self.path, id="http-path", placeholder=DEFAULT_HTTP_FILE)
            yield Label("Request name")
            yield Input(self.request_name, id="request-name", placeholder="e.g. list customers")
            credential = self.spec.auth is not None or any(
                k.lower() in ("authorization", "cookie") for k, _ in self.spec.headers
            )
            note = (
                "The credential is written into the file as it is. Keep the file out of "
                f"git, or write {{{{token}}}} in it and the value in {PRIVATE_ENV_FILE}."
                if credential
                else ""
            )
            yield Static(Text(note), id="save-note", classes="note")
            yield Static("", id="save-problem", classes="problem")
            with Horizontal():
                yield Button("Save", id="save", variant="primary")
                yield Button("Cancel", id="cancel")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#request-name", Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        path = self.query_one("#http-path", Input).value.strip() or DEFAULT_HTTP_FILE
        name = self.query_one("#request-name", Input).value.strip()
        problem = self.query_one("#save-problem", Static)
        if not name:
            problem.update(Text("Give the request a name: it is how it is found again."))
            return
        try:
            saved = save_into(Path(path), self.spec, name)
        except RestwalkError as error:
            problem.update(Text(visible(f"Not saved: {error.message} {error.hint}".strip())))
            return
        except OSError as error:
            problem.update(Text(visible(f"Not saved: {path}: {error.strerror or error}.")))
            return
        self.dismiss(saved)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


class OpenRequestDialog(ModalScreen[Opened | None]):
    """A ``.http`` file's requests; Enter opens one in the composer, variables substituted."""

    DEFAULT_CSS = _CSS.format(name="OpenRequestDialog")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, path: str, environment: str | None) -> None:
        super().__init__()
        self.path = path
        self.environment = environment
        self.workspace: Workspace | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Open a request of a .http file", style="bold"))
            yield Label("File (Enter lists its requests)")
            yield Input(self.path, id="http-path", placeholder=DEFAULT_HTTP_FILE)
            env = self.environment or "none (E chooses one)"
            yield Static(Text(f"Environment: {env}"), id="open-environment")
            yield OptionList(id="requests")
            yield Static("", id="open-problem", classes="problem")
        yield KeyBar()

    def on_mount(self) -> None:
        if Path(self.path).expanduser().is_file():
            self.load(self.path)
            self.query_one(OptionList).focus()
        else:
            self.query_one("#http-path", Input).focus()

    def _problem(self, text: str) -> None:
        self.query_one("#open-problem", Static).update(Text(visible(text)))

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
        if not path:
            return
        try:
            self.workspace = open_workspace(Path(path).expanduser(), self.environment)
        except RestwalkError as error:
            self._problem(f"{error.message} {error.hint}".strip())
            return
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
        from explorer.core.httpfile.resolve import resolve_request

        workspace = self.workspace
        if workspace is None or event.option.id is None:
            return
        request = workspace.http_file.requests[int(event.option.id)]
        try:
            resolved = resolve_request(request, workspace.http_file, workspace.sources())
        except RestwalkError as error:
            hint = error.hint or (
                f"Define it in {ENV_FILE} beside the file (E picks the environment), "
                "as '@name = value' in the file, or in .env."
            )
            self._problem(f"{error.message} {hint}")
            return
        notes = resolved.notes + tuple(
            f"not run: the {s.kind} at line {s.line} (restwalk runs no scripts)"
            for s in resolved.not_run
        )
        self.dismiss(Opened(resolved.spec, str(workspace.path), request.name or "", notes))

    def action_cancel(self) -> None:
        self.dismiss(None)


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
            text = f"{error.message} {error.hint}".strip()
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
