"""How the ``restwalk`` command line's options become a request.

:mod:`explorer.cli.parser` defines the options; :func:`spec_from` turns parsed
options into a :class:`~explorer.core.http.request.RequestSpec` and
:func:`connection_settings` into :class:`~explorer.core.http.connection.ConnectionSettings`
(:func:`client_from`: the client). Bad input raises :class:`UsageError`.
"""

from __future__ import annotations

import re
import sys
from typing import TYPE_CHECKING, TypeVar

from explorer.cli.errors import UsageError
from explorer.cli.keeping import watch
from explorer.cli.settings import settings_file_of, settings_of

if TYPE_CHECKING:
    import argparse
    import ssl

    from explorer.core.http.client import Client
    from explorer.core.http.connection import ConnectionSettings
    from explorer.core.http.request import Auth, RequestSpec
    from explorer.core.http.upload import FormPart

__all__ = [
    "absolute_url",
    "client_from",
    "connection_settings",
    "form_parts",
    "spec_from",
    "template_variables",
    "tui_defaults",
    "unchecked_by",
]

_T = TypeVar("_T")

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


def _body(data: str | None) -> tuple[bytes | None, str | None]:
    """``-d``'s body: its text, or ``@-`` standard input, or ``@FILE`` kept by name (the
    file is read now, to say at once when it is missing, too large or not the JSON its
    type says, and again when the request is built)."""
    if data is None:
        return None, None
    if not data.startswith("@"):
        return data.encode("utf-8"), None
    name = data[1:]
    if name == "-":
        return sys.stdin.buffer.read(), None
    from explorer.core.http.upload import read_body_file

    return read_body_file(name), name


def template_variables(pairs: list[str]) -> dict[str, str]:
    """``--var NAME=VALUE`` options as the values of a URI template's variables."""
    variables: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--var {pair!r} is not NAME=VALUE")
        variables[name.strip()] = value
    return variables


def looks_like_a_command(word: str) -> bool:
    """True for a lone word that cannot be meant as a URL: no dot, colon or slash."""
    return word != "localhost" and re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", word) is not None


def absolute_url(url: str) -> str:
    """``url``, with ``http://`` put in front when it has no scheme (a ``mailto:`` URL is
    left to be refused by name)."""
    from explorer.core.http.request import with_scheme

    if "://" in url:
        return url
    if url.startswith("/"):
        raise UsageError(f"{url!r} is a path without a server: give http://HOST:PORT{url}")
    return with_scheme(url)


def _auth(args: argparse.Namespace, url: str) -> tuple[Auth | None, list[tuple[str, str]]]:
    """The credential the options ask for, and cookie headers that go besides it."""
    from explorer.core.http.request import (
        BasicAuth,
        BearerAuth,
        CookieSession,
        LoginFlow,
        OAuthBearer,
    )

    cookies = []
    for pair in args.cookie:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"cookie {pair!r} is not NAME=VALUE")
        cookies.append((name.strip(), value.strip()))
    _check_given_credentials(args)
    if args.bearer and (args.user or args.login):
        raise UsageError("--bearer cannot be combined with --user or --login")
    oauth = getattr(args, "auth", None)
    if oauth and (args.bearer or args.user or args.login):
        raise UsageError("--auth cannot be combined with --bearer, --user or --login")
    auth: Auth | None = None
    if oauth:
        auth = OAuthBearer(oauth)
    elif args.login:
        import httpx

        user, password = _user(args.user)
        try:
            login_url = str(httpx.URL(url).join(args.login))
        except httpx.InvalidURL as exc:
            raise UsageError(f"--login URL {args.login!r} is not valid: {exc}") from None
        auth = LoginFlow(
            login_url, user, password, args.login_style, args.token_field, _scheme(args)
        )
    elif args.bearer:
        auth = BearerAuth(args.bearer, _scheme(args))
    elif args.user:
        auth = BasicAuth(*_user(args.user))
    if auth is None and cookies:
        return CookieSession(tuple(cookies)), []
    extra = [("Cookie", "; ".join(f"{k}={v}" for k, v in cookies))] if cookies else []
    return auth, extra


