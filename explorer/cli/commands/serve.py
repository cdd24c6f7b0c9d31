"""``restwalk serve``: restwalk as a web page, a restwalk of its own for each browser tab.

It serves with textual-serve's parts (:mod:`explorer.cli.serving`) on 127.0.0.1 (port
8643 unless ``--port``; 0 for a free one), or on the network ``--host`` names, with a
warning that anyone there can use it. Each tab runs ``restwalk [URL]`` (or, with
``--course``, ``restwalk learn``) in a process of its own, with its own data
directory and bundled mock server. A port in use, a host that is not this machine's,
or an option out of range is one line and exit 1 or 2, before anything is served.
Ctrl-C ends every session and stops.
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import os
import signal
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from explorer.cli.arguments import add_config_option, formatter, paragraphs
from explorer.cli.errors import CommandError, UsageError
from explorer.cli.exit_status import ExitStatus

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.cli.serving.server import ClassroomServer

__all__ = [
    "DEFAULT_PORT",
    "add_parser",
    "announcement",
    "restwalk_arguments",
    "run",
    "session_argv",
]

#: The port served on unless ``--port`` (beside the bundled mock's 8642).
DEFAULT_PORT = 8643
#: The sessions (processes) run at once unless ``--max-sessions``.
DEFAULT_MOST_SESSIONS = 40
_HIGHEST_PORT = 65535


def add_parser(
    commands: SubParsers,
    shared: argparse.ArgumentParser,
) -> None:
    """``restwalk serve``'s parser (it sends nothing itself: no connection options)."""
    serve = commands.add_parser(
        "serve",
        prog="restwalk serve",
        help="serve restwalk as a web page: a restwalk and a mock of its own per browser tab",
        description=paragraphs(
            "Serve restwalk as a web page (with textual-serve): open the address "
            "printed in a browser and restwalk runs there, the TUI in the page. Each "
            "browser tab gets a restwalk of its own, with its own bundled mock server "
            "and its own history, bookmarks and logins, removed when the tab closes: a "
            "class of students on one machine do not see each other's data.",
            "It listens on 127.0.0.1 (this machine only) unless --host says another "
            "address: --host 0.0.0.0 shares it with everyone who can reach this machine, "
            "with no login, and their requests go out from here.",
        ),
        epilog=paragraphs(
            "examples: restwalk serve; restwalk serve --course; restwalk serve "
            "http://127.0.0.1:8000/; restwalk serve --host 0.0.0.0 --port 8080",
            "exit codes: 0 stopped with ctrl+c, 1 the address could not be listened "
            "on, 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    serve.add_argument(
        "url",
        nargs="?",
        metavar="URL",
        help="the URL each tab opens (default: its own bundled mock server)",
    )
    serve.add_argument(
        "--course",
        action="store_true",
        help="open the course (restwalk learn) in each tab instead of the browser",
    )
    serve.add_argument(
        "--lessons",
        metavar="DIR",
        help="with --course: the lessons of DIR instead of restwalk's own",
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this machine only; "
        "0.0.0.0: every network this machine is on)",
    )
    serve.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        metavar="N",
        help=f"the port to listen on (default: {DEFAULT_PORT}; 0: a free one)",
    )
    serve.add_argument(
        "--max-sessions",
        type=int,
        default=DEFAULT_MOST_SESSIONS,
        metavar="N",
        help="the most browser tabs served at once, each a process "
        f"(default: {DEFAULT_MOST_SESSIONS})",
    )
    add_config_option(serve)


def restwalk_arguments(
    url: str | None, *, course: bool, lessons: str | None, config: str | None
) -> list[str]:
    """The arguments of the ``restwalk`` each browser tab runs: ``[URL]`` for the TUI,
    ``learn [--lessons DIR] [URL]`` for the course; ``--config FILE`` passed on."""
    words = ["learn"] if course else []
    if config is not None:
        words += ["--config", config]
    if lessons is not None:
        words += ["--lessons", lessons]
    if url is not None:
        words.append(url)
    return words


def session_argv(arguments: list[str]) -> list[str]:
    """The command line of a tab's process: this Python running restwalk with
    ``arguments`` (not a ``restwalk`` found on the PATH, which may be another)."""
    return [sys.executable, "-m", "explorer", *arguments]


def _checked_arguments(args: argparse.Namespace) -> list[str]:
    """The tab's ``restwalk`` arguments, after checking what can be checked now (a bad
    URL or folder is one line here, not a page that ends at once in every tab)."""
    from explorer.cli.commands import COMMANDS
    from explorer.cli.options import absolute_url, looks_like_a_command

    if not 0 <= args.port <= _HIGHEST_PORT:
        raise UsageError(f"--port must be from 0 to {_HIGHEST_PORT}, not {args.port}")
    if args.max_sessions < 1:
        raise UsageError(f"--max-sessions must be 1 or more, not {args.max_sessions}")
    if args.lessons is not None and not args.course:
        raise UsageError("--lessons is for the course: give --course too")
    if args.course and "learn" not in COMMANDS:
        raise UsageError(
            "this restwalk has no course ('restwalk learn'): serve it without --course"
        )
    url = args.url
    if url is not None:
        if looks_like_a_command(url):
            raise UsageError(
                f"{url!r} is not a URL: give http://{url}/ for a host of that name, or "
                "leave it out for the bundled mock server"
            )
        url = absolute_url(url)
    lessons = args.lessons
    if lessons is not None:
        folder = Path(lessons).expanduser()
        if not folder.is_dir():
            raise UsageError(f"--lessons: {lessons!r} is not a folder")
        lessons = str(folder.resolve())
    config = getattr(args, "config", None)
    if config is not None:
        config = str(Path(config).expanduser().resolve())  # the tabs may start elsewhere
    return restwalk_arguments(url, course=args.course, lessons=lessons, config=config)


