"""``restwalk map URL``: the API's resources, learned by following its safe links."""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.commands.network import run_printing
from explorer.cli.commands.survey import add_crawl_options, run_crawl
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import client_from

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers

__all__ = ["add_parser", "run"]


def add_parser(commands: SubParsers, shared: argparse.ArgumentParser) -> None:
    """``restwalk map``'s parser."""
    from explorer.core.survey.render_map import FORMATS

    parser = commands.add_parser(
        "map",
        prog="restwalk map",
        parents=[shared],
        help="map the API by following its links",
        description=paragraphs(
            "Follow the safe links of URL's answer, and of the answers they lead to, "
            "breadth first: GET only, never an action or a form; templates only when "
            "their variables are all query ones. Requests go one at a time, --delay "
            "apart, and a 429 or 503 with Retry-After is waited for within --time-limit. "
            "It stays on URL's origin unless --origin adds others.",
            "URLs that differ only by an id fold into one resource (/customers/{id}: "
            "numbers, UUIDs, hex hashes, long tokens, and words when a collection lists "
            "several as items). For each resource the map says the relations that lead "
            "to it, its statuses and media types, the methods it offers (from links, "
            "actions, forms, templates, Allow, and one OPTIONS request), its URI "
            "templates, query parameters and cache headers.",
        ),
        epilog=paragraphs(
            "--format tree (default) is for reading; json for scripts; mermaid and dot "
            "draw the map (mermaid.live, or 'dot -Tsvg map.dot > map.svg').",
            "exit codes: 0 URL answered (whatever the status), 1 URL got no answer, 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    parser.add_argument("url", metavar="URL", help="where the map starts (the API's root)")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="tree",
        help="tree (default), json, mermaid or dot",
    )
    add_crawl_options(parser, pages=200, seconds=60.0)


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk map``."""
    return run_printing(_map, args)


async def _map(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    from explorer.core.survey.render_map import render_map

    async with client_from(args) as client:
        result = await run_crawl(args, client)
    if not result.visits and result.failures:  # the entry itself got no answer
        raise result.failures[0].error
    out.append(render_map(result, args.format))
    return ExitStatus.OK
