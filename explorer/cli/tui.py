"""``restwalk [options] [URL]``: the TUI, on URL or on the bundled mock server.

The command line chooses the server: a URL given, or the bundled mock server
started here on 127.0.0.1, in a process of its own started before the UI is
imported, at port 8642 when it is free (else at a free one, and the app says so:
:mod:`explorer.cli.bundled_server`). Its socket is bound here, so the app starts at
once, handed its URL, and for the bundled mock its origin, so what is kept against
it follows it from run to run; its start page's request waits for the mock to serve.
Textual is imported only now, so the other commands stay quick.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from explorer.cli.command_names import COMMANDS
from explorer.cli.errors import UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.cli.hangup import end_with_the_terminal
from explorer.cli.lean_imports import httpcore_without_h2
from explorer.cli.options import absolute_url, connection_settings, looks_like_a_command
from explorer.cli.serving import WEB_DRIVERS
from explorer.cli.settings import load_settings, settings_of
from explorer.core import gc_pause

if TYPE_CHECKING:
    import argparse

    from explorer.cli.bundled_child import BundledProcess
    from explorer.core.config import Config
    from explorer.core.course.setup import CourseStart
    from explorer.core.http.connection import ConnectionSettings

__all__ = ["check_terminal", "looks_like_a_command", "open_tui", "unknown_command"]


def check_terminal() -> None:
    """Raise :class:`UsageError` unless keys come from a terminal and the screen goes to one.

    The TUI reads keys from stdin and draws on stderr (as Textual does). Started
    with either redirected (a script, ``restwalk < file``, a background job) it
    could never be used, and Textual would spin on the closed input. Under ``restwalk
    serve`` the terminal is a browser tab: textual-serve selects Textual's web driver,
    which reads keys and writes the screen as packets on pipes.
    """
    if os.environ.get("TEXTUAL_DRIVER") in WEB_DRIVERS:
        return
    for name, stream in (("stdin", sys.stdin), ("stderr", sys.__stderr__)):
        if stream is None or not stream.isatty():
            raise UsageError(
                f"the TUI needs a terminal, and {name} is not one; in scripts use "
                "'restwalk request METHOD URL' or 'restwalk links URL'"
            )


def unknown_command(word: str, one: bool) -> UsageError:
    """The error for ``word`` given where a URL or a command was expected."""
    import difflib

    if word in COMMANDS:  # after a URL, or after an option that wanted a value
        return UsageError(
            f"{word!r} is a command: it comes before its arguments, as in "
            f"'restwalk {word} ...' (see 'restwalk {word} --help')"
        )
    close = difflib.get_close_matches(word, COMMANDS, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    host = f" (http://{word}/ for a host of that name)" if one else ""
    return UsageError(
        f"unknown command {word!r}: {hint}give one URL{host}, or one of "
        f"{', '.join(COMMANDS)} (see 'restwalk --help')"
    )


def open_tui(args: argparse.Namespace, *, course: CourseStart | None = None) -> ExitStatus:
    """Open the TUI as ``args`` (from :func:`~explorer.cli.parser.build_tui_parser`) say;
    ``course``: with the course shown (``restwalk learn``)."""
    if args.url is not None and looks_like_a_command(args.url):
        raise unknown_command(args.url, one=True)
    url = absolute_url(args.url) if args.url is not None else None
    check_terminal()
    # Starting makes many objects and no garbage (the imports of the command line's
    # part and the UI's, the app): cyclic collection then only costs time (some 55 ms
    # of 450 ms here, a fifth of it before the UI is imported). The app turns it back
    # on once its first screen is painted (see RestwalkApp._open_start_page).
    gc_pause.switch(False)
    mock = None
    try:
        if url is None:
            from explorer.cli.bundled_child import BundledProcess
            from explorer.cli.bundled_server import environ_port

            port = environ_port(os.environ)
            try:  # it imports and starts on another core, beside the UI
                mock = BundledProcess(port)
            except OSError as error:
                return _could_not_start(error)
        return _open_tui(url, args, mock, course)
    finally:
        gc_pause.switch(True)
        if mock is not None:
            mock.stop()


def _open_tui(
    url: str | None,
    args: argparse.Namespace,
    mock: BundledProcess | None,
    course: CourseStart | None,
) -> ExitStatus:
    """Import the UI and run it on ``url``, or on the bundled ``mock``."""
    httpcore_without_h2()  # (before the client's modules import httpx, and httpx httpcore)
    warning = load_settings(args)  # shown in the TUI: stderr is its screen
    start = _http_file_start(args)
    settings = connection_settings(args)
    end_with_the_terminal()  # (under make, a closed terminal sends restwalk no SIGHUP)
    try:
        from explorer.ui.app import run_app
    except ModuleNotFoundError as exc:
        raise UsageError(f"the terminal UI cannot start: {exc}") from None
    config = settings_of(args)
    if course is not None:  # the course's own requests go as the learner's do
        course = course._replace(others=settings.client())
    if mock is None:
        assert url is not None
        return ExitStatus(
            run_app(
                url,
                settings,
                mock_users=False,
                config=config,
                warning=warning,
                http_file=start[0],
                environment=start[1],
                course=course,
            )
        )
    return _on_the_mock_server(mock, settings, config, warning, start, course)


def _http_file_start(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """The ``.http`` file and environment ``--http-file`` and ``--env`` choose, checked:
    a file that cannot be one (a folder, or in a folder that does not exist) and an
    environment no file beside it defines are usage errors now, not a surprise at the
    first S or request."""
    from pathlib import Path

    http_file: str | None = args.http_file
    environment: str | None = args.env
    if http_file is not None:
        target = Path(http_file).expanduser()
        if target.is_dir():
            raise UsageError(f"--http-file {http_file}: is a directory; give a .http file")
        if not target.parent.is_dir():
            what = "is not a folder" if target.parent.exists() else "does not exist"
            raise UsageError(f"--http-file {http_file}: the folder {target.parent} {what}")
    if environment is not None:
        from explorer.core.httpfile.environments import load_environments
        from explorer.core.httpfile.errors import HttpFileError

        directory = Path(http_file or "restwalk.http").expanduser().parent
        try:
            load_environments(directory).variables(environment)
        except HttpFileError as error:
            raise UsageError(f"{error.explanation} {error.hint}".strip()) from None
    return http_file, environment


def _on_the_mock_server(
    mock: BundledProcess,
    settings: ConnectionSettings,
    config: Config,
    warning: str | None,
    start: tuple[str | None, str | None],
    course: CourseStart | None,
) -> ExitStatus:
    """Open the TUI on the bundled mock server's root (it stops after), without waiting
    for it to serve: the start page's request waits in its socket's queue meanwhile,
    and when it cannot start the TUI ends and says why. The course (``L``, or
    ``course`` when given) resets its data through its process."""
    from explorer.cli.bundled_server import bundled_mock_at
    from explorer.core.course.setup import CourseStart
    from explorer.ui.app import run_app

    bundled = bundled_mock_at(mock.base, mock.port, mock.taken)
    course = (course or CourseStart())._replace(reset=mock.resetter())
    status = run_app(
        bundled.origin + "/",
        settings,
        mock_users=True,
        config=config,
        warning=warning,
        bundled=bundled,
        http_file=start[0],
        environment=start[1],
        course=course,
        server_started=mock.ready,
    )
    if mock.failure is not None:
        return _could_not_start(mock.failure)
    return ExitStatus(status)


def _could_not_start(why: object) -> ExitStatus:
    """Say on one line that the bundled mock server could not start."""
    sys.stderr.write(f"restwalk: the bundled mock server could not start: {why}\n")
    return ExitStatus.FAILED