def _check_given_credentials(args: argparse.Namespace) -> None:
    """An empty ``--bearer`` or ``--user`` is a mistake (an unset variable, a quoting
    slip), not a wish to send nothing: said now, rather than the request going out
    without the credential asked for; a token that breaks a line is said without
    echoing it."""
    from explorer.core.http.field_syntax import breaks_a_line

    bearer = getattr(args, "bearer", None)
    if bearer is not None and not bearer.strip():
        raise UsageError("--bearer needs a token: --bearer TOKEN (it was empty)")
    if bearer is not None and breaks_a_line(bearer):
        raise UsageError("--bearer's token holds a line break: give it on one line")
    if getattr(args, "user", None) == "":
        raise UsageError("--user must be USER:PASSWORD (it was empty)")


def _scheme(args: argparse.Namespace) -> str:
    """``--token-scheme``, checked: one token (RFC 9110's auth-scheme)."""
    from explorer.core.http.field_syntax import is_token

    scheme = str(getattr(args, "token_scheme", "Bearer") or "Bearer")
    if not is_token(scheme):
        raise UsageError(f"--token-scheme {scheme!r} is not one word such as Bearer or Token")
    return scheme


def _check_base_path(args: argparse.Namespace, url: str) -> None:
    """``--base-path`` says where ``/vN`` goes in the URL's path: it needs a version in
    the path, and a URL under it (else it would be silently ignored)."""
    from explorer.core.http.api_version import base_path_misuse

    if args.api_version is None:
        raise UsageError("--base-path needs --api-version N (it says where /vN goes)")
    if args.version_style not in (None, "uri"):
        raise UsageError(f"--base-path is for --version-style uri, not {args.version_style}")
    if (misuse := base_path_misuse(url, args.base_path)) is not None:
        raise UsageError(f"--base-path {args.base_path}: {misuse}")


def spec_from(args: argparse.Namespace, method: str = "GET", url: str | None = None) -> RequestSpec:
    """The request the command-line options describe (``url`` instead of ``args.url``)."""
    from explorer.core.http.request import STANDARD_METHODS, RequestSpec

    if method.upper() in STANDARD_METHODS:
        method = method.upper()
    url = absolute_url(url or args.url)
    headers = [_header(h) for h in args.header]
    auth, cookie_headers = _auth(args, url)
    if args.version_style and args.api_version is None:
        raise UsageError("--version-style needs --api-version N")
    if args.base_path:
        _check_base_path(args, url)
    form = form_parts(getattr(args, "form", None) or [])
    if form and getattr(args, "data", None) is not None:
        raise UsageError("-d and -F cannot be combined: a request has one body")
    body, body_file = _body(getattr(args, "data", None))
    if body is not None and not getattr(args, "as_is", False):
        _check_json(body, headers)
    if body_file is not None:
        body = None
    return RequestSpec(
        method=method,
        url=url,
        headers=tuple(headers + cookie_headers),
        body=body,
        body_file=body_file,
        form=form,
        api_version=args.api_version,
        version_style=args.version_style or "uri",
        version_name=args.version_name,
        base_path=args.base_path,
        auth=auth,
    )


def form_parts(values: list[str]) -> tuple[FormPart, ...]:
    """``-F name=value`` and ``-F name=@file;type=...;filename=...``, as curl reads them."""
    from explorer.core.carry.curl import CurlError, parse_curl
    from explorer.core.carry.shell_words import quote_word

    if not values:
        return ()
    line = "curl http://form.invalid " + " ".join(
        f"-F {quote_word(v, always=True)}" for v in values
    )
    from explorer.core.http.upload import peek_file

    try:
        parts = parse_curl(line, read=_no_read).spec.form
    except CurlError as exc:
        raise UsageError(exc.message.replace("-F ", "-F/--form ", 1)) from None
    for part in parts:
        if part.file is not None:
            peek_file(part.file)  # a missing or too large file is said now
    return parts


def _no_read(path: str) -> bytes:
    raise UsageError(f"-F name=<{path} (text from a file) is not taken here: use name=@{path}")


