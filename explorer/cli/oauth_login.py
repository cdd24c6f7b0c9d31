"""OAuth 2.0 logins on the command line: which login a name means, and talking to the person.

``restwalk auth login NAME`` and ``--auth NAME`` name a login: a ``[oauth.NAME]`` table
of config.toml, or an API's URL (everything else discovered). :func:`login_named`
makes the :class:`~explorer.core.oauth.login.Login`; :class:`TerminalPresenter` is how
its grants talk to the person, on stderr (stdout is the answer's): the URL to log in
at (the browser opened where one can be), the device code as text and, when the
terminal has room, as a QR code, and a pasted redirected URL or code read from
stdin. :func:`attach_login` registers a login for ``--auth NAME``: it logs in at the
first request that needs a token and has none. :func:`with_tokens` does the same for
a ``.http`` request's ``{{$auth.token("id")}}`` (``restwalk run``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.cli.errors import UsageError
from explorer.cli.output import error_line
from explorer.cli.settings import settings_of
from explorer.core.oauth.errors import NotLoggedIn
from explorer.core.text.terminal_text import visible_line

if TYPE_CHECKING:
    import argparse

    from explorer.core.http.client import Client
    from explorer.core.httpfile.auth_tokens import FileLogins
    from explorer.core.httpfile.model import HttpRequest
    from explorer.core.httpfile.workspace import Workspace
    from explorer.core.oauth.flows import AuthorizationStep, DeviceCode
    from explorer.core.oauth.login import Login
    from explorer.core.oauth.settings import OAuthSettings

__all__ = [
    "TerminalPresenter",
    "attach_login",
    "log_in",
    "login_named",
    "settings_named",
    "with_tokens",
]

#: Lines the QR code leaves free below it on the terminal.
_QR_MARGIN = 6


def settings_named(args: argparse.Namespace, name: str) -> OAuthSettings:
    """The settings of the login ``name``, with the command line's own choices."""
    from explorer.core.oauth.settings import check_grant, settings_for_url, settings_from_config

    table = settings_of(args).oauth.get(name)
    if table is not None:
        settings = settings_from_config(name, table)
    elif "://" in name:
        settings = settings_for_url(name)
    elif ":" in name and "/" not in name.split(":", 1)[0]:  # 127.0.0.1:8000, as --url takes it
        settings = settings_for_url(f"http://{name}")
    else:
        raise UsageError(
            f'no OAuth 2.0 login {name!r}: add [oauth.{name}] with server = "https://..." '
            "to config.toml, or give the API's URL"
        )
    grant = getattr(args, "grant", None)
    changes: dict[str, object] = {}
    if grant:
        changes["grant"] = check_grant(grant, "--grant")
    for option, key in (("client_id", "client_id"), ("scope", "scope")):
        value = getattr(args, option, None)
        if value:
            changes[key] = value
    if getattr(args, "keep_tokens", False):
        changes["keep"] = True
    return replace(settings, **changes)  # type: ignore[arg-type]


def login_named(args: argparse.Namespace, client: Client, name: str) -> Login:
    """The login ``name`` on ``client``, its kept tokens read from the data directory."""
    from explorer.core.oauth.login import Login
    from explorer.core.oauth.store import TOKEN_FILE, TokenFile
    from explorer.core.paths import data_dir

    store = TokenFile(data_dir() / TOKEN_FILE)
    return Login(settings_named(args, name), client, store=store)


