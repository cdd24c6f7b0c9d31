"""``restwalk links URL [--follow WORDS]...``: every link of a response, numbered as the TUI
numbers them; with ``--follow``, of the page the links WORDS name lead to (as ``restwalk
request --follow`` walks)."""

from __future__ import annotations

from http import HTTPStatus
from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.commands.network import answered, run_printing, said_for
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import client_from, spec_from, template_variables

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers

__all__ = ["add_parser", "run"]


def add_parser(
    commands: SubParsers,
    shared: argparse.ArgumentParser,
) -> None:
    """``restwalk links``'s parser."""
    links = commands.add_parser(
        "links",
        prog="restwalk links",
        parents=[shared],
        help="list the links in a response",
        description=paragraphs(
            "GET the URL and list every link its response carries, one per line: "
            "relation, method, href, title, and where it was found (a header, or a JSON "
            "Pointer / element path in the body; 'guessed' for a bare URL string).",
            "Each --follow first follows a link, as 'restwalk request --follow' does: "
            "'restwalk links URL --follow customers --follow 3' follows the 'customers' "
            "link, then the third link listed on that page, and lists the links of the "
            "page it reaches.",
        ),
        epilog=paragraphs(
            "exit codes: 0 answered (a 4xx or 5xx answer too: a note on stderr says "
            "so, since its links are the error's), 1 request failed, the body could "
            "not be decoded or a --follow names no link, 2 bad usage."
        ),
        formatter_class=formatter,
    )
    links.add_argument("url", metavar="URL", help="the URL to GET")
    links.add_argument(
        "--follow",
        action="append",
        default=[],
        metavar="WORDS",
        help="first follow the link WORDS name: a relation, a title, or N for the Nth line "
        "this command prints (repeatable, in order; actions are not followed)",
    )
    links.add_argument(
        "--var",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a variable of the templated links --follow takes (repeatable)",
    )
    links.add_argument("--json", action="store_true", help="one JSON object per link and line")


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk links``."""
    return run_printing(_links, args)


async def _links(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    """``restwalk links URL``: every link of the response, numbered as the TUI numbers them
    (read by the tab, as the TUI reads them)."""
    from explorer.cli.errors import refused
    from explorer.cli.output import error_line, format_links, link_json, said_undecoded
    from explorer.core.session.errors import FollowRefused
    from explorer.core.session.tab import Tab

    given = spec_from(args)
    variables = template_variables(args.var)
    said: set[str] = set()
    async with client_from(args) as client:
        tab = Tab(client, given=given)
        page = await tab.load(given)
        said_for(page, said)
        for words in args.follow:
            page = await tab.read(page)
            try:
                step = tab.follow_words(page, words, variables)
            except FollowRefused as error:
                raise refused(error) from None
            page = await tab.load(step.spec, step.via, withheld=step.withheld)
            said_for(page, said)
        page = await tab.read(page)
    exchange = answered(page)
    found, stopped = page.links, page.links_stopped
    response = exchange.response
    if response.undecoded_codings:
        stopped = None  # the body was not read for links: said below, in one line
    if stopped is not None and (found or args.json):
        error_line(f"note: not every link of {response.url} is listed: {stopped}")
    elif page.links_found > len(found):
        error_line(
            f"note: {response.url} holds {page.links_found:,} links; the first "
            f"{len(found):,} are listed"
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
    elif stopped is not None:
        error_line(f"no links found in the response of {response.url}: {stopped}")
    elif not response.undecoded_codings:
        error_line(f"no links in the response of {response.url}")
    return ExitStatus.FAILED if said_undecoded(exchange) else ExitStatus.OK
