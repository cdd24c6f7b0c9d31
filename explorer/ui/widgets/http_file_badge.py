"""The ``.http`` badge at the right of the URL bar (``env: dev``), and the ``.http`` keys.

The badge shows the environment of the ``.http`` file's variables, and owns the
keys that work with such files, wherever the focus is on the browser screen
(:mod:`explorer.ui.page_keys`): ``S`` saves the request to a file, ``o`` opens a
request of a file in the composer with its ``{{variables}}`` put in, ``E`` picks
the environment. Each runs its dialog (:mod:`explorer.ui.dialogs.http_files`) and
keeps what the answers change in :class:`HttpFilesState`; the composer is the
screen's, asked for with :class:`HttpFileBadge.Compose`.

A request opened from a file goes to the composer to be looked at and sent with
ctrl+s, so nothing is sent behind the person's back. It remembers where it came
from: F2 in that composer, or ``S`` on the page it sent, saves it back with the
file's ``{{variables}}`` (:mod:`explorer.core.httpfile.opened`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.binding import BindingType
from textual.message import Message
from textual.widgets import Label

from explorer.core.http.request import RequestSpec
from explorer.ui.typed_ahead import opens_dialog

if TYPE_CHECKING:
    from explorer.core.config import HttpFilesConfig
    from explorer.core.httpfile.auth_tokens import FileLogins
    from explorer.core.httpfile.local_reads import Allowed
    from explorer.core.httpfile.opened import OpenedRequest
    from explorer.core.httpfile.saving import Saved
    from explorer.core.session.tab import Tab
    from explorer.ui.dialogs.http_files import EnvironmentChosen, OpenOutcome

# The core's .http modules and the dialogs are imported when a key is first pressed.


class HttpFilesState:
    """The ``.http`` file last listed, opened or saved, its environment, and the request
    last opened from one (with what its composer sent).

    The file starts as ``restwalk.http`` here (the core's ``DEFAULT_HTTP_FILE``). One a
    badge, changed in place: a plain class, each attribute's default a class attribute
    (a dataclass's generated methods would go unused, and cost the TUI's start).
    """

    path: str = "restwalk.http"
    environment: str | None = None
    #: What config.toml's ``[http_files]`` allows (None: nothing more than the folder).
    configured: HttpFilesConfig | None = None
    #: What the person allowed .http files to read besides their folder, this session
    #: (None: what is ``configured``, read when a file is first opened).
    allowed: Allowed | None = None
    #: The request last opened from a file, and the request its composer sent.
    opened: OpenedRequest | None = None
    sent: RequestSpec | None = None
    #: The OAuth 2.0 logins of files' ``{{$auth.token("id")}}``, this session (None: none yet).
    logins: FileLogins | None = None

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


class HttpFileBadge(Label):
    """``env: NAME`` when an environment is chosen; ``S``, ``o`` and ``E`` work the files."""

    BINDINGS: ClassVar[list[BindingType]] = [
        opens_dialog(
            "S", "save_request", "Save", show=False, tooltip="Save the request to a .http file"
        ),
        opens_dialog(
            "o",
            "open_request",
            "Open",
            show=False,
            tooltip="Open a request of a .http file in the composer, its variables put in",
        ),
        opens_dialog(
            "E",
            "environment",
            "Environment",
            show=False,
            tooltip="Pick the environment of the .http file's variables (http-client.env.json)",
        ),
    ]

    class Compose(Message):
        """Open the composer on ``spec``: ``saver`` is its F2, ``on_send`` is told what it sends."""

        def __init__(
            self,
            spec: RequestSpec,
            saver: Callable[[RequestSpec], None],
            on_send: Callable[[RequestSpec], None],
        ) -> None:
            super().__init__()
            self.spec = spec
            self.saver = saver
            self.on_send = on_send

    class SaveAsked(Message):
        """``S``: save the request of the page shown (the URL row knows it, or what is
        typed before any page: :meth:`save_request`)."""

    def __init__(self, tab: Tab, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.tab = tab
        self.state = HttpFilesState()

    def on_mount(self) -> None:
        self.show_environment()  # (one chosen with --env)

    def show_environment(self) -> None:
        """The environment's name, or nothing (the badge hidden) when none is chosen."""
        name = self.state.environment
        self.update(f"env: {name}" if name else "")
        self.display = bool(name)

    # -- S: saving --------------------------------------------------------------------------

    def action_save_request(self) -> None:
        self.post_message(self.SaveAsked())

    def save_request(self, spec: RequestSpec, opened: OpenedRequest | None = None) -> None:
        """Ask for a file and a name, and save ``spec`` there (F2 in the composer too).

        ``opened`` is the file's request it came from (``S`` finds it for the page its
        composer sent); a login flow is written as the token it got, as ``y`` copies it.
        """
        from explorer.core.httpfile.saving import Draft, suggested_name
        from explorer.core.session.exports import as_logged_in
        from explorer.ui.dialogs.http_files import SaveRequestDialog

        state = self.state
        opened = opened or state.source_of(spec)
        written, token = as_logged_in(spec, self.tab.client)  # (its token's scheme now)
        baseline = self.tab.session.prepare(opened.resolved) if opened is not None else None
        draft = Draft(written, opened, baseline, token)
        path = str(opened.path) if opened is not None else state.path
        name = opened.name if opened is not None and opened.name else suggested_name(spec)
        dialog = SaveRequestDialog(draft, path, name, state.environment)
        self.app.push_screen(dialog, partial(self._saved, spec=spec))

    def _saved(self, saved: Saved | None, spec: RequestSpec) -> None:
        if saved is None:
            return
        state = self.state
        state.path = str(saved.path)
        if saved.opened is not None:  # saved back: the next save compares with this one
            state.opened = saved.opened
            state.sent = self.tab.session.prepare(spec)
        how = "Replaced" if saved.replaced else "Saved"
        message = f"{how} at line {saved.line} of {saved.path}."
        if saved.private_file is not None:
            env = state.environment or "$shared"
            message += f" The token is in {saved.private_file.name} ({env})."
        self.notify(message, title="Request saved")

    # -- o: opening -------------------------------------------------------------------------

    def action_open_request(self) -> None:
        from explorer.core.httpfile.local_reads import Allowed
        from explorer.ui.dialogs.http_files import OpenRequestDialog

        state = self.state
        if state.allowed is None:
            configured = state.configured
            files, variables = (
                (configured.allow_files, configured.allow_env) if configured else ((), ())
            )
            state.allowed = Allowed.of(files, variables)
        if state.logins is None:
            from explorer.core.httpfile.auth_tokens import FileLogins

            state.logins = FileLogins(self.tab.client)
        dialog = OpenRequestDialog(
            state.path, state.environment, state.allowed, logins=state.logins
        )
        self.app.push_screen(dialog, self._opened)

    def _opened(self, outcome: OpenOutcome | None) -> None:
        if outcome is None:
            return
        state = self.state
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
        self.post_message(self.Compose(opened.spec, self._save_opened, self._sent_opened))

    def _save_opened(self, spec: RequestSpec) -> None:
        """F2 in the composer of a request opened from a file: save it back there (as last
        saved, when it was)."""
        self.save_request(spec, opened=self.state.opened)

    def _sent_opened(self, spec: RequestSpec) -> None:
        """The composer of a request opened from a file sent ``spec``: S on its page saves
        it back there."""
        self.state.sent = self.tab.session.prepare(spec)

    # -- E: the environment -----------------------------------------------------------------

    def action_environment(self) -> None:
        from explorer.ui.dialogs.http_files import EnvironmentDialog

        state = self.state
        dialog = EnvironmentDialog(state.directory, state.environment)
        self.app.push_screen(dialog, self._environment_chosen)

    # -- the logins of files' {{$auth.token("id")}} ------------------------------------------

    @work(exclusive=True, group="http-file-logout")
    async def forget_logins(self) -> None:
        """Forget the OAuth 2.0 logins ``o`` made for files' ``{{$auth.token("id")}}``
        (revoked where the server can); the next request that needs one logs in again."""
        logins = self.state.logins
        if logins is None or not logins.logged_in:
            self.notify("No .http file's OAuth 2.0 login is held: nothing to forget.")
            return
        done = await logins.log_out()
        self.notify("\n".join(done), title="The .http files' logins forgotten", timeout=8)

    def _environment_chosen(self, chosen: EnvironmentChosen | None) -> None:
        if chosen is None:
            return
        self.state.environment = chosen.name
        self.show_environment()
        self.notify(f"Environment: {chosen.name or 'none'}.")
