"""The pieces every ``restwalk`` parser is made of: the parser class, help formatting,
the options shared by the commands that send requests, and the option types.

The commands' modules (:mod:`explorer.cli.commands`) build their parsers from these;
:mod:`explorer.cli.parser` puts the commands together.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import NoReturn

from explorer.cli.errors import UsageError

__all__ = [
    "Parser",
    "add_config_option",
    "add_connection",
    "connection_options",
    "formatter",
    "paragraphs",
]


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, not usage plus message.

    A parser with ``intermixed = True`` reads options between its positionals
    (``request GET -v URL``) although they may be left out (``METHOD`` and ``URL``
    are optional with ``--from-curl``), as argparse's intermixed parsing does.
    """

    intermixed = False
    _mixing = False

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def parse_known_args(  # type: ignore[override]
        self, args: list[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        if self.intermixed and not self._mixing:
            self._mixing = True  # the intermixed parse calls this again, twice
            try:
                return self.parse_known_intermixed_args(args, namespace)
            finally:
                self._mixing = False
        return super().parse_known_args(args, namespace)


def paragraphs(*paragraphs: str) -> str:
    """Paragraphs wrapped for a help screen (the raw formatter keeps them as given)."""
    return "\n\n".join(textwrap.fill(p, 79) for p in paragraphs)


def formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


def connection_options() -> Parser:
    """Options shared by ``request`` and ``links``: headers, versions, auth, transport."""
    shared = Parser(add_help=False)
    group = shared.add_argument_group("request options")
    group.add_argument(
        "-H",
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="add a request header (repeatable)",
    )
    group.add_argument(
        "--api-version",
        type=_version,
        metavar="N",
        help="ask for API version N (a number, or a name or date such as 2024-10-21)",
    )
    group.add_argument(
        "--version-style",
        choices=("uri", "query", "header", "media-type", "none"),
        help="how to say the version: /vN path segment (default), a query parameter "
        "(?version=N), a header (Custom-Header: api-version=N) or an Accept media type "
        "parameter (application/json; version=N)",
    )
    group.add_argument(
        "--version-name",
        default="",
        metavar="NAME",
        help="the parameter (api-version), header (Accept-Version, or "
        "'Custom-Header: api-version={version}') or media type "
        "('application/vnd.example+json; version={version}') that carries the version",
    )
    group.add_argument(
        "--base-path",
        default="",
        metavar="PATH",
        help="for --version-style uri: the path part before /vN (e.g. /api)",
    )
    auth = shared.add_argument_group("authentication (credentials are never printed)")
    auth.add_argument(
        "-u",
        "--user",
        metavar="USER:PASSWORD",
        help="Basic auth, or the --login user (as curl's -u)",
    )
    auth.add_argument("--bearer", metavar="TOKEN", help="send Authorization: Bearer TOKEN")
    auth.add_argument(
        "--auth",
        metavar="NAME",
        help="send the token of the OAuth 2.0 login NAME ([oauth.NAME] in config.toml, or "
        "the API's URL), logging in first when there is none (see 'restwalk auth')",
    )
    auth.add_argument(
        "--no-browser",
        action="store_true",
        help="with --auth, print the URL to log in at instead of opening the browser",
    )
    auth.add_argument(
        "--login",
        metavar="URL",
        help="log in at URL with --user first, then send the token as Bearer",
    )
    auth.add_argument(
        "--login-style",
        choices=("json", "form", "basic"),
        default="json",
        help="how --login sends the credentials (default: json; a server that reads no "
        "JSON there, answering 415 or 422, gets them again as form: OAuth 2.0's password "
        "grant, grant_type=password, as FastAPI's /token takes it)",
    )
    auth.add_argument(
        "--token-field",
        default="access_token",
        metavar="NAME",
        help="the JSON field of the login answer holding the token (default: access_token, "
        "else token, as Django REST Framework's obtain_auth_token answers)",
    )
    auth.add_argument(
        "--token-scheme",
        default="Bearer",
        metavar="SCHEME",
        help="the scheme --bearer's or --login's token is sent under: Authorization: SCHEME "
        "TOKEN (default: Bearer; Token for Django REST Framework's TokenAuthentication)",
    )
    auth.add_argument(
        "--cookie",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="send a session cookie (repeatable)",
    )
    add_connection(shared)
    return shared


def add_connection(parser: argparse.ArgumentParser) -> None:
    """The connection options, the same for request, links and the TUI."""
    transport = parser.add_argument_group("connection")
    transport.add_argument(
        "--http2", action="store_true", help="offer HTTP/2 (https:// URLs, by ALPN)"
    )
    transport.add_argument(
        "--http2-prior-knowledge",
        action="store_true",
        help="speak HTTP/2 from the start, also over http://",
    )
    # Options without a default here take config.toml's, then restwalk's (see
    # explorer.cli.options.connection_settings): the command line wins over the file.
    transport.add_argument("--timeout", type=_positive_float, metavar="SECONDS", help="default: 30")
    transport.add_argument(
        "--max-time",
        type=_positive_float,
        metavar="SECONDS",
        help="the most a whole exchange may take, redirects and body included (default: 60)",
    )
    transport.add_argument(
        "--max-body",
        type=_size,
        metavar="SIZE",
        help="the largest body kept, counted decompressed: bytes, or with kB, MB, GB "
        "(default: 100MB)",
    )
    transport.add_argument(
        "--no-redirects", action="store_true", help="show a 3xx instead of following it"
    )
    transport.add_argument(
        "--max-redirects", type=_non_negative_int, metavar="N", help="default: 10"
    )
    transport.add_argument(
        "-k", "--insecure", action="store_true", help="do not check TLS certificates"
    )
    transport.add_argument(
        "--cacert", metavar="FILE", help="trust the CA certificates in this PEM file"
    )
    transport.add_argument(
        "--proxy", metavar="URL", help="send through this proxy (http://HOST:PORT)"
    )
    add_config_option(parser)


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """``--config FILE``: the settings file to read instead of the usual config.toml."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="read settings from FILE instead of config.toml (or $RESTWALK_CONFIG); "
        "options given here win over it",
    )


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def _version(text: str) -> int | str:
    from explorer.core.http.api_version import parse_version
    from explorer.core.http.errors import InvalidRequest

    try:
        version = parse_version(text)
    except InvalidRequest as exc:
        raise argparse.ArgumentTypeError(exc.message) from None
    if version is None:
        raise argparse.ArgumentTypeError("an empty version")
    return version


def _size(text: str) -> int:
    """A size such as ``5000000``, ``5MB``, ``512 kB`` or ``1GiB``, in bytes (at least 1)."""
    from explorer.core.text.sizes import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not more than 0")
    return value