def _is_loopback(address: str) -> bool:
    """True when the address a socket is bound to is a loopback one (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(address.partition("%")[0]).is_loopback
    except ValueError:
        return False


def _listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` at ``port``; one line saying why when it cannot."""
    try:
        found = socket.getaddrinfo(
            host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError):
        raise UsageError(f"--host {host!r} is not an address or a name of this machine") from None
    family, kind, proto, _, address = found[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise CommandError(_bind_failure(host, port, exc)) from None
    return sock


def _bind_failure(host: str, port: int, error: OSError) -> str:
    """Why ``host`` at ``port`` cannot be listened on, and what to do, in one line."""
    where = f"cannot listen on {host} port {port}"
    if error.errno == errno.EADDRINUSE:
        return f"{where}: the port is in use (another restwalk serve?); choose another with --port"
    if error.errno == errno.EADDRNOTAVAIL:
        return f"{where}: {host} is not an address of this machine (see --host)"
    if error.errno == errno.EACCES:
        return f"{where}: ports below 1024 need privileges; choose another with --port"
    return f"{where}: {error.strerror or error}"


def _page_url(host: str, port: int) -> str:
    """The address to open: the host as given, or this machine's name when the host is
    every address (0.0.0.0, ::)."""
    from explorer.cli.serving.guard import bracketed

    if host in ("0.0.0.0", "::", "[::]", ""):
        host = socket.gethostname()
    return f"http://{bracketed(host)}:{port}/"


def announcement(arguments: list[str], host: str, port: int, *, loopback: bool) -> list[str]:
    """What is said before serving: where to open it, and, served on a network, who can."""
    shown = " ".join(["restwalk", *arguments])
    lines = [f"serving {shown!r} at {_page_url(host, port)} (ctrl+c stops)"]
    if not loopback:
        lines.append(
            f"warning: anyone who can reach this machine at port {port} can use this "
            "restwalk, with no login: each browser tab runs a restwalk and a bundled mock "
            "server here, and their requests go out from this machine to any address it "
            "reaches; serve on 127.0.0.1 (the default) to keep it to this machine"
        )
    return lines


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk serve`` until ctrl+c."""
    from explorer.cli.output import error_line
    from explorer.core.text.plural import counted

    arguments = _checked_arguments(args)
    try:
        from explorer.cli.serving.guard import HostGuard
        from explorer.cli.serving.server import ClassroomServer
    except ModuleNotFoundError as exc:  # installed without its dependencies
        raise CommandError(f"restwalk serve cannot start: {exc}") from None
    sock = _listening_socket(args.host, args.port)
    port = sock.getsockname()[1]
    loopback = _is_loopback(sock.getsockname()[0])  # as bound: a name may resolve there
    title = "restwalk course" if args.course else "restwalk"
    server = ClassroomServer(
        session_argv(arguments),
        sock=sock,
        guard=HostGuard.serving(args.host, port, loopback=loopback),
        title=title,
        most_sessions=args.max_sessions,
        say=lambda line: error_line(line),
    )
    for line in announcement(arguments, args.host, port, loopback=loopback):
        error_line(line)
    _logging()
    try:
        asyncio.run(_serve(server))
    finally:
        sock.close()
    error_line(f"stopped serving: {counted(server.served, 'session')} served")
    return ExitStatus.OK


class _OneLine(logging.Handler):
    """The web server's log records as ``restwalk:`` lines, an exception as its type and
    first line: a malformed request from a browser is a note, not a traceback."""

    def emit(self, record: logging.LogRecord) -> None:
        from explorer.cli.output import error_line

        message = record.getMessage()
        if record.exc_info is not None and record.exc_info[1] is not None:
            error = record.exc_info[1]
            said = " ".join(str(error).split())
            said = said if len(said) <= 160 else said[:159] + "…"
            message += f": {type(error).__name__}" + (f": {said}" if said else "")
        error_line(message)


def _logging() -> None:
    """The web server's and textual-serve's records (warnings and errors) as one line
    each; with ``RESTWALK_DEBUG`` every record, with its traceback."""
    debug = bool(os.environ.get("RESTWALK_DEBUG"))
    handler = logging.StreamHandler() if debug else _OneLine()
    for name in ("aiohttp", "textual-serve", "restwalk.serve"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(logging.DEBUG if debug else logging.WARNING)
        logger.propagate = False


async def _serve(server: ClassroomServer) -> None:
    """Serve until SIGINT or SIGTERM, then end the sessions."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    await server.run(stop)
