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

import asyncio
import contextlib
import gc
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import replace
from http import HTTPStatus
from typing import TYPE_CHECKING

from explorer.cli_options import (
    COMMANDS,
    UsageError,
    absolute_url,
    client_from,
    spec_from,
    template_variables,
)
from explorer.core.hypermedia.embedded import is_embedded

if TYPE_CHECKING:
    import argparse

    from explorer.core.exchange import Exchange
    from explorer.core.link import Link

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


class FollowError(Exception):
    """A ``--follow`` relation is not in the response: one line on stderr, exit 1."""


# --- following links ----------------------------------------------------------------------


def links_of(exchange: Exchange) -> list[Link]:
    """Every link in the exchange's final response."""
    from explorer.core.hypermedia import find_links

    response = exchange.response
    return find_links(
        response.url, response.status, response.headers, response.body, response.media_type
    )


#: Where the links of an embedded resource are found: HAL ``_embedded``, Siren
#: sub-entities, JSON:API ``data`` arrays and ``included``, Collection+JSON
#: items, XML ``<embedded>`` groups and Atom entries.
def _match(links: Sequence[Link], rel: str) -> Link | None:
    wanted = rel.lower()
    for exact in (True, False):
        for link in links:
            if link.rel == rel if exact else link.rel.lower() == wanted:
                return link
    for link in links:
        if link.rel.rpartition(":")[2].lower() == wanted:
            return link
    return None


def pick_link(links: Sequence[Link], rel: str) -> Link | None:
    """The first link with relation ``rel``: exact, then ignoring case, then a CURIE's name.

    The response's own links come before those of the resources it embeds (a
    Siren page lists its items' ``self`` links before its own). ``item``, when
    no link has that relation, is the first embedded resource: its ``self``
    link (in a HAL, Siren, JSON:API or XML page the items are embedded, and
    their links are all they say about where they live).
    """
    own = [link for link in links if not is_embedded(link)]
    embedded = [link for link in links if is_embedded(link)]
    found = _match(own, rel) or _match(embedded, rel)
    if found is None and rel.lower() == "item":
        found = next((link for link in embedded if link.rel == "self"), None)
    return found


def _rels(links: Sequence[Link]) -> str:
    rels = list(dict.fromkeys(link.rel for link in links))
    return ", ".join(rels) if rels else "none"


def _target(link: Link, variables: dict[str, str]) -> str:
    """Where following ``link`` goes: a template is expanded with ``variables`` (--var)."""
    if not link.templated:
        return link.href
    from explorer.core.templates import TemplateError, expand_template

    try:
        return expand_template(link.href, variables)
    except TemplateError as exc:
        raise FollowError(f"the {link.rel!r} link is a broken template: {exc}") from None


# --- commands -----------------------------------------------------------------------------


async def _request(args: argparse.Namespace, out: list[str]) -> int:
    spec = spec_from(args, args.method)
    variables = template_variables(args.var)
    async with client_from(args) as client:
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
            target = _target(link, variables)
            step = f"follow {rel!r}: {link.method} {link.href}"
            if target != link.href:
                step += f" (expanded: {target})"
            out.append(_shown(exchange, args, step=step))
            spec = replace(
                spec, method=link.method, url=target, query=(), body=None, content_type=None
            )
            exchange = await client.send(spec)
        out.append(_shown(exchange, args))
    return EXIT_OK


def _shown(exchange: Exchange, args: argparse.Namespace, step: str | None = None) -> str:
    """How one exchange of a walk is printed: in full at the end, briefly on the way."""
    from explorer.cli_output import exchange_json, format_exchange

    if args.json:
        return exchange_json(exchange).decode("utf-8")
    if step is None:
        return format_exchange(exchange, verbose=args.verbose) + "\n"
    response = exchange.response
    line = f"{response.http_version} {response.status} {response.reason}  ({response.url})"
    return f"{line}\n-> {step}\n"


async def _links(args: argparse.Namespace, out: list[str]) -> int:
    from explorer.cli_output import format_links, link_json

    spec = spec_from(args)
    async with client_from(args) as client:
        exchange = await client.send(spec)
    links = links_of(exchange)
    response = exchange.response
    if response.status >= HTTPStatus.BAD_REQUEST:
        # Still an answer (exit 0), but its links are the error's, not the resource's.
        print(
            f"restwalk: note: {response.url} answered {response.status} {response.reason}; "
            "the links below are that answer's",
            file=sys.stderr,
        )
    if args.json:
        out.extend(link_json(link) for link in links)
    elif links:
        out.extend(format_links(links))
    else:
        print(f"restwalk: no links in the response of {response.url}", file=sys.stderr)
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


def _looks_like_a_command(word: str) -> bool:
    """True for a lone word that cannot be meant as a URL: no dot, colon or slash."""
    return word != "localhost" and re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", word) is not None


def check_terminal() -> None:
    """Raise :class:`UsageError` unless keys come from a terminal and the screen goes to one.

    The TUI reads keys from stdin and draws on stderr (as Textual does). Started
    with either redirected (a script, ``restwalk < file``, a background job) it
    could never be used, and Textual would spin on the closed input.
    """
    for name, stream in (("stdin", sys.stdin), ("stderr", sys.__stderr__)):
        if stream is None or not stream.isatty():
            raise UsageError(
                f"the TUI needs a terminal, and {name} is not one; in scripts use "
                "'restwalk request METHOD URL' or 'restwalk links URL'"
            )


def _tui(argv: list[str]) -> int:
    if len(argv) > 1 or (argv and _looks_like_a_command(argv[0])):
        import difflib

        close = difflib.get_close_matches(argv[0], COMMANDS, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        host = f" (http://{argv[0]}/ for a host of that name)" if len(argv) == 1 else ""
        raise UsageError(
            f"unknown command {argv[0]!r}: {hint}give one URL{host}, or one of "
            f"{', '.join(COMMANDS)} (see 'restwalk --help')"
        )
    url = absolute_url(argv[0]) if argv else None
    check_terminal()
    from explorer.core.tls import load_default_context

    tls = load_default_context()  # OpenSSL reads the CA bundle while the UI imports
    # Importing the UI and the mock server makes many objects and no garbage:
    # cyclic collection then only costs time (about 45 ms of 400 ms here). The app
    # turns it back on once its first frame is painted (see RestwalkApp.on_mount).
    gc.disable()
    try:
        from explorer.ui.app import run
    except ModuleNotFoundError as exc:
        gc.enable()
        raise UsageError(f"the terminal UI cannot start: {exc}") from None
    try:
        return int(run(url, tls=tls))
    finally:
        gc.enable()


def _dispatch(argv: list[str]) -> int:
    from explorer.core.errors import DecodingError, NetworkError, ProtocolError

    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        return _tui(argv)
    from explorer.cli_parser import build_parser

    args = build_parser().parse_args(argv)
    if args.command is None:
        raise UsageError("give a URL or a command (see 'restwalk --help')")
    if args.command == "explain":
        return _explain(args.topic)
    out: list[str] = []
    runner = _request if args.command == "request" else _links
    try:
        code = asyncio.run(runner(args, out))
    except (ProtocolError, NetworkError) as exc:
        # An HTTP/1.1 server answers the h2c preface with an error and hangs up:
        # the client reads either that answer (a protocol error) or, when the
        # close comes first, a reset (a network error). Both mean the same here.
        if args.http2_prior_knowledge and not isinstance(exc, DecodingError):
            exc.hint = (
                "With --http2-prior-knowledge the server must speak HTTP/2 in cleartext "
                "(h2c), and many speak only HTTP/1.1 there: try without it."
            )
        raise
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
