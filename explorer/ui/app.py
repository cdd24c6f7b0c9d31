"""The restwalk app: wires the screens together; :func:`run_app` runs it.

:func:`create_app` is the one way to build the app: the command line, the tests
and the screenshot script all use it. The app does not choose its server: the
command line hands it a URL (the bundled mock server's, when it started one).
Give it a :class:`~explorer.core.http.client.Client` to talk through another
transport (the tests pass the mock server's ASGI app).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from textual import events, work
from textual.actions import ActionParseResult
from textual.app import App
from textual.binding import Binding
from textual.command import Provider
from textual.dom import DOMNode
from textual.driver import Driver
from textual.notifications import SeverityLevel
from textual.screen import Screen

from explorer.core import gc_pause
from explorer.core.bundled.rebase import BundledMock
from explorer.core.config import Config
from explorer.core.http.client import Client
from explorer.core.http.connection import ConnectionSettings
from explorer.core.paths import data_dir
from explorer.core.session.tab import Tab
from explorer.core.storage.keep import Keep
from explorer.core.text.terminal_text import visible
from explorer.ui.screens.main import BrowserScreen
from explorer.ui.typed_ahead import Typed, TypedAhead

if TYPE_CHECKING:
    from explorer.core.course.setup import CourseStart

#: Seconds the first paint waits for the start page ("paint holding", as browsers
#: do). A local server answers within milliseconds: the browser screen is then
#: laid out and drawn once, with the page, not first with "sending" (about 40 ms of
#: restwalk's start). A slower server's page gets the "sending" line meanwhile.
FIRST_PAINT_HOLD = 0.25
#: Seconds a warning about the person's own files (config.toml, the history) stays on
#: screen: long enough to read its two or three lines, not so long it hides the body.
#: The help screen (?) lists it again for later.
WARNING_SECONDS = 10
#: Problems the help screen lists, the most recent last.
_PROBLEMS_KEPT = 20


def _collect_garbage_again() -> None:
    """Turn cyclic garbage collection back on after start-up (``restwalk`` pauses it).

    ``gc.freeze`` first moves everything made so far, the imported modules
    mostly, out of the collector's sight, so later collections stay short.
    """
    gc.freeze()
    gc_pause.switch(True)


def _explain_commands() -> type[Provider]:
    """The palette's "explain" provider, imported when the palette first opens."""
    from explorer.ui.commands import ExplainCommands

    return ExplainCommands


def _connection_commands() -> type[Provider]:
    """The palette's protocol and caching switches, imported when the palette first opens."""
    from explorer.ui.connection_commands import ConnectionCommands

    return ConnectionCommands


def _keep_commands() -> type[Provider]:
    """The palette's history, bookmarks and HAR commands."""
    from explorer.ui.keep_commands import KeepCommands

    return KeepCommands


