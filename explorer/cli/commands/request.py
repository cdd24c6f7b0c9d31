"""``restwalk request METHOD URL [--follow WORDS]...``: one request, then a walk of links.

It prints plain text (or JSON lines with ``--json``), on the same core the TUI
uses: ``--follow`` chooses links exactly as the links panel does
(:func:`explorer.core.session.choice.choose_link`, over the links in the
session's order). With ``--all`` the last ``--follow`` is followed again and
again (``--follow next --all``: every page), at most ``--max-pages`` pages, and
what is printed is each page's items as JSON lines, page by page as they come,
then one line on stderr: how many items were read and why the walk stopped (exit 1
when the answer says there were more).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.commands.network import answered, run_printing, said_for
from explorer.cli.errors import CommandError, FollowError, UsageError, refused
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import client_from, spec_from, template_variables
from explorer.core.carry import EXPORT_FORMATS
from explorer.core.http.upload import MAX_UPLOAD
from explorer.core.text.plural import counted

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.http.exchange import Exchange
    from explorer.core.http.request import RequestSpec
    from explorer.core.session import Next, Page
    from explorer.core.session.tab import Tab

__all__ = ["DEFAULT_MAX_PAGES", "add_parser", "run"]

#: Pages ``--all`` reads at most unless ``--max-pages`` says otherwise.
DEFAULT_MAX_PAGES = 100


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
            "headers and the body (JSON pretty-printed). To a pipe or a file (restwalk "
            "request URL > file), as curl and HTTPie write it, stdout gets the body as "
            "received (its content-coding undone) and the rest goes to stderr. Each "
            "--follow then follows "
            "the first link with that relation in the last response (exact name, then "
            "ignoring case, then a CURIE's local name: 'customers' finds 'rw:customers'; "
            "the response's own links before those of the resources it embeds); "
            "'item', when no link has that relation, is the first embedded resource. "
            "Templated links are followed with the values given by --var, and the "
            "other variables left out.",
            "WORDS may narrow a relation by title or name and pick the Nth match: "
            "'child[title=books]', 'item[name=author]', 'next#2'; a URI relation "
            "('http://x.io/rels/order-items') may be named by its last segment "
            "('order-items') when no other relation ends so.",
            "With --all the last --follow is followed again until a page has no such "
            "link (or --max-pages pages were read, or a page comes back): "
            "'--follow next --all' prints every page's items (HAL _embedded, DRF "
            "results, JSON:API data, OData value, Eve _items, tastypie objects, Siren "
            "entities, a JSON array...) as JSON lines, then says on stderr how many it "
            "read and why it stopped; it exits 1 when the answer says there are more "
            "(a total, a page count, has_more) than were read.",
            "An answer whose body does not end (server-sent events, JSON lines, a JSON "
            "text sequence) is printed as it comes, event by event, after its head: an "
            "event stream that breaks is reconnected after its retry: with "
            "Last-Event-ID, as a browser does. It ends with the stream, after "
            "--max-events events, after --max-time seconds (by default 60, as any "
            "exchange; with --stream none), or with ctrl+c. --stream also reads text "
            "sent in chunks with no length line by line.",
        ),
        epilog=paragraphs(
            "METHOD is any token (GET, PATCH, BREW...); standard methods may be typed "
            "in lower case. A URL without scheme gets http://. --api-version without "
            "--version-style uses the /vN path segment.",
            "exit codes: 0 answered (any HTTP status), 1 the request failed, the body "
            "could not be decoded (coded more than 5 times: it is printed as received) "
            "or a --follow relation is not in the response (the last response is "
            "printed first), or a stream broke for good, 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    request.intermixed = True  # a Parser: options between METHOD and URL (see its docstring)
    request.add_argument(
        "method", metavar="METHOD", nargs="?", help="GET, POST, PATCH... or any token"
    )
    request.add_argument("url", metavar="URL", nargs="?", help="the absolute URL to request")
    request.add_argument(
        "-d",
        "--data",
        metavar="BODY",
        help=f"request body; @FILE sends a file (at most {MAX_UPLOAD // 1_000_000} MB), @- stdin",
    )
    request.add_argument(
        "-F",
        "--form",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a multipart/form-data field, as curl's -F: NAME=text or NAME=@FILE "
        "(';type=image/png', ';filename=x.png' after it); repeatable",
    )
    request.add_argument(
        "--from-curl",
        metavar="'curl ...'",
        help="build the request from a curl command line; the other options override or "
        "add to it ($VARIABLES come from the environment; without -L no redirect is followed)",
    )
    request.add_argument(
        "--as",
        dest="export",
        choices=tuple(EXPORT_FORMATS),
        help="print the request as that tool's command line (or .http text) instead of sending it",
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
        "--all",
        action="store_true",
        help="follow the last --follow again and again, printing each page's items as JSON lines",
    )
    request.add_argument(
        "--max-pages",
        type=int,
        default=DEFAULT_MAX_PAGES,
        metavar="N",
        help=f"with --all, read at most N pages (default {DEFAULT_MAX_PAGES})",
    )
    request.add_argument(
        "--stream",
        action="store_true",
        help="read a body that does not end until it ends, --max-events, --max-time or "
        "ctrl+c (chunked text with no length too), printing each event as it comes",
    )
    request.add_argument(
        "--max-events",
        type=int,
        metavar="N",
        help="stop a stream after N events",
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
        "control characters are shown, never sent to it); the same as --print b",
    )
    request.add_argument(
        "--print",
        dest="print_parts",
        metavar="WHAT",
        help="print only these parts of the last exchange, as HTTPie does: H request "
        "headers, B request body, h response headers, b response body (--print hb); "
        "bodies go to a pipe as their exact bytes",
    )
    request.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the response body (its exact bytes) to FILE, replacing it only once "
        "the whole body came; stdout gets the rest ('-o -': the body to stdout)",
    )


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk request``: send it, or with ``--as`` print it."""
    args.spec = _spec(args)
    if args.export is not None:
        from explorer.cli.carry_options import exported
        from explorer.cli.output import write_out

        if args.follow:
            raise UsageError("--as prints the request instead of sending it: leave out --follow")
        write_out(exported(args, args.spec) + "\n")
        return ExitStatus.OK
    return run_printing(_request, args)


