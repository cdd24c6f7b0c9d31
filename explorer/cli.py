"""The ``restwalk`` command: the TUI, and the commands that need no terminal UI.

``restwalk [URL]`` opens the TUI (on the bundled mock server when no URL is
given). ``restwalk request``, ``restwalk links`` and ``restwalk explain`` run
once and print plain text (or JSON lines with ``--json``), on the same core the
TUI uses.

Exit codes: 0 success (whatever the HTTP status: a 404 is an answer), 1 the
request itself failed (connection refused, DNS, timeout, TLS, a broken
response, a failed login) or a ``--follow`` relation was not in the response,
2 bad usage (unknown option, bad URL, method or header, unknown topic). Every
failure is one line on stderr; no traceback ever reaches the user
(``RESTWALK_DEBUG=1`` lets one through, for developers).

Textual is imported only when the TUI starts: the other commands stay quick.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import TYPE_CHECKING, NoReturn

from explorer import __version__

if TYPE_CHECKING:
    from explorer.core.client import Client
    from explorer.core.exchange import Exchange
    from explorer.core.link import Link
    from explorer.core.request import Auth, RequestSpec

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

COMMANDS = ("request", "links", "explain")

DESCRIPTION = """\
restwalk: explore and learn a REST API from the terminal.

  restwalk                     open the TUI on the bundled mock server
  restwalk URL                 open the TUI on URL
  restwalk request METHOD URL  send one request, print the answer explained
  restwalk links URL           list the links in URL's response
  restwalk explain TOPIC       explain a status code, header or method"""

EPILOG = """\
examples:
  restwalk request GET http://127.0.0.1:8000/
  restwalk request GET http://127.0.0.1:8000/ --follow rw:customers --follow next
  restwalk request POST http://127.0.0.1:8000/customers --user alice:wonderland \\
      -d '{"name": "Ann", "address": "1 Main St, Springfield, IL 62701"}'
  restwalk links http://127.0.0.1:8000/products --json
  restwalk explain 418; restwalk explain Retry-After; restwalk explain PATCH

exit codes: 0 success (any HTTP status), 1 the request failed (refused, DNS,
timeout, TLS, broken response, login failed, --follow rel not found),
2 bad usage. Run 'restwalk COMMAND --help' for a command's options."""


class UsageError(Exception):
    """Bad command-line input: one line on stderr, exit 2."""


