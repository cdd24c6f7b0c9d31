"""What ``restwalk map`` and ``restwalk audit`` share: the crawl's options, and running one.

Not a command of its own: the two commands add these options to their parsers
and run the crawl through :func:`run_crawl`, on the client the connection
options describe, with the credential and headers ``restwalk request`` takes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from explorer.cli.errors import UsageError
from explorer.cli.options import absolute_url, spec_from

if TYPE_CHECKING:
    import argparse

    from explorer.core.http.client import Client
    from explorer.core.survey.crawl import CrawlLimits, CrawlResult

__all__ = ["add_crawl_options", "limits_from", "run_crawl", "say_withheld_in"]


def add_crawl_options(parser: argparse.ArgumentParser, *, pages: int, seconds: float) -> None:
    """The crawl's bounds and manners, with the command's own defaults."""
    from explorer.core.survey.crawl import CrawlLimits

    defaults = CrawlLimits()
    group = parser.add_argument_group("how far and how fast")
    group.add_argument(
        "--depth",
        type=_count,
        default=defaults.max_depth,
        metavar="N",
        help=f"follow links at most N steps from URL (default {defaults.max_depth})",
    )
    group.add_argument(
        "--max-pages",
        type=_count,
        default=pages,
        metavar="N",
        help=f"send at most N GET requests (default {pages})",
    )
    group.add_argument(
        "--time-limit",
        type=_seconds,
        default=seconds,
        metavar="SECONDS",
        help=f"stop after this long, waits included (default {seconds:g})",
    )
    group.add_argument(
        "--per-resource",
        type=_count,
        default=defaults.per_resource,
        metavar="N",
        help="visit at most N URLs of one resource: /customers/1, /customers/2... "
        f"(default {defaults.per_resource})",
    )
    group.add_argument(
        "--delay",
        type=_non_negative,
        default=defaults.delay,
        metavar="SECONDS",
        help=f"wait this long between two requests (default {defaults.delay:g}); a 429 or "
        "503 with Retry-After is waited for and sent again",
    )
    group.add_argument(
        "--origin",
        action="append",
        default=[],
        metavar="URL",
        help="follow links to this origin too (repeatable; default: only URL's origin)",
    )
    group.add_argument(
        "--exclude",
        action="append",
        default=[],
        metavar="REGEX",
        help="do not visit paths this regular expression finds (repeatable): '^/admin'",
    )
    group.add_argument(
        "--no-options", action="store_true", help="do not ask each resource OPTIONS once"
    )
    group.add_argument(
        "--no-guesses",
        action="store_true",
        help="follow only links the API declares, not bare URLs the link finder guessed",
    )
    group.add_argument(
        "--progress", action="store_true", help="print each request's answer on stderr"
    )


def _count(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is less than 1")
    return value


def _seconds(text: str) -> float:
    import argparse

    value = _non_negative(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0 seconds leave no time for a request")
    return value


def _non_negative(text: str) -> float:
    import argparse

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text} is negative")
    return value


def limits_from(args: argparse.Namespace) -> CrawlLimits:
    """The crawl's bounds the options give."""
    from explorer.core.http.secret_rules import origin_of
    from explorer.core.survey.crawl import CrawlLimits

    origins = set()
    for given in args.origin:
        origin = origin_of(absolute_url(given))
        if not origin:
            raise UsageError(f"--origin {given!r} is not a URL: give http://HOST:PORT")
        origins.add(origin)
    patterns = []
    for text in args.exclude:
        try:
            patterns.append(re.compile(text))
        except re.error as exc:
            raise UsageError(f"--exclude {text!r} is not a regular expression: {exc}") from None
    timeout = args.max_time if args.max_time is not None else CrawlLimits.request_timeout
    return CrawlLimits(
        max_depth=args.depth,
        max_pages=args.max_pages,
        time_limit=args.time_limit,
        per_resource=args.per_resource,
        delay=args.delay,
        request_timeout=min(timeout, args.time_limit),
        options=not args.no_options,
        guesses=not args.no_guesses,
        origins=frozenset(origins),
        exclude=tuple(patterns),
    )


async def run_crawl(args: argparse.Namespace, client: Client) -> CrawlResult:
    """Crawl from ``args.url`` with the options' bounds, credential and headers."""
    from explorer.cli.output import error_line
    from explorer.core.survey.crawl import Visit, client_sends, crawl

    spec = spec_from(args)

    def progress(visit: Visit) -> None:
        error_line(f"{visit.status} {visit.final_url} (depth {visit.depth}, via {visit.via})")

    send, _ = client_sends(client)
    result = await crawl(
        spec.url,
        send,
        limits=limits_from(args),
        base=spec,
        on_visit=progress if args.progress else None,
    )
    say_withheld_in(result)
    return result


def say_withheld_in(result: CrawlResult) -> None:
    """Say on stderr, one line for each, what the crawl's requests to other origins went
    without."""
    from explorer.cli.output import say_withheld

    said: set[str] = set()
    for note in result.withheld:
        say_withheld(note, said)
