"""``restwalk request METHOD URL [--follow WORDS]...``: one request, then a walk of links.

It prints plain text (or JSON lines with ``--json``), on the same core the TUI
uses: ``--follow`` chooses links exactly as the links panel does
(:func:`explorer.core.session.choice.choose_link`, over the links in the
session's order).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.cli.commands.links import links_of
from explorer.cli.commands.network import run_printing
from explorer.cli.errors import FollowError, UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import client_from, spec_from, template_variables
from explorer.cli.parser import formatter, paragraphs

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.exchange import Exchange
    from explorer.core.link import Link

__all__ = ["add_parser", "run"]


def add_parser(
    commands: SubParsers,
    shared: argparse.ArgumentParser,
) -> None:
    """``restwalk request``'s parser."""
    request = commands.add_parser(
        "request",
        prog="restwalk request",
        parents=[shared],
        help="send one request and print the answer, explained",
        description=paragraphs(
            "Send one request and print the status line with its explanation, the "
            "headers and the body (JSON pretty-printed). Each --follow then follows "
            "the first link with that relation in the last response (exact name, then "
            "ignoring case, then a CURIE's local name: 'customers' finds 'rw:customers'; "
            "the response's own links before those of the resources it embeds); "
            "'item', when no link has that relation, is the first embedded resource. "
            "Templated links are followed with the values given by --var, and the "
            "other variables left out.",
        ),
        epilog=paragraphs(
            "METHOD is any token (GET, PATCH, BREW...); standard methods may be typed "
            "in lower case. A URL without scheme gets http://. --api-version without "
            "--version-style uses the /vN path segment.",
            "exit codes: 0 answered (any HTTP status), 1 the request failed or a "
            "--follow relation is not in the response (the last response is printed "
            "first), 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    request.add_argument("method", metavar="METHOD", help="GET, POST, PATCH... or any token")
    request.add_argument("url", metavar="URL", help="the absolute URL to request")
    request.add_argument(
        "-d", "--data", metavar="BODY", help="request body; @FILE reads a file, @- stdin"
    )
    request.add_argument(
        "--as-is",
        action="store_true",
        help="send -d as it is, even when it is not the JSON its Content-Type says",
    )
    request.add_argument(
        "--follow",
        action="append",
        default=[],
        metavar="WORDS",
        help="then follow the link WORDS name: a relation, a title, or N for the Nth "
        "line 'restwalk links' prints (repeatable, in order; actions are not followed)",
    )
    request.add_argument(
        "--var",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a variable of the templated links --follow takes (repeatable)",
    )
    request.add_argument(
        "--json", action="store_true", help="print each exchange as one JSON object per line"
    )
    request.add_argument(
        "-v", "--verbose", action="store_true", help="also print each request as sent"
    )
    request.add_argument(
        "--raw",
        action="store_true",
        help="print only the body: its exact bytes to a pipe or a file (on a terminal, "
        "control characters are shown, never sent to it)",
    )


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk request``."""
    return run_printing(_request, args)


def _target(link: Link, variables: dict[str, str]) -> str:
    """Where following ``link`` goes: a template is expanded with ``variables`` (--var)."""
    if not link.templated:
        return link.href
    from explorer.core.templates import TemplateError, expand_template

    try:
        return expand_template(link.href, variables)
    except TemplateError as exc:
        raise FollowError(f"the {link.rel!r} link is a broken template: {exc}") from None


async def _request(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    """``restwalk request METHOD URL [--follow WORDS]...``."""
    from explorer.core.session.choice import choose_link, relations
    from explorer.core.session.session import SAFE_METHODS

    spec = spec_from(args, args.method)
    variables = template_variables(args.var)
    if args.raw and args.json:
        raise UsageError("--raw and --json cannot be combined")
    async with client_from(args) as client:
        exchange = await client.send(spec)
        for words in args.follow:
            found = links_of(exchange)
            link = choose_link(found, words)
            if link is None:
                out.append(_shown(exchange, args))
                raise FollowError(
                    f"no link {words!r} (a relation, a title or a number) in the response of "
                    f"{exchange.response.url}; available: {relations(found)}"
                )
            if link.is_action and link.method not in SAFE_METHODS:
                out.append(_shown(exchange, args))
                raise UsageError(
                    f"{words!r} is an action ({link.method} {link.href}), and --follow only "
                    f"follows links that read; send it with 'restwalk request {link.method} "
                    f"{link.href}' and its -d body"
                )
            target = _target(link, variables)
            step = f"follow {words!r}: {link.method} {link.href}"
            if target != link.href:
                step += f" (expanded: {target})"
            if not args.raw:
                out.append(_shown(exchange, args, step=step))
            spec = replace(
                spec, method=link.method, url=target, query=(), body=None, content_type=None
            )
            exchange = await client.send(spec)
    if args.raw:
        from explorer.cli.output import write_raw

        response = exchange.response
        write_raw(response.body, response.header("content-type"))
    else:
        out.append(_shown(exchange, args))
    return ExitStatus.OK


def _shown(exchange: Exchange, args: argparse.Namespace, step: str | None = None) -> str:
    """How one exchange of a walk is printed: in full at the end, briefly on the way."""
    from explorer.cli.output import exchange_json, format_exchange

    if args.json:
        return exchange_json(exchange).decode("utf-8")
    if step is None:
        return format_exchange(exchange, verbose=args.verbose) + "\n"
    response = exchange.response
    line = f"{response.http_version} {response.status} {response.reason}  ({response.url})"
    return f"{line}\n-> {step}\n"
