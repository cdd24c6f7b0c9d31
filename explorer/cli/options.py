"""How the ``restwalk`` command line's options become a request.

:mod:`explorer.cli_parser` defines the options; :func:`spec_from` turns parsed
options into a :class:`~explorer.core.request.RequestSpec` and
:func:`client_from` into a :class:`~explorer.core.client.Client`. Bad input
raises :class:`UsageError`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

    from explorer.core.client import Client
    from explorer.core.request import Auth, RequestSpec

__all__ = [
    "COMMANDS",
    "UsageError",
    "absolute_url",
    "client_from",
    "spec_from",
    "template_variables",
]

COMMANDS = ("request", "links", "explain")


class UsageError(Exception):
    """Bad command-line input: one line on stderr, exit 2."""


# --- turning options into a request ---------------------------------------------------------------


def _header(text: str) -> tuple[str, str]:
    name, sep, value = text.partition(":")
    if not sep or not name.strip():
        raise UsageError(f"header {text!r} is not 'Name: value'")
    return name.strip(), value.strip()


def _user(text: str | None) -> tuple[str, str]:
    if text is None:
        raise UsageError("--login needs --user USER:PASSWORD")
    user, sep, password = text.partition(":")
    if not sep:
        raise UsageError("--user must be USER:PASSWORD")
    return user, password


def _body(data: str | None) -> bytes | None:
    if data is None:
        return None
    if not data.startswith("@"):
        return data.encode("utf-8")
    name = data[1:]
    if name == "-":
        return sys.stdin.buffer.read()
    try:
        with open(name, "rb") as file:
            return file.read()
    except OSError as exc:
        from explorer.core.errors import InvalidBody

        raise InvalidBody(
            f"The body file {name!r} cannot be read: {exc.strerror or exc}."
        ) from None


def template_variables(pairs: list[str]) -> dict[str, str]:
    """``--var NAME=VALUE`` options as the values of a URI template's variables."""
    variables: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--var {pair!r} is not NAME=VALUE")
        variables[name.strip()] = value
    return variables


def absolute_url(url: str) -> str:
    """``url``, with ``http://`` put in front when it has no scheme."""
    return url if "://" in url else f"http://{url}"


def _auth(args: argparse.Namespace, url: str) -> tuple[Auth | None, list[tuple[str, str]]]:
    """The credential the options ask for, and cookie headers that go besides it."""
    from explorer.core.request import BasicAuth, BearerAuth, CookieSession, LoginFlow

    cookies = []
    for pair in args.cookie:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"cookie {pair!r} is not NAME=VALUE")
        cookies.append((name.strip(), value.strip()))
    if args.bearer and (args.user or args.login):
        raise UsageError("--bearer cannot be combined with --user or --login")
    auth: Auth | None = None
    if args.login:
        import httpx

        user, password = _user(args.user)
        try:
            login_url = str(httpx.URL(url).join(args.login))
        except httpx.InvalidURL as exc:
            raise UsageError(f"--login URL {args.login!r} is not valid: {exc}") from None
        auth = LoginFlow(login_url, user, password, args.login_style, args.token_field)
    elif args.bearer:
        auth = BearerAuth(args.bearer)
    elif args.user:
        auth = BasicAuth(*_user(args.user))
    if auth is None and cookies:
        return CookieSession(tuple(cookies)), []
    extra = [("Cookie", "; ".join(f"{k}={v}" for k, v in cookies))] if cookies else []
    return auth, extra


def spec_from(args: argparse.Namespace, method: str = "GET") -> RequestSpec:
    """The request the command-line options describe."""
    from explorer.core.request import STANDARD_METHODS, RequestSpec

    if method.upper() in STANDARD_METHODS:
        method = method.upper()
    url = absolute_url(args.url)
    headers = [_header(h) for h in args.header]
    auth, cookie_headers = _auth(args, url)
    if args.version_style and args.api_version is None:
        raise UsageError("--version-style needs --api-version N")
    body = _body(getattr(args, "data", None))
    return RequestSpec(
        method=method,
        url=url,
        headers=tuple(headers + cookie_headers),
        body=body,
        api_version=args.api_version,
        version_style=args.version_style or "uri",
        base_path=args.base_path,
        auth=auth,
    )


def client_from(args: argparse.Namespace) -> Client:
    """The client the connection options describe."""
    from explorer.core.client import Client

    return Client(
        http2=args.http2,
        http2_prior_knowledge=args.http2_prior_knowledge,
        verify=not args.insecure,
        timeout=args.timeout,
        follow_redirects=not args.no_redirects,
        max_redirects=args.max_redirects,
    )