def _check_json(body: bytes, headers: list[tuple[str, str]]) -> None:
    """Refuse a body sent as JSON that is not valid JSON (``--as-is`` sends it anyway)."""
    from explorer.core.bodies.json_body import json_problem, meant_as_json

    content_type = next((v for k, v in headers if k.lower() == "content-type"), None)
    if not meant_as_json(body, content_type):
        return
    problem = json_problem(body)
    if problem is not None:
        said = f"its Content-Type is {content_type}" if content_type else "it starts as JSON does"
        raise UsageError(
            f"the body is not valid JSON ({problem}), but {said}; fix it, or add --as-is "
            "to send it as it is"
        )


def connection_settings(args: argparse.Namespace, *, load_ca: bool = True) -> ConnectionSettings:
    """The connection the options describe, config.toml's settings where they say
    nothing. A CA file given (``--cacert``, ``ca_bundle``) is read now, so a bad one is
    a usage error (the default bundle is read at the first handshake); with ``load_ca``
    False (to write the connection for another tool) no certificate is read, and
    ``verify`` only says whether TLS is checked."""
    from explorer.core.http.connection import ConnectionSettings, ca_file_context

    config = settings_of(args).connection
    verify: ssl.SSLContext | bool
    cacert, cacert_from = (args.cacert, "--cacert") if args.cacert else (config.ca_bundle, "")
    if args.insecure or (not config.verify and not args.cacert):
        verify = False
    elif not load_ca or not cacert:
        verify = True
    else:
        from explorer.core.http.errors import TLSError

        try:
            verify = ca_file_context(cacert)
        except TLSError as exc:
            where = cacert_from or f"ca_bundle in {settings_file_of(args)}"
            raise UsageError(f"{where}: {exc.message} {exc.hint}") from None
    proxy = args.proxy if args.proxy is not None else config.proxy
    if proxy is not None and "://" not in proxy:
        raise UsageError(f"--proxy {proxy!r} is not a URL: give http://HOST:PORT")
    return ConnectionSettings(
        http2=args.http2 or config.http2,
        http2_prior_knowledge=args.http2_prior_knowledge or config.http2_prior_knowledge,
        verify=verify,
        proxy=proxy,
        timeout=_given(args.timeout, config.timeout),
        follow_redirects=config.redirects and not getattr(args, "no_redirects", False),
        max_redirects=_given(getattr(args, "max_redirects", None), config.max_redirects),
        max_time=_given(args.max_time, config.max_time),
        max_body=_given(args.max_body, config.max_body),
        cache=bool(getattr(args, "cache", False)),
    )


def _given(option: _T | None, configured: _T) -> _T:
    """The option's value when it was given, else the configured one."""
    return configured if option is None else option


def tui_defaults(url: str | None) -> argparse.Namespace:
    """``restwalk [URL]``'s options when none is given: what the TUI parser would give."""
    from types import SimpleNamespace

    return SimpleNamespace(  # type: ignore[return-value]  # the attributes argparse gives
        url=url,
        insecure=False,
        cacert=None,
        proxy=None,
        http2=False,
        http2_prior_knowledge=False,
        timeout=None,
        no_redirects=False,
        max_redirects=None,
        max_time=None,
        max_body=None,
        cache=False,
        http_file=None,
        env=None,
        config=None,
    )


def unchecked_by(args: argparse.Namespace) -> str | None:
    """What turned TLS certificate checks off for ``args`` (an option, or config.toml's
    key and file), or None when they are on."""
    if args.insecure:
        return getattr(args, "insecure_from", None) or "-k/--insecure"
    if not settings_of(args).connection.verify and not args.cacert:
        return f"verify = false in {settings_file_of(args)}"
    return None


def client_from(args: argparse.Namespace) -> Client:
    """The client the connection options describe (its exchanges kept in the history).

    With TLS certificates not checked, a warning says so on stderr, once a command,
    naming what turned them off: it is never silent.
    """
    settings = connection_settings(args)
    by = unchecked_by(args)
    if by is not None and not getattr(args, "unchecked_said", False):
        from explorer.cli.output import error_line

        error_line(
            f"warning: TLS certificates are not checked ({by}): anyone on the way to the "
            "server can read and change this exchange"
        )
        args.unchecked_said = True
    client = watch(settings.client(), args)
    if getattr(args, "auth", None):
        from explorer.cli.oauth_login import attach_login

        attach_login(client, args, args.auth)
    return client