class TerminalPresenter:
    """A grant's conversation with the person, on stderr and stdin."""

    def __init__(self) -> None:
        self._lines: asyncio.Queue[str] | None = None

    def show_authorization(self, step: AuthorizationStep) -> None:
        """Where to log in, and what happens next."""
        url = visible_line(step.url)
        if step.opened:
            error_line("log in in the browser (opened on this URL):")
        else:
            error_line(f"open this URL in a browser to log in ({step.why_not}):")
        print(f"  {url}", file=sys.stderr)
        if step.listening:
            error_line(
                f"waiting for the browser to come back to {step.redirect_uri}; where it "
                "cannot, paste the URL it ends on (or its code) here. Ctrl-C cancels"
            )
        else:
            error_line("then paste the URL the browser ends on (or its code) here:")

    def show_device_code(self, code: DeviceCode) -> None:
        """The user code, where to type it, and a QR code when the terminal has room."""
        from explorer.core.oauth.claims import countdown
        from explorer.core.oauth.qr import qr_lines

        error_line(f"to log in, open {visible_line(code.verification_uri)} and enter the code")
        print(f"\n    {visible_line(code.user_code)}\n", file=sys.stderr)
        if code.verification_uri_complete:
            complete = visible_line(code.verification_uri_complete)
            error_line(f"(or open {complete}: the code is filled in)")
        if sys.stderr.isatty():
            size = shutil.get_terminal_size()
            lines = qr_lines(
                code.qr_target, max_width=size.columns, max_height=size.lines - _QR_MARGIN
            )
            if lines is not None:
                print("\n".join(lines), file=sys.stderr)
                error_line("or scan the QR code with a phone")
        left = countdown(code.expires_at - _now())
        error_line(f"waiting for you to approve (the code expires in {left}; Ctrl-C cancels)")

    async def read_pasted(self, problem: str = "") -> str:
        """The next line typed or pasted on stdin (never returns when there is none)."""
        if problem:
            error_line(problem)
        queue = self._queue()
        return await queue.get()

    def _queue(self) -> asyncio.Queue[str]:
        """Lines of stdin as they come, read when the terminal says one is there."""
        if self._lines is not None:
            return self._lines
        self._lines = asyncio.Queue()
        lines = self._lines
        loop = asyncio.get_running_loop()
        try:
            descriptor = sys.stdin.fileno()
        except (AttributeError, ValueError, OSError):
            return lines  # no stdin: nothing is ever pasted

        def readable() -> None:
            line = sys.stdin.readline()
            if not line:  # end of input: nothing more will be pasted
                loop.remove_reader(descriptor)
                return
            if line.strip():
                lines.put_nowait(line.strip())

        with contextlib.suppress(NotImplementedError, OSError, ValueError):
            loop.add_reader(descriptor, readable)
        return lines

    def close(self) -> None:
        """Stop reading stdin."""
        if self._lines is None:
            return
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(sys.stdin.fileno())


def _now() -> float:
    import time

    return time.time()


async def log_in(login: Login, args: argparse.Namespace) -> None:
    """Log ``login`` in now, talking to the person on the terminal."""
    from explorer.core.oauth.browser import open_browser, why_no_browser

    why_not = why_no_browser(os.environ, no_browser=bool(getattr(args, "no_browser", False)))
    presenter = TerminalPresenter()
    try:
        await login.log_in(
            presenter,
            open_browser=open_browser if why_not is None else None,
            why_not=why_not or "",
        )
    finally:
        presenter.close()


class _LoggingIn:
    """A login that logs in on the terminal when a request needs its token and it has none."""

    def __init__(self, login: Login, args: argparse.Namespace) -> None:
        self.login = login
        self.args = args

    async def token(self, url: str) -> str:
        try:
            return await self.login.token(url)
        except NotLoggedIn:
            if not self.login.settings.acquire_automatically:
                raise
        await log_in(self.login, self.args)
        return await self.login.token(url)

    async def renewed(self, rejected: str) -> str | None:
        return await self.login.renewed(rejected)


def attach_login(client: Client, args: argparse.Namespace, name: str) -> Login:
    """Register the login ``name`` on ``client`` for ``--auth NAME``."""
    login = login_named(args, client, name)
    client.token_sources[name] = _LoggingIn(login, args)
    return login


async def with_tokens(
    args: argparse.Namespace,
    workspace: Workspace,
    request: HttpRequest,
    logins: FileLogins,
) -> Workspace:
    """``workspace`` with the tokens of the logins ``request`` names (``{{$auth.token("id")}}``),
    logging each in on the terminal the first time (``logins`` keeps them for the run)."""

    async def on_terminal(login: Login) -> None:
        await log_in(login, args)

    return await logins.filled(workspace, request, on_terminal)