def _spec(args: argparse.Namespace) -> RequestSpec:
    """The request METHOD URL and the options describe, or the --from-curl line with them."""
    if args.from_curl is None:
        if not args.method or not args.url:
            raise UsageError("give METHOD and URL, or --from-curl 'curl ...'")
        return spec_from(args, args.method)
    from explorer.cli.carry_options import curl_command, merged, with_curl

    if args.method and not args.url and "/" in args.method:
        args.method, args.url = None, args.method  # restwalk request URL --from-curl ...
    command = curl_command(args.from_curl)
    with_curl(args, command)
    given = spec_from(args, args.method or command.spec.method, url=args.url or command.spec.url)
    return merged(command.spec, given, args)


async def _request(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    """``restwalk request METHOD URL [--follow WORDS]... [--all]``: the tab follows, this prints."""
    from explorer.cli.output import said_undecoded
    from explorer.core.session.tab import Tab

    spec: RequestSpec = args.spec
    variables = template_variables(args.var)
    if args.raw and args.json:
        raise UsageError("--raw and --json cannot be combined")
    parts = _parts(args)
    if args.all and not args.follow:
        raise UsageError("--all follows the last --follow again and again: add --follow next")
    if args.all and (args.raw or args.json or parts is not None or args.output):
        raise UsageError(
            "--all prints JSON lines of items: leave out --raw, --json, --print and -o"
        )
    if args.max_pages < 1:
        raise UsageError(f"--max-pages must be 1 or more, not {args.max_pages}")
    if args.max_events is not None and args.max_events < 1:
        raise UsageError(f"--max-events must be 1 or more, not {args.max_events}")
    if args.stream and (args.all or parts is not None or args.output):
        raise UsageError(
            "--stream prints each event as it comes: leave out --all, --raw, --print and -o"
        )
    walk = args.follow[:-1] if args.all else args.follow
    said: set[str] = set()
    live = not args.all  # a stream is read as it comes (--all reads pages of items)
    async with client_from(args) as client:
        tab = Tab(client, given=spec)
        page = await tab.load(spec, live=live, text=args.stream)
        exchange = said_for(page, said)
        for words in walk:
            page = await tab.read(page)
            step = _step(tab, page, words, variables, args, out)
            assert step.link is not None
            link = step.link
            line = f"follow {words!r}: {link.method} {link.href}"
            if step.spec.url != link.href:
                line += f" (expanded: {step.spec.url})"
            if parts is None and not args.all:
                out.append(_shown(exchange, args, step=line))
            page = await tab.load(
                step.spec, step.via, withheld=step.withheld, live=live, text=args.stream
            )
            exchange = said_for(page, said)
        if args.all:
            return await _all_pages(tab, page, args, variables, said)
        if tab.live is not None:
            from explorer.cli.stream_output import print_stream

            if parts is not None or args.output:
                framing = tab.live.framing.value
                await tab.stop_live()
                raise CommandError(
                    f"the answer is a stream ({framing}): its events are printed as they "
                    "come; leave out --raw, --print and -o"
                )
            out.append(_shown(exchange, args))
            return await print_stream(tab, args, out)
    _print(exchange, args, parts, out)
    return ExitStatus.FAILED if said_undecoded(exchange) else ExitStatus.OK


def _parts(args: argparse.Namespace) -> str | None:
    """The letters of what is printed (None: the whole exchange, explained, as ever).

    ``--raw`` is ``--print b``; with ``-o FILE`` the body goes to the file, not stdout.
    """
    from explorer.cli.print_parts import parse_print

    parts = None if args.print_parts is None else parse_print(args.print_parts)
    if parts is not None and (args.raw or args.json or args.verbose):
        raise UsageError("--print chooses what is printed: leave out --raw, --json and -v")
    if args.raw:
        parts = "b"
    if args.output == "-":
        if (parts is not None and parts != "b") or args.json:
            raise UsageError("-o - writes the body to stdout: it takes no --print or --json")
        return "b"
    if args.output and args.json:
        raise UsageError("-o FILE writes the body: --json prints it too, leave one out")
    if args.output:
        from explorer.cli.print_parts import check_output

        check_output(args.output)
    if args.output and parts is not None:
        parts = parts.replace("b", "")
    return parts


def _print(exchange: Exchange, args: argparse.Namespace, parts: str | None, out: list[str]) -> None:
    """Print the last exchange as the options ask, and write its body to ``-o FILE``.

    The whole exchange, explained, goes to a terminal; to a pipe or a file, its body
    as received (its content-coding undone), and the rest, explained, to stderr.
    """
    from explorer.cli.output import to_terminal, write_bytes, write_err

    if args.output and args.output != "-":
        from explorer.cli.print_parts import save_body

        save_body(args.output, exchange.response.body)
        if parts is None:
            # The whole exchange but its body, which went to the file.
            shown = replace(exchange, response=replace(exchange.response, body=b""))
            size = len(exchange.response.body)
            out.append(_shown(shown, args).rstrip("\n"))
            out.append(f"# body: {counted(size, 'byte')} written to {args.output}\n")
            return
    if parts is None and not args.json and not to_terminal():
        # A pipe or a file gets the body as received, as curl and HTTPie write it (``>
        # file`` gets the bytes); what is said for a person goes to stderr.
        shown = replace(exchange, response=replace(exchange.response, body=b""))
        out.append(_shown(shown, args))
        write_err("\n".join(out).rstrip("\n") + "\n")
        out.clear()
        write_bytes(exchange.response.body)
    elif parts is None:
        out.append(_shown(exchange, args))
    elif parts:
        from explorer.cli.print_parts import write_parts

        write_parts(exchange, parts)


def _step(
    tab: Tab,
    page: Page,
    words: str,
    variables: dict[str, str],
    args: argparse.Namespace,
    out: list[str],
) -> Next:
    """What following the link ``words`` name on ``page`` sends; a clear error when there is
    none or when it would change something (the response is printed first, unless --all)."""
    from explorer.core.session.errors import FollowRefused

    try:
        return tab.follow_words(page, words, variables)
    except FollowRefused as error:
        if not args.all:
            out.append(_shown(answered(page), args))
        raise refused(error) from None


async def _all_pages(
    tab: Tab,
    first: Page,
    args: argparse.Namespace,
    variables: dict[str, str],
    said: set[str],
) -> ExitStatus:
    """Print the items of ``first`` and of every page the last --follow leads to, as the
    tab walks them (:meth:`~explorer.core.session.tab.Tab.pages`), then one line on
    stderr: how many items were read, why the walk ended, and what the answer says is
    left. Exit 1 when the answer says there are more than were read.

    Each page is printed as it arrives (a pipe into ``head`` sees the first page at
    once). The walk ends where a page has no such link, at a page already read, at a
    page that repeats one, after --max-pages pages, or at a page that failed (exit 1).
    """
    from explorer.cli.output import error_line, write_out
    from explorer.core.session.errors import FollowRefused

    words = args.follow[-1]
    walk = tab.pages(first, words, variables, args.max_pages)
    try:
        async for walked in walk:
            said_for(walked.page, said)
            write_out(_item_lines(walked.items))
    except FollowRefused as error:
        raise refused(error) from None
    tally = walk.tally
    if walk.failed is not None:
        before = f"; {tally.read()} printed before it" if tally.pages else ""
        short = tally.short()
        before += f"; {short}" if short else ""
        if walk.failed.error is not None:
            error_line(f"{walk.ended}{before}")
            said_for(walk.failed, said)  # raises its error (exit 1)
        raise FollowError(f"{walk.ended}{before}")
    why = walk.ended
    if walk.beyond is not None:
        why = (
            f"stopped after {counted(tally.pages, 'page')} (--max-pages {args.max_pages}); "
            f"the last one has a {words!r} link: {walk.beyond}"
        )
    error_line(tally.ending(why))
    return ExitStatus.FAILED if tally.short() else ExitStatus.OK


def _item_lines(items: list[object]) -> str:
    """A page's items, one JSON document a line."""
    import orjson

    from explorer.core.text.terminal_text import json_visible

    lines = [json_visible(orjson.dumps(item)).decode("utf-8") for item in items]
    return "".join(f"{line}\n" for line in lines)


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
