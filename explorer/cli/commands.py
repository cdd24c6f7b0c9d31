"""``restwalk request``, ``restwalk links`` and ``restwalk explain``: one run, plain text.

Each prints plain text (or JSON lines with ``--json``), on the same core the
TUI uses: ``--follow`` chooses links exactly as the links panel does
(:func:`explorer.core.session.choice.choose_link`, over the links in the
session's order).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from http import HTTPStatus
from typing import TYPE_CHECKING

from explorer.cli.errors import FollowError, UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import client_from, spec_from, template_variables

if TYPE_CHECKING:
    import argparse

    from explorer.core.exchange import Exchange
    from explorer.core.link import Link

__all__ = ["explain", "links", "links_of", "request"]


def links_of(exchange: Exchange) -> tuple[Link, ...]:
    """Every link in the exchange's final response, in the session's order."""
    return _search(exchange)[0]


def _search(exchange: Exchange) -> tuple[tuple[Link, ...], str | None]:
    """The links of the final response in the session's order, and why the search
    stopped early (None when it read the whole response)."""
    from explorer.core.hypermedia import search_links
    from explorer.core.session.ordering import ordered

    response = exchange.response
    search = search_links(
        response.url, response.status, response.headers, response.body, response.media_type
    )
    return ordered(tuple(search.links)), search.stopped


def _target(link: Link, variables: dict[str, str]) -> str:
    """Where following ``link`` goes: a template is expanded with ``variables`` (--var)."""
    if not link.templated:
        return link.href
    from explorer.core.templates import TemplateError, expand_template

    try:
        return expand_template(link.href, variables)
    except TemplateError as exc:
        raise FollowError(f"the {link.rel!r} link is a broken template: {exc}") from None


async def request(args: argparse.Namespace, out: list[str]) -> ExitStatus:
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


async def links(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    """``restwalk links URL``: every link of the response, numbered as the TUI numbers them."""
    from explorer.cli.output import error_line, format_links, link_json
    from explorer.core.hypermedia import MAX_LINKS, MAX_SECONDS

    spec = spec_from(args)
    async with client_from(args) as client:
        exchange = await client.send(spec)
    found, stopped = _search(exchange)
    response = exchange.response
    if stopped is not None:
        error_line(
            f"note: not every link of {response.url} is listed: the search stops at "
            f"{MAX_LINKS:,} links or after {MAX_SECONDS:g} s, and {stopped}"
        )
    if response.status >= HTTPStatus.BAD_REQUEST:
        # Still an answer (exit 0), but its links are the error's, not the resource's.
        error_line(
            f"note: {response.url} answered {response.status} {response.reason}; "
            "the links below are that answer's"
        )
    if args.json:
        out.extend(link_json(link) for link in found)
    elif found:
        out.extend(format_links(found))
    else:
        error_line(f"no links in the response of {response.url}")
    return ExitStatus.OK


def explain(topic: str) -> ExitStatus:
    """``restwalk explain TOPIC``: a status code, header or method explained."""
    from explorer.core.knowledge import explain as explain_topic

    explanation = explain_topic(topic)
    if explanation is None:
        raise UsageError(
            f"nothing known about {topic!r}: give a status code (404), a header "
            "(Retry-After) or a method (PATCH)"
        )
    sys.stdout.write(explanation.to_text().rstrip("\n") + "\n")
    return ExitStatus.OK
