"""The browser screen's ``.http`` file keys: S saves the request, o opens one, E picks the
environment.

A request opened from a file goes to the composer with its variables put in
(to look at and edit, sent with ctrl+s), so nothing is sent behind the
person's back. It remembers where it came from: F2 in that composer, or S on
the page it sent, saves it back with the file's ``{{variables}}``
(:mod:`explorer.core.httpfile.opened`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual.screen import Screen
from textual.widgets import Input, Label

from explorer.core.http.request import LoginFlow, RequestSpec

if TYPE_CHECKING:
    from collections.abc import Callable

    from explorer.core.config import Config
    from explorer.core.http.client import Client
    from explorer.core.httpfile.local_reads import Allowed
    from explorer.core.httpfile.opened import OpenedRequest
    from explorer.core.httpfile.saving import Saved
    from explorer.core.session import Session
    from explorer.ui.dialogs.http_files import EnvironmentChosen, OpenOutcome


@dataclass
class HttpFilesState:
    """The ``.http`` file last listed, opened or saved, its environment, and the request
    last opened from one (with what its composer sent).

    The file starts as ``restwalk.http`` here (the core's ``DEFAULT_HTTP_FILE``;
    the core's .http modules are imported only when a dialog opens).
    """

    path: str = "restwalk.http"
    environment: str | None = None
    #: What the person allowed .http files to read besides their folder, this session
    #: (None: config.toml's ``[http_files]`` only, read when a file is first opened).
    allowed: Allowed | None = None
    #: The request last opened from a file, and the request its composer sent.
    opened: OpenedRequest | None = None
    sent: RequestSpec | None = None

    @property
    def directory(self) -> Path:
        """Where the environment files are: beside the ``.http`` file."""
        return Path(self.path).expanduser().parent

    def source_of(self, spec: RequestSpec) -> OpenedRequest | None:
        """The file's request ``spec`` was sent from, if it was (its credential aside: a
        login may have sent it again with one)."""
        sent = self.sent
        if self.opened is None or sent is None:
            return None
        return self.opened if replace(spec, auth=None) == replace(sent, auth=None) else None


class BrowserHttpFiles(Screen[None]):
    """Opens the ``.http`` file dialogs and routes their results."""

    session: Session
    client: Client
    #: The .http file last used, its environment, the request last opened from one.
    http_files: HttpFilesState

    if TYPE_CHECKING:  # the browser's dialogs half

        def _open_composer(
            self,
            spec: RequestSpec,
            note: str = "",
            *,
            saver: Callable[[RequestSpec], None] | None = None,
            on_send: Callable[[RequestSpec], None] | None = None,
        ) -> None: ...

    def current_request(self) -> RequestSpec:
        """The request of the page shown, or the URL bar's when nothing is shown yet."""
        shown = self.session.shown
        if shown is not None:
            return shown.spec
        return RequestSpec(url=self.session.resolve(self.query_one("#url", Input).value or "/"))

    def save_request(self, spec: RequestSpec, opened: OpenedRequest | None = None) -> None:
        """Ask for a file and a name, and save ``spec`` there (F2 in the composer too).

        ``opened`` is the file's request it came from (S finds it for the page its
        composer sent); a login flow is written as the token it got, as ``y`` copies it.
        """
        from explorer.core.httpfile.saving import Draft, suggested_name
        from explorer.ui.dialogs.http_files import SaveRequestDialog

        state = self.http_files
        opened = opened or state.source_of(spec)
        auth = spec.auth
        token = self.client.token_for(auth) if isinstance(auth, LoginFlow) else None
        baseline = self.session.prepare(opened.resolved) if opened is not None else None
        draft = Draft(spec, opened, baseline, token)
        path = str(opened.path) if opened is not None else state.path
        name = opened.name if opened is not None and opened.name else suggested_name(spec)
        dialog = SaveRequestDialog(draft, path, name, state.environment)
        self.app.push_screen(dialog, partial(self._saved, spec=spec))

    def _saved(self, saved: Saved | None, spec: RequestSpec) -> None:
        if saved is None:
            return
        state = self.http_files
        state.path = str(saved.path)
        if saved.opened is not None:  # saved back: the next save compares with this one
            state.opened = saved.opened
            state.sent = self.session.prepare(spec)
        how = "Replaced" if saved.replaced else "Saved"
        message = f"{how} at line {saved.line} of {saved.path}."
        if saved.private_file is not None:
            env = state.environment or "$shared"
            message += f" The token is in {saved.private_file.name} ({env})."
        self.notify(message, title="Request saved")

    def action_save_request(self) -> None:
        self.save_request(self.current_request())

    def action_open_request(self) -> None:
        from explorer.core.httpfile.local_reads import Allowed
        from explorer.ui.dialogs.http_files import OpenRequestDialog

        state = self.http_files
        if state.allowed is None:
            configured = cast("Config", self.app.config).http_files  # type: ignore[attr-defined]
            state.allowed = Allowed.of(configured.allow_files, configured.allow_env)
        dialog = OpenRequestDialog(state.path, state.environment, state.allowed)
        self.app.push_screen(dialog, self._opened)

    def _opened(self, outcome: OpenOutcome | None) -> None:
        if outcome is None:
            return
        state = self.http_files
        state.allowed = outcome.allowed
        state.path = outcome.path  # listed: E and o look there next
        if outcome.environment != state.environment:
            state.environment = outcome.environment
            self.show_environment()
        opened = outcome.opened
        if opened is None:
            return
        state.opened, state.sent = opened.source, None
        for note in opened.notes:
            self.notify(note, timeout=6)
        self._open_composer(opened.spec, saver=self._save_opened, on_send=self._sent_opened)

    def _save_opened(self, spec: RequestSpec) -> None:
        """F2 in the composer of a request opened from a file: save it back there (as last
        saved, when it was)."""
        self.save_request(spec, opened=self.http_files.opened)

    def _sent_opened(self, spec: RequestSpec) -> None:
        """The composer of a request opened from a file sent ``spec``: S on its page saves
        it back there."""
        self.http_files.sent = self.session.prepare(spec)

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
