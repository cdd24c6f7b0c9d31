"""``restwalk auth login|logout|status NAME``: OAuth 2.0 logins from the command line.

``login`` logs in (the grant chosen from what the server offers, or ``--grant``) and
prints what the token says, each claim explained; ``--keep`` (or ``keep = true`` in
``[oauth.NAME]``) keeps the tokens for the next runs, for ``--auth NAME``.
``status`` shows a kept login's tokens the same way, ``logout`` revokes and forgets
them. The token itself is printed only with ``--show-token``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.cli.arguments import Parser, add_connection, formatter, paragraphs
from explorer.cli.commands.network import run_printing
from explorer.cli.exit_status import ExitStatus

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.oauth.login import Login

__all__ = ["add_parser", "run"]

_ACTIONS = ("login", "logout", "status")


def add_parser(
    commands: SubParsers,
    shared: argparse.ArgumentParser,
) -> None:
    """``restwalk auth``'s parser."""
    auth = commands.add_parser(
        "auth",
        prog="restwalk auth",
        parents=[_connection()],
        help="log in by OAuth 2.0, show or forget a login's tokens",
        description=paragraphs(
            "Log in to an API by OAuth 2.0 as a native app (RFC 8252): NAME is a "
            "[oauth.NAME] table of config.toml or the API's URL. What the settings leave "
            "out is discovered from the API (its 401, RFC 9728, RFC 8414, OpenID Connect), "
            "and with no client id restwalk registers itself where the server allows it "
            "(RFC 7591): the bundled mock needs nothing more than its URL.",
            "The grant: the authorization code with PKCE in the system browser, which "
            "comes back to restwalk on a 127.0.0.1 port; over SSH or with --no-browser "
            "the URL is printed and the URL the browser ends on (or its code) is pasted "
            "back; the device code (a code typed on another device, shown with a QR "
            "code); client credentials (the application itself, with its secret).",
            "Tokens live in memory and are gone when restwalk ends, unless kept "
            "(--keep, or keep = true): then in a file only you can read, under "
            "restwalk's data directory, for 'restwalk request --auth NAME'.",
        ),
        epilog=paragraphs(
            "examples: restwalk auth login http://127.0.0.1:8000 --keep; "
            "restwalk request GET http://127.0.0.1:8000/orders --auth http://127.0.0.1:8000; "
            "restwalk auth login github --grant device_code",
            "exit codes: 0 done, 1 the login failed (refused, expired, cancelled), 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    auth.add_argument("action", choices=_ACTIONS, metavar="ACTION", help="login, logout or status")
    auth.add_argument("name", metavar="NAME", help="[oauth.NAME] of config.toml, or the API's URL")
    auth.add_argument(
        "--grant",
        metavar="GRANT",
        help="authorization_code, device_code or client_credentials (default: chosen)",
    )
    auth.add_argument("--client-id", metavar="ID", help="the client id the server gave restwalk")
    auth.add_argument("--scope", metavar="SCOPES", help="the scopes to ask for, space-separated")
    auth.add_argument(
        "--no-browser",
        action="store_true",
        help="print the URL to log in at instead of opening the browser",
    )
    auth.add_argument(
        "--keep",
        dest="keep_tokens",
        action="store_true",
        help="keep the tokens between runs (a 0600 file)",
    )
    auth.add_argument("--show-token", action="store_true", help="print the access token itself too")


def _connection() -> Parser:
    """The connection options alone: ``auth`` sends requests of its own making."""
    parent = Parser(add_help=False)
    add_connection(parent)
    return parent


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk auth ACTION NAME``."""
    return run_printing(_auth, args)


async def _auth(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    from explorer.cli.oauth_login import log_in, login_named
    from explorer.cli.options import client_from

    async with client_from(args) as client:
        login = login_named(args, client, args.name)
        if args.action == "login":
            await log_in(login, args)
            out += _view(login, args)
            if not login.settings.keep:
                out.append(
                    "# the tokens live in memory and end with this command: "
                    f"--keep keeps them for 'restwalk request --auth {args.name}'"
                )
        elif args.action == "logout":
            done = await login.log_out()
            out.append(
                "; ".join(done) if done else f"# {args.name}: no tokens were kept: nothing to do"
            )
        else:
            lines = _view(login, args)
            if not lines:
                out.append(
                    f"# {args.name}: not logged in (no kept tokens): "
                    f"restwalk auth login {args.name} --keep"
                )
                return ExitStatus.FAILED
            out += lines
    return ExitStatus.OK


def _view(login: Login, args: argparse.Namespace) -> list[str]:
    """The token view's lines (empty: not logged in)."""
    view = login.view(show_token=args.show_token)
    return view.lines() if view is not None else []