class RestwalkApp(App[int]):
    """A browser for REST APIs: one browser screen, plus help and learning screens."""

    TITLE = "restwalk"
    #: The browser screen's CSS too (its own CSS_PATH): read with the app's at start,
    #: so pushing the screen does not parse every rule again and restyle the app.
    CSS_PATH = ["app.tcss", "screens/main.tcss"]
    COMMANDS = App.COMMANDS | {_explain_commands, _connection_commands, _keep_commands}
    BINDINGS = [
        Binding("question_mark,f1", "help", "Help", tooltip="This help: every key"),
        Binding("l", "learn", "Learn", tooltip="Every status code, header, method, constraint"),
        Binding("q", "quit", "Quit", tooltip="Quit restwalk"),
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, tooltip="Quit, from anywhere"),
    ]

    def __init__(
        self,
        client: Client,
        start_url: str | None,
        *,
        owns_client: bool,
        mock_users: bool,
        config: Config | None = None,
        warning: str | None = None,
        bundled: BundledMock | None = None,
        http_file: str | None = None,
        environment: str | None = None,
        course: CourseStart | None = None,
        server_started: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        #: Keys typed ahead of a screen (a dialog opened by a key typed with them).
        self._typed_ahead = TypedAhead(self, self._route_key)
        #: Waits until the server this run started serves (see :meth:`_watch_server`).
        self._server_started = server_started
        self.client = client
        #: The bundled mock server this run started (None: the server is the person's).
        self.bundled = bundled
        self.start_url = start_url
        self.owns_client = owns_client
        self.mock_users = mock_users
        self.config = config or Config()
        #: A problem met before the app started (a bad config file), shown once it is up.
        self.warning = warning
        #: Every problem with the person's files shown so far, for the help screen (?).
        self.problems: list[str] = []
        #: The history (every exchange of ``client`` is recorded) and the bookmarks.
        self.keep = Keep(
            self.config.history,
            data_dir(),
            source="tui",
            warn=self._warn,
            bundled_origin=bundled.origin if bundled is not None else "",
        )
        self.keep.watch(client)
        self.browser = BrowserScreen(
            Tab(client),
            start_url,
            self.keep,
            mock_users=mock_users,
            bundled=bundled,
            course=course,
        )
        files = self.browser.http_files
        if http_file is not None:
            files.path = http_file
        files.environment = environment
        files.configured = self.config.http_files

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this terminal, reading a paste as one paste (see
        :mod:`explorer.ui.pasted_keys`)."""
        from explorer.ui.pasted_keys import paste_safe

        return paste_safe(super().get_driver_class())

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:  # read from the terminal
            self.browser.keys.pressed(event)  # when the person asked: a wait's start
            await self._typed_ahead.route(event)  # to the screen on top once it is mounted
            return
        if isinstance(event, events.Paste) and not event.is_forwarded:
            await self._typed_ahead.route(event)  # with the keys, in their order
            return
        await super().on_event(event)

    async def _route_key(self, event: Typed) -> None:
        """Textual's routing of a key or a paste read from the terminal: the priority
        bindings, then the focused widget of the screen on top."""
        await super().on_event(event)

    async def on_key(self, event: events.Key) -> None:
        """A key came back up unused: if a dialog opened meanwhile (by a key before it),
        the key is the dialog's, not a binding of the screen it was routed on."""
        again = self._typed_ahead.rerouted(event)
        if again is not None:
            event.prevent_default()  # not looked for among the dialog's bindings
            await self._typed_ahead.route(again)

    def on_mount(self) -> None:
        self.screen_change_signal.subscribe(self, self._typed_ahead.screen_changed, immediate=True)
        if self._server_started is not None:
            self._watch_server(self._server_started)
        self._use_config()
        if self.start_url:
            self._open_start_page()
        else:
            self.push_screen(self.browser)
            self.call_after_refresh(_collect_garbage_again)

    @work(group="start")
    async def _open_start_page(self) -> None:
        """Show the browser once its start page is here, or after :data:`FIRST_PAINT_HOLD`;
        once it is drawn, garbage is collected again (composing it makes none) and the
        start page is written in the history (its thread would share the interpreter
        with the drawing: some 3 ms of it)."""
        self.keep.hold()
        await self.browser.prefetch(FIRST_PAINT_HOLD)
        self.push_screen(self.browser)
        self.browser.call_after_refresh(self._first_screen_drawn)

    def _watch_server(self, started: Callable[[], None]) -> None:
        """Wait for the server this run started (the bundled mock) to serve, or end the app
        with status 1 when it cannot (the command line says why, once the terminal is its
        own again).

        The app does not wait for it: its process starts beside this one, and the start
        page's request waits in the server's socket's queue meanwhile. ``started`` blocks,
        so it waits in a daemon thread: not a worker's, which the app's shutdown would
        wait for, when the person quits before the server serves.
        """

        def watch() -> None:
            try:
                started()
            except RuntimeError:
                with contextlib.suppress(RuntimeError):  # (the app has closed meanwhile)
                    self.call_from_thread(self.exit, None, 1)

        threading.Thread(target=watch, name="restwalk-server-start", daemon=True).start()

    def _first_screen_drawn(self) -> None:
        _collect_garbage_again()
        self.keep.release()

    def _use_config(self) -> None:
        """The config file's theme and cache, and what was wrong with the file (if anything)."""
        bound = self.config.cache.max_bytes
        self.browser.cache_max_bytes = bound
        if self.client.cache is not None:  # made by --cache, before the config was read
            self.client.cache.storage.max_bytes = bound
        elif self.config.cache.enabled:
            self.client.set_caching(True, max_bytes=bound)
        theme = self.config.theme
        if theme is not None:
            if theme in self.available_themes:
                self.theme = theme
            else:
                names = ", ".join(sorted(self.available_themes))
                self._problem(f"no theme {theme!r}; the themes are {names}.", "config.toml")
        if self.warning:
            self._problem(self.warning, "Config file not used")
        if self.bundled is not None and self.bundled.note:
            self.notify(self.bundled.note, title="Bundled mock server", timeout=10)

    def _problem(self, message: str, title: str) -> None:
        """A problem with the person's own files: a warning shown long enough to read, and
        kept for the help screen."""
        self.problems = [*self.problems, f"{title}: {message}"][-_PROBLEMS_KEPT:]
        self.notify(
            f"{message} (? shows it again)",
            title=title,
            severity="warning",
            timeout=WARNING_SECONDS,
        )

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """Every notification as plain text: many quote a server (a link's relation, an
        error's detail), and server text is never markup nor a terminal escape."""
        super().notify(
            visible(message), title=visible(title), severity=severity, timeout=timeout, markup=False
        )

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Run an action, unless it is a key typed ahead of a screen still being built.

        Textual runs a screen's binding as soon as the screen is pushed, before its
        widgets are mounted: ctrl+s typed right after the key that opened the composer
        would read a form not yet there (and Textual's own Select would fail to mount).
        Such a key does nothing; the screen takes keys once it is on the screen.
        """
        if isinstance(default_namespace, Screen) and not default_namespace.is_mounted:
            return False
        return await super().run_action(action, default_namespace, namespaces)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The key bar does not offer the screen one is on (l on the learn screen)."""
        return action not in getattr(self.screen, "OWN_ACTIONS", ())

    def _warn(self, message: str) -> None:
        """A problem of the history (from its thread, or this one), as a notification."""
        if threading.get_ident() == self._thread_id:
            self._problem(message, "History")
        else:
            with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
                self.call_from_thread(self._problem, message, "History")

    async def on_unmount(self) -> None:
        driver = self.browser.course_driver
        if driver is not None:
            await driver.aclose()
        if self.owns_client:
            await self.client.aclose()
        await asyncio.to_thread(self.keep.close, 5.0)

    def action_help(self) -> None:
        from explorer.ui.dialogs.composer import ComposerScreen
        from explorer.ui.screens.browser_keys import BROWSER_KEYS
        from explorer.ui.screens.diff_screen import DiffScreen
        from explorer.ui.screens.help import HelpScreen
        from explorer.ui.screens.learn import LearnScreen
        from explorer.ui.screens.map_screen import MapScreen

        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(
            HelpScreen(
                [
                    ("Browser", BROWSER_KEYS),
                    (
                        "Everywhere",
                        [
                            *RestwalkApp.BINDINGS,
                            Binding(
                                "ctrl+p",
                                "",
                                "Palette",
                                tooltip="Command palette: type explain 429 or explain ETag",
                            ),
                        ],
                    ),
                    ("Composer", ComposerScreen.BINDINGS),
                    ("Learn screen", LearnScreen.BINDINGS),
                    ("Map screen (g)", MapScreen.BINDINGS),
                    ("Diff screen (D)", DiffScreen.BINDINGS),
                ],
                problems=self.problems,
            )
        )

    def action_learn(self) -> None:
        from explorer.ui.screens.learn import LearnScreen

        if not isinstance(self.screen, LearnScreen):
            self.push_screen(LearnScreen())


def create_app(
    url: str | None = None,
    *,
    client: Client | None = None,
    mock_users: bool = False,
    settings: ConnectionSettings | None = None,
    config: Config | None = None,
    warning: str | None = None,
    bundled: BundledMock | None = None,
    http_file: str | None = None,
    environment: str | None = None,
    course: CourseStart | None = None,
    server_started: Callable[[], None] | None = None,
) -> RestwalkApp:
    """The app opened on ``url``; ``client`` defaults to a new one it owns, built from
    ``settings`` (the command line's connection options).

    ``mock_users`` says the server is the bundled mock, so the login dialog can
    name its seeded users; ``bundled`` is that server when this run started it (what
    is kept against it follows it to another port). ``config`` is config.toml's
    settings, and ``warning`` what was wrong with the file, shown once the app is up.
    ``http_file`` and ``environment`` are the ``.http`` file and environment chosen
    on the command line (``--http-file``, ``--env``). ``course`` is the course ``L``
    shows (default: the bundled one) and whether it is shown from the start.
    ``server_started``, when this run started the server (the bundled mock): blocks
    until it serves, and raises ``RuntimeError`` when it cannot, which ends the app with
    status 1; the app starts meanwhile.
    """
    owns = client is None
    app_client = client or (settings or ConnectionSettings()).client()
    return RestwalkApp(
        app_client,
        url,
        owns_client=owns,
        mock_users=mock_users,
        config=config,
        warning=warning,
        bundled=bundled,
        http_file=http_file,
        environment=environment,
        course=course,
        server_started=server_started,
    )


def run_app(
    url: str,
    settings: ConnectionSettings,
    *,
    mock_users: bool,
    config: Config | None = None,
    warning: str | None = None,
    bundled: BundledMock | None = None,
    http_file: str | None = None,
    environment: str | None = None,
    course: CourseStart | None = None,
    server_started: Callable[[], None] | None = None,
) -> int:
    """Run the app on ``url`` until the person quits; returns its exit status."""
    app = create_app(
        url,
        mock_users=mock_users,
        settings=settings,
        config=config,
        warning=warning,
        bundled=bundled,
        http_file=http_file,
        environment=environment,
        course=course,
        server_started=server_started,
    )
    app.run()
    return app.return_code or 0
