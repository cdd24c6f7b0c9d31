"""The browser screen's ``.http`` file keys: S saves the request, o opens one, E picks the
environment.

A request opened from a file goes to the composer with its variables put in
(as Posting and Bruno open a saved request: to look at and edit, sent with
ctrl+s), so nothing is sent behind the person's back.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.screen import Screen
from textual.widgets import Input, Label

from explorer.core.request import RequestSpec

if TYPE_CHECKING:
    from explorer.core.httpfile.saving import Saved
    from explorer.core.session import Session
    from explorer.ui.dialogs.http_files import EnvironmentChosen, Opened


@dataclass
class HttpFilesState:
    """The ``.http`` file last opened or saved, its environment and last request name.

    The file starts as ``restwalk.http`` here (the core's ``DEFAULT_HTTP_FILE``;
    the core's .http modules are imported only when a dialog opens).
    """

    path: str = "restwalk.http"
    environment: str | None = None
    name: str = ""

    @property
    def directory(self) -> Path:
        """Where the environment files are: beside the ``.http`` file."""
        return Path(self.path).expanduser().parent


class BrowserHttpFiles(Screen[None]):
    """Opens the ``.http`` file dialogs and routes their results."""

    session: Session
    #: The .http file last used, its environment, the last request name.
    http_files: HttpFilesState

    if TYPE_CHECKING:  # the browser's dialogs half

        def _open_composer(self, spec: RequestSpec, note: str = "") -> None: ...

    def current_request(self) -> RequestSpec:
        """The request of the page shown, or the URL bar's when nothing is shown yet."""
        shown = self.session.shown
        if shown is not None:
            return shown.spec
        return RequestSpec(url=self.session.resolve(self.query_one("#url", Input).value or "/"))

    def save_request(self, spec: RequestSpec) -> None:
        """Ask for a file and a name, and save ``spec`` there (the composer asks too)."""
        from explorer.core.httpfile.saving import suggested_name
        from explorer.ui.dialogs.http_files import SaveRequestDialog

        state = self.http_files
        name = state.name or suggested_name(spec)
        self.app.push_screen(SaveRequestDialog(spec, state.path, name), self._saved)

    def _saved(self, saved: Saved | None) -> None:
        if saved is None:
            return
        self.http_files.path = str(saved.path)
        how = "Replaced" if saved.replaced else "Saved"
        self.notify(f"{how} at line {saved.line} of {saved.path}.", title="Request saved")

    def action_save_request(self) -> None:
        self.save_request(self.current_request())

    def action_open_request(self) -> None:
        from explorer.ui.dialogs.http_files import OpenRequestDialog

        state = self.http_files
        self.app.push_screen(OpenRequestDialog(state.path, state.environment), self._opened)

    def _opened(self, opened: Opened | None) -> None:
        if opened is None:
            return
        self.http_files.path = opened.path
        self.http_files.name = opened.name
        for note in opened.notes:
            self.notify(note, timeout=6)
        self._open_composer(opened.spec)

    def action_environment(self) -> None:
        from explorer.ui.dialogs.http_files import EnvironmentDialog

        state = self.http_files
        self.app.push_screen(
            EnvironmentDialog(state.directory, state.environment), self._environment_chosen
        )

    def _environment_chosen(self, chosen: EnvironmentChosen | None) -> None:
        if chosen is None:
            return
        self.http_files.environment = chosen.name
        self.show_environment()
        self.notify(f"Environment: {chosen.name or 'none'}.")

    def show_environment(self) -> None:
        """The environment's name, at the right of the URL bar."""
        name = self.http_files.environment
        badge = self.query_one("#env-badge", Label)
        badge.update(f"env: {name}" if name else "")
        badge.display = bool(name)