class FollowError(Exception):
    """A ``--follow`` relation is not in the response: one line on stderr, exit 1."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, not usage plus message."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _text(*paragraphs: str) -> str:
    """Paragraphs wrapped for a help screen (the raw formatter keeps them as given)."""
    return "\n\n".join(textwrap.fill(p, 79) for p in paragraphs)


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=32)


# --- parsing ------------------------------------------------------------------------------


def _connection_options() -> _Parser:
    """Options shared by ``request`` and ``links``: headers, versions, auth, transport."""
    shared = _Parser(add_help=False)
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
        "--api-version", type=_non_negative_int, metavar="N", help="ask for API version N"
    )
    group.add_argument(
        "--version-style",
        choices=("uri", "query", "header", "none"),
        help="how to say the version: /vN path segment (default), ?version=N, "
        "or Custom-Header: api-version=N",
    )
    group.add_argument(
        "--base-path",
        default="",
        metavar="PATH",
        help="for --version-style uri: the path part before /vN (e.g. /api)",
    )
    auth = shared.add_argument_group("authentication (credentials are never printed)")
    auth.add_argument("--user", metavar="USER:PASSWORD", help="Basic auth, or the --login user")
    auth.add_argument("--bearer", metavar="TOKEN", help="send Authorization: Bearer TOKEN")
    auth.add_argument(
        "--login",
        metavar="URL",
        help="log in at URL with --user first, then send the token as Bearer",
    )
    auth.add_argument(
        "--login-style",
        choices=("json", "form", "basic"),
        default="json",
        help="how --login sends the credentials (default: json)",
    )
    auth.add_argument(
        "--token-field",
        default="access_token",
        metavar="NAME",
        help="the JSON field of the login answer holding the token (default: access_token)",
    )
    auth.add_argument(
        "--cookie",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="send a session cookie (repeatable)",
    )
    transport = shared.add_argument_group("connection")
    transport.add_argument(
        "--http2", action="store_true", help="offer HTTP/2 (https:// URLs, by ALPN)"
    )
    transport.add_argument(
        "--http2-prior-knowledge",
        action="store_true",
        help="speak HTTP/2 from the start, also over http://",
    )
    transport.add_argument(
        "--timeout", type=_positive_float, default=30.0, metavar="SECONDS", help="default: 30"
    )
    transport.add_argument(
        "--no-redirects", action="store_true", help="show a 3xx instead of following it"
    )
    transport.add_argument(
        "--max-redirects", type=_non_negative_int, default=10, metavar="N", help="default: 10"
    )
    transport.add_argument(
        "-k", "--insecure", action="store_true", help="do not check TLS certificates"
    )
    return shared


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not more than 0")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand (the TUI form ``restwalk [URL]`` is told apart first)."""
    parser = _Parser(
        prog="restwalk",
        usage="restwalk [URL] | restwalk {request,links,explain} ...",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=_formatter,
    )
    parser.add_argument("--version", action="version", version=f"restwalk {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    shared = _connection_options()

    request = commands.add_parser(
        "request",
        prog="restwalk request",
        parents=[shared],
        help="send one request and print the answer, explained",
        description=_text(
            "Send one request and print the status line with its explanation, the "
            "headers and the body (JSON pretty-printed). Each --follow then follows "
            "the first link with that relation in the last response (exact name, then "
            "ignoring case, then a CURIE's local name: 'customers' finds 'rw:customers'); "
            "templated links are followed with their variables left empty.",
        ),
        epilog=_text(
            "METHOD is any token (GET, PATCH, BREW...); standard methods may be typed "
            "in lower case. A URL without scheme gets http://. --api-version without "
            "--version-style uses the /vN path segment.",
            "exit codes: 0 answered (any HTTP status), 1 the request failed or a "
            "--follow relation is not in the response (the last response is printed "
            "first), 2 bad usage.",
        ),
        formatter_class=_formatter,
    )
    request.add_argument("method", metavar="METHOD", help="GET, POST, PATCH... or any token")
    request.add_argument("url", metavar="URL", help="the absolute URL to request")
    request.add_argument(
        "-d", "--data", metavar="BODY", help="request body; @FILE reads a file, @- stdin"
    )
    request.add_argument(
        "--follow",
        action="append",
        default=[],
        metavar="REL",
        help="then follow the first link with relation REL (repeatable, in order)",
    )
    request.add_argument(
        "--json", action="store_true", help="print each exchange as one JSON object per line"
    )
    request.add_argument(
        "-v", "--verbose", action="store_true", help="also print each request as sent"
    )

    links = commands.add_parser(
        "links",
        prog="restwalk links",
        parents=[shared],
        help="list the links in a response",
        description=_text(
            "GET the URL and list every link its response carries, one per line: "
            "relation, method, href, title, and where it was found (a header, or a JSON "
            "Pointer / element path in the body; 'guessed' for a bare URL string).",
        ),
        epilog="exit codes: 0 answered, 1 request failed, 2 bad usage.",
        formatter_class=_formatter,
    )
    links.add_argument("url", metavar="URL", help="the URL to GET")
    links.add_argument("--json", action="store_true", help="one JSON object per link and line")

    explain = commands.add_parser(
        "explain",
        prog="restwalk explain",
        help="explain a status code, header or method",
        description=_text(
            "Explain a status code (418), a header (Retry-After) or a method "
            "(PATCH): the rule, what it means, and what to do next.",
        ),
        epilog="exit codes: 0 explained, 2 unknown topic.",
        formatter_class=_formatter,
    )
    explain.add_argument("topic", metavar="TOPIC", help="e.g. 404, Retry-After, PATCH")
    return parser


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
        raise UsageError(f"cannot read body file {name!r}: {exc.strerror or exc}") from None


def _absolute(url: str) -> str:
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
    url = _absolute(args.url)
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


def _client(args: argparse.Namespace) -> Client:
    from explorer.core.client import Client

    return Client(
        http2=args.http2,
        http2_prior_knowledge=args.http2_prior_knowledge,
        verify=not args.insecure,
        timeout=args.timeout,
        follow_redirects=not args.no_redirects,
        max_redirects=args.max_redirects,
    )


# --- output -------------------------------------------------------------------------------


def _explanation(exchange: Exchange) -> list[str]:
    """The knowledge's words on this status, and its advice, as ``# `` lines."""
    from explorer.core.knowledge import advise, status_info

    response = exchange.response
    lines: list[str] = []
    info = status_info(response.status)
    if info is not None:
        lines.append(f"# {info.title}: {info.meaning}")
    steps = advise(
        response.status,
        response.headers,
        exchange.final.method,
        body=response.body,
        request_headers=exchange.final.headers,
    )
    lines.extend(f"# next: {step}" for step in steps)
    return lines


def pretty_body(body: bytes, content_type: str | None) -> str:
    """The body for reading: JSON indented, text decoded, binary summarised."""
    import orjson

    from explorer.core.wire import body_text

    media_type = (content_type or "").split(";", 1)[0].strip().lower()
    if body and (media_type.endswith(("/json", "+json")) or body.lstrip()[:1] in (b"{", b"[")):
        try:
            document = orjson.loads(body)
        except orjson.JSONDecodeError:
            pass
        else:
            return orjson.dumps(document, option=orjson.OPT_INDENT_2).decode("utf-8")
    return body_text(body, content_type)


def format_exchange(exchange: Exchange, *, verbose: bool = False) -> str:
    """A whole exchange as text: hops, status line explained, headers, body."""
    from explorer.core.wire import mask_header

    lines: list[str] = []
    for hop in exchange.hops:
        if verbose:
            lines += [hop.request.text, ""]
        response = hop.response
        lines.append(
            f"{response.http_version} {response.status} {response.reason}  "
            f"({hop.request.method} {hop.request.url} -> {response.header('location')})"
        )
    if verbose:
        lines += [exchange.final.text, ""]
    response = exchange.response
    lines.append(f"{response.http_version} {response.status} {response.reason}".rstrip())
    lines += _explanation(exchange)
    lines += [f"{name}: {mask_header(name, value)}" for name, value in response.headers]
    text = "\n".join(lines)
    body = pretty_body(response.body, response.header("content-type"))
    return f"{text}\n\n{body}" if body else text


def exchange_json(exchange: Exchange) -> bytes:
    """An exchange as one JSON object (credentials masked)."""
    import orjson

    from explorer.core.wire import body_text, mask_header

    def headers(pairs: tuple[tuple[str, str], ...]) -> list[list[str]]:
        return [[k, mask_header(k, v)] for k, v in pairs]

    response = exchange.response
    document: dict[str, object] = {
        "request": {
            "method": exchange.request.method,
            "url": exchange.request.url,
            "headers": headers(exchange.request.headers),
        },
        "hops": [
            {
                "method": hop.request.method,
                "url": hop.request.url,
                "status": hop.response.status,
                "location": hop.response.header("location"),
            }
            for hop in exchange.hops
        ],
        "response": {
            "url": response.url,
            "http_version": response.http_version,
            "status": response.status,
            "reason": response.reason,
            "headers": headers(response.headers),
            "body": body_text(response.body, response.header("content-type")),
        },
        "timings": {"headers": exchange.timings.headers, "total": exchange.timings.total},
    }
    with contextlib.suppress(orjson.JSONDecodeError):
        if response.body.lstrip()[:1] in (b"{", b"["):
            document["response"]["json"] = orjson.loads(response.body)  # type: ignore[index]
    return orjson.dumps(document)


def links_of(exchange: Exchange) -> list[Link]:
    """Every link in the exchange's final response."""
    from explorer.core.hypermedia import find_links

    response = exchange.response
    return find_links(
        response.url, response.status, response.headers, response.body, response.media_type
    )


def pick_link(links: Sequence[Link], rel: str) -> Link | None:
    """The first link with relation ``rel``: exact, then ignoring case, then a CURIE's name."""
    wanted = rel.lower()
    for exact in (True, False):
        for link in links:
            if link.rel == rel if exact else link.rel.lower() == wanted:
                return link
    for link in links:
        if link.rel.rpartition(":")[2].lower() == wanted:
            return link
    return None


def _rels(links: Sequence[Link]) -> str:
    rels = list(dict.fromkeys(link.rel for link in links))
    return ", ".join(rels) if rels else "none"


def _target(link: Link) -> str:
    if not link.templated:
        return link.href
    from explorer.core.templates import TemplateError, expand_template

    try:
        return expand_template(link.href, {})
    except TemplateError as exc:
        raise FollowError(f"the {link.rel!r} link is a broken template: {exc}") from None


def format_link(link: Link, widths: tuple[int, int]) -> str:
    """One line: relation, method, href, title, where found."""
    title = f'"{link.title}"' if link.title else "-"
    where = link.source + (", guessed" if link.guess else "")
    return f"{link.rel:<{widths[0]}}  {link.method:<{widths[1]}}  {link.href}  {title}  [{where}]"


# --- commands -----------------------------------------------------------------------------


async def _request(args: argparse.Namespace, out: list[str]) -> int:
    spec = spec_from(args, args.method)
    async with _client(args) as client:
        exchange = await client.send(spec)
        for rel in args.follow:
            links = links_of(exchange)
            link = pick_link(links, rel)
            if link is None:
                out.append(_shown(exchange, args))
                raise FollowError(
                    f"no link with relation {rel!r} in the response of "
                    f"{exchange.response.url}; available: {_rels(links)}"
                )
            out.append(_shown(exchange, args, step=f"follow {rel!r}: {link.method} {link.href}"))
            spec = replace(
                spec, method=link.method, url=_target(link), query=(), body=None, content_type=None
            )
            exchange = await client.send(spec)
        out.append(_shown(exchange, args))
    return EXIT_OK


def _shown(exchange: Exchange, args: argparse.Namespace, step: str | None = None) -> str:
    """How one exchange of a walk is printed: in full at the end, briefly on the way."""
    if args.json:
        return exchange_json(exchange).decode("utf-8")
    if step is None:
        return format_exchange(exchange, verbose=args.verbose) + "\n"
    response = exchange.response
    line = f"{response.http_version} {response.status} {response.reason}  ({response.url})"
    return f"{line}\n-> {step}\n"


async def _links(args: argparse.Namespace, out: list[str]) -> int:
    import orjson

    spec = spec_from(args)
    async with _client(args) as client:
        exchange = await client.send(spec)
    links = links_of(exchange)
    if args.json:
        out.extend(orjson.dumps(asdict(link), default=str).decode("utf-8") for link in links)
        return EXIT_OK
    if not links:
        print(
            f"restwalk: no links found in the response of {exchange.response.url}", file=sys.stderr
        )
        return EXIT_OK
    widths = (max(len(link.rel) for link in links), max(len(link.method) for link in links))
    out.extend(format_link(link, widths) for link in links)
    return EXIT_OK


def _explain(topic: str) -> int:
    from explorer.core.knowledge import explain

    explanation = explain(topic)
    if explanation is None:
        raise UsageError(
            f"nothing known about {topic!r}: give a status code (404), a header "
            "(Retry-After) or a method (PATCH)"
        )
    sys.stdout.write(explanation.to_text().rstrip("\n") + "\n")
    return EXIT_OK


def _tui(argv: list[str]) -> int:
    if len(argv) > 1:
        raise UsageError(
            f"unknown command {argv[0]!r}: give one URL, or one of {', '.join(COMMANDS)} "
            "(see 'restwalk --help')"
        )
    url = _absolute(argv[0]) if argv else None
    try:
        from explorer.ui.app import run
    except ModuleNotFoundError as exc:
        raise UsageError(f"the terminal UI cannot start: {exc}") from None
    return int(run(url))


def _dispatch(argv: list[str]) -> int:
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        return _tui(argv)
    args = build_parser().parse_args(argv)
    if args.command is None:
        raise UsageError("give a URL or a command (see 'restwalk --help')")
    if args.command == "explain":
        return _explain(args.topic)
    out: list[str] = []
    runner = _request if args.command == "request" else _links
    try:
        code = asyncio.run(runner(args, out))
    finally:
        if out:
            sys.stdout.write("\n".join(out).rstrip("\n") + "\n")
            sys.stdout.flush()
    return code


def _fail(message: str, code: int) -> int:
    sys.stdout.flush()
    print(f"restwalk: {' '.join(message.split())}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``restwalk`` with ``argv`` (default: the process arguments); returns the exit code."""
    from explorer.core.errors import InvalidRequest, RestwalkError

    args = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError):
            stream.reconfigure(errors="replace")  # type: ignore[union-attr]
    try:
        return _dispatch(args)
    except SystemExit as exc:  # --help and --version exit through argparse
        return exc.code if isinstance(exc.code, int) else EXIT_OK
    except UsageError as exc:
        return _fail(str(exc), EXIT_USAGE)
    except FollowError as exc:
        return _fail(str(exc), EXIT_FAILED)
    except InvalidRequest as exc:
        return _fail(f"{exc.message} {exc.hint}", EXIT_USAGE)
    except RestwalkError as exc:
        return _fail(f"{exc.message} {exc.hint}", EXIT_FAILED)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:
        # The reader went away (``restwalk links URL | head``): stop quietly.
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
    except Exception as exc:
        if os.environ.get("RESTWALK_DEBUG"):
            raise
        return _fail(f"internal error: {type(exc).__name__}: {exc}", EXIT_FAILED)
