"""``restwalk [options] [URL]``: the TUI, on URL or on the bundled mock server.

The command line chooses the server: a URL given, or the bundled mock server
started here in-process on 127.0.0.1, at port 8642 when it is free (else at a
free one, and the app says so: :mod:`explorer.cli.bundled_server`); the app is
handed its URL, and for the bundled mock its origin, so what is kept against it
follows it from run to run. Textual is imported only now, so the other
commands stay quick.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import TYPE_CHECKING

from explorer.cli.command_names import COMMANDS
from explorer.cli.errors import UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import absolute_url, connection_settings, looks_like_a_command
from explorer.cli.serving import WEB_DRIVERS
from explorer.cli.settings import load_settings, settings_of

if TYPE_CHECKING:
    import argparse

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
    port = 0
    if url is None:
        from explorer.cli.bundled_server import environ_port

        port = environ_port(os.environ)
    warning = load_settings(args)  # shown in the TUI: stderr is its screen
    http_file, environment = _http_file_start(args)
    settings = connection_settings(args)  # OpenSSL reads the CA bundle while the UI imports
    # Importing the UI and the mock server makes many objects and no garbage:
    # cyclic collection then only costs time (about 45 ms of 400 ms here). The app
    # turns it back on once its first frame is painted (see RestwalkApp.on_mount).
    gc.disable()
    try:
        try:
            from explorer.ui.app import run_app
        except ModuleNotFoundError as exc:
            raise UsageError(f"the terminal UI cannot start: {exc}") from None
        config = settings_of(args)
        if course is not None:  # the course's own requests go as the learner's do
            from dataclasses import replace

            course = replace(course, others=settings.client())
        if url is not None:
            return ExitStatus(
                run_app(
                    url,
                    settings,
                    mock_users=False,
                    config=config,
                    warning=warning,
                    http_file=http_file,
                    environment=environment,
                    course=course,
                )
            )
        return _on_the_mock_server(
            settings, config, warning, port, (http_file, environment), course
        )
    finally:
        gc.enable()


def _http_file_start(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """The ``.http`` file and environment ``--http-file`` and ``--env`` choose, checked:
    an environment no file beside the ``.http`` file defines is a usage error now, not
    a surprise at the first request."""
    http_file: str | None = args.http_file
    environment: str | None = args.env
    if environment is not None:
        from pathlib import Path

        from explorer.core.httpfile.environments import load_environments
        from explorer.core.httpfile.errors import HttpFileError

        directory = Path(http_file or "restwalk.http").expanduser().parent
        try:
            load_environments(directory).variables(environment)
        except HttpFileError as error:
            raise UsageError(f"{error.explanation} {error.hint}".strip()) from None
    return http_file, environment


def _on_the_mock_server(
    settings: ConnectionSettings,
    config: Config,
    warning: str | None,
    port: int,
    start: tuple[str | None, str | None],
    course: CourseStart | None,
) -> ExitStatus:
    """Start the bundled mock server (at ``port`` if free), open the TUI on its root, stop
    it after. The course (``L``, or ``course`` when given) resets it in-process."""
    from dataclasses import replace

    from explorer.cli.bundled_server import mock_reset, start_bundled_mock
    from explorer.core.course.setup import CourseStart
    from explorer.ui.app import run_app

    try:
        server, bundled = start_bundled_mock(port)
    except (OSError, RuntimeError) as error:
        sys.stderr.write(f"restwalk: the bundled mock server could not start: {error}\n")
        return ExitStatus.FAILED
    course = replace(course or CourseStart(), reset=mock_reset(server))
    try:
        return ExitStatus(
            run_app(
                bundled.origin + "/",
                settings,
                mock_users=True,
                config=config,
                warning=warning,
                bundled=bundled,
                http_file=start[0],
                environment=start[1],
                course=course,
            )
        )
    finally:
        server.stop()
