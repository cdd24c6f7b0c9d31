"""The ``restwalk`` command line's parser: every subcommand and option, put together.

Their ``--help`` is the reference. It is imported only when a command is
parsed: ``restwalk [URL]`` (the TUI) starts without argparse.
"""

from __future__ import annotations

import argparse

from explorer import __version__
from explorer.cli.arguments import (
    Parser,
    add_config_option,
    add_connection,
    connection_options,
    formatter,
)
from explorer.cli.commands import COMMAND_MODULES, command_module

__all__ = ["DESCRIPTION", "EPILOG", "build_parser", "build_tui_parser"]

DESCRIPTION = """\
restwalk: explore and learn a REST API from the terminal.

  restwalk [OPTIONS]           open the TUI on the bundled mock server (at
                               127.0.0.1:8642, or $RESTWALK_MOCK_PORT)
  restwalk [OPTIONS] URL       open the TUI on URL (-k, --cacert, --proxy,
                               --timeout, --max-time, --max-body, --http2:
                               as for request; --cache: caching on;
                               --http-file FILE --env NAME: the .http
                               file and environment S, o and E use)
  restwalk request METHOD URL  send one request, print the answer explained
  restwalk links URL           list the links in URL's response
  restwalk map URL             map the API by following its safe links
  restwalk audit URL           measure the API against the REST constraints
  restwalk diff URL1 URL2      the structural difference of two answers' bodies
  restwalk explain TOPIC       explain a status code, header or method
  restwalk run FILE.http       send the requests saved in a .http file
  restwalk lint URL            what an HTTP linter finds in URL's response
  restwalk history             list, search, export (HAR) or import the history
  restwalk bookmarks [NAME]    list the bookmarks, or walk one again
  restwalk openapi URL|FILE    list the operations of an OpenAPI document
  restwalk listen              show each request a local endpoint receives
  restwalk auth login NAME     log in by OAuth 2.0 (status, logout); --auth
                               NAME sends its token
  restwalk learn               learn HTTP by doing: the course beside the TUI
  restwalk serve [URL]         serve restwalk as a web page, one per browser tab

--config FILE and the connection options (-k, --proxy, --timeout...) may come
before a command too: restwalk --config FILE request GET URL."""

EPILOG = """\
examples:
  restwalk request GET http://127.0.0.1:8000/
  restwalk request GET http://127.0.0.1:8000/ --follow customers --follow item
  restwalk request GET 'http://127.0.0.1:8000/customers?limit=5' --follow next
  restwalk request GET http://127.0.0.1:8000/ --follow customer-search --var name=Ada
  restwalk request POST http://127.0.0.1:8000/customers --user alice:wonderland \\
      -d '{"name": "Ann", "address": "1 Main St, Springfield, IL 62701"}'
  restwalk links http://127.0.0.1:8000/products --json
  restwalk request GET http://127.0.0.1:8000/customers/1 --print b
  restwalk lint http://127.0.0.1:8000/customers/1
  restwalk explain 418; restwalk explain Retry-After; restwalk explain PATCH
  restwalk run api.http --env dev --name login --name orders
  restwalk request --from-curl 'curl -u alice:wonderland http://127.0.0.1:8000/'
  restwalk request POST http://127.0.0.1:8000/anything -F name=Ann --as curl

exit codes: 0 success (any HTTP status), 1 the request failed (refused, DNS,
timeout, TLS, broken response, login failed, --follow rel not found),
2 bad usage. Run 'restwalk COMMAND --help' for a command's options."""


#: The usage line of ``restwalk --help``, for both forms.
USAGE = f"restwalk [OPTIONS] [URL] | restwalk {{{','.join(COMMAND_MODULES)}}} ..."


def _restwalk_parser() -> Parser:
    """The ``restwalk`` parser with its description, examples and ``--version``."""
    parser = Parser(
        prog="restwalk",
        usage=USAGE,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=formatter,
    )
    parser.add_argument("--version", action="version", version=f"restwalk {__version__}")
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand (the TUI form ``restwalk [URL]`` is told apart first)."""
    parser = _restwalk_parser()
    add_config_option(parser)  # listed in --help; given here, it is moved after the command
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    shared = connection_options()

    for name in COMMAND_MODULES:
        command_module(name).add_parser(commands, shared)
    return parser


def build_tui_parser() -> argparse.ArgumentParser:
    """The parser of ``restwalk [OPTIONS] [URL]``: the TUI and its connection options."""
    parser = _restwalk_parser()
    parser.add_argument(
        "url", nargs="?", metavar="URL", help="the URL to open (default: the bundled mock)"
    )
    parser.add_argument(
        "--cache",
        action="store_true",
        help="start with the HTTP cache on (C turns it on and off; [cache] in config.toml)",
    )
    parser.add_argument(
        "--http-file",
        metavar="FILE",
        help="the .http file S saves into and o opens first (default: restwalk.http)",
    )
    parser.add_argument(
        "--env",
        metavar="NAME",
        help="the environment of http-client.env.json beside that file (E switches it)",
    )
    add_connection(parser)
    return parser
