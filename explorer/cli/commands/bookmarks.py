"""``restwalk bookmarks [NAME]``: list the rel-path bookmarks, or walk one and print where it led.

A bookmark is made in the TUI (``m``) and kept in ``bookmarks.json`` in the data
directory. Walking it follows its links from the entry point, as ``restwalk
request URL --follow ... --follow ...`` would, and prints the last answer like
``restwalk request``; ``--from URL`` starts at another entry point (the same API
served elsewhere). A bookmark made on the bundled mock server is walked on one
started here for the walk, as ``restwalk`` with no URL starts it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.commands.network import run_printing
from explorer.cli.errors import CommandError, FollowError, UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import absolute_url, client_from, spec_from

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.http.exchange import Exchange
    from explorer.core.session.trail import Page
    from explorer.core.storage.bookmarks import Bookmark

__all__ = ["add_parser", "run"]


def add_parser(commands: SubParsers, shared: argparse.ArgumentParser) -> None:
    """``restwalk bookmarks``'s parser."""
    bookmarks = commands.add_parser(
        "bookmarks",
        prog="restwalk bookmarks",
        parents=[shared],
        help="list the bookmarks, or walk one and print where it leads",
        description=paragraphs(
            "Without NAME, list the bookmarks made in the TUI (m): each is an entry "
            "point and the links followed from it (a relation, narrowed by title, "
            "name or position as --follow words are).",
            "With NAME, follow that bookmark's links from its entry point, whatever "
            "URLs they carry now, and print the last answer as 'restwalk request' "
            "does. A step that no longer matches stops the walk and says which.",
        ),
        epilog=paragraphs(
            'examples: restwalk bookmarks; restwalk bookmarks "Ada\'s orders" '
            "--user alice:wonderland; restwalk bookmarks ada --from http://127.0.0.1:9000/",
            "exit codes: 0 answered, 1 the walk stopped (a step no longer matches, a "
            "request failed) or the bookmarks file is unusable, 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    bookmarks.add_argument(
        "name", nargs="?", metavar="NAME", help="the bookmark to walk (or its start)"
    )
    bookmarks.add_argument(
        "--from", dest="entry", metavar="URL", help="start at URL instead of the saved entry"
    )
    bookmarks.add_argument("--delete", metavar="NAME", help="forget the bookmark NAME")
    bookmarks.add_argument("--json", action="store_true", help="JSON lines")
    bookmarks.add_argument(
        "-v", "--verbose", action="store_true", help="also print each request as sent"
    )


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk bookmarks``."""
    from explorer.cli.keeping import open_keep
    from explorer.core.storage.bookmarks import BookmarksError

    store = open_keep(args).bookmarks
    try:
        if args.delete is not None:
            if args.name is not None:
                raise UsageError("--delete takes the name: give no NAME besides it")
            store.delete(args.delete)
            from explorer.cli.output import write_out

            write_out(f"Forgot the bookmark {args.delete!r}.\n")
            return ExitStatus.OK
        if args.name is None:
            _list(store.all(), as_json=args.json)
            return ExitStatus.OK
        args.bookmark = store.find(args.name)
    except BookmarksError as error:
        raise CommandError(str(error)) from None
    return run_printing(_walk, args)


def _list(bookmarks: list[Bookmark], *, as_json: bool) -> None:
    from explorer.cli.output import write_out
    from explorer.core.text.terminal_text import visible_line

    if as_json:
        import orjson

        from explorer.core.text.terminal_text import json_visible

        lines = [
            json_visible(
                orjson.dumps(
                    {
                        "name": b.name,
                        "entry": b.path.entry,
                        "path": [step.follow for step in b.path.steps],
                        "saved": b.saved,
                        "bundled_mock": b.bundled,
                    }
                )
            ).decode("utf-8")
            for b in bookmarks
        ]
        write_out("".join(f"{line}\n" for line in lines))
        return
    if not bookmarks:
        write_out("No bookmarks yet: press m in the TUI to bookmark the page shown.\n")
        return
    width = max(len(b.name) for b in bookmarks)
    write_out(
        "".join(
            f"{visible_line(b.name):<{width}}  {visible_line(b.path.entry)}"
            f"{' (the bundled mock server)' if b.bundled else ''}  "
            f"{visible_line(b.path.describe().partition(' > ')[2] or '(the entry point)')}\n"
            for b in bookmarks
        )
    )


async def _walk(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    """Follow the bookmark's path through a tab; print each step briefly, the last answer
    in full."""
    from explorer.cli.output import said_undecoded, say_withheld
    from explorer.core.session.tab import Tab

    bookmark: Bookmark = args.bookmark
    entry = absolute_url(args.entry) if args.entry else bookmark.path.entry
    with _bundled_mock(bookmark, args) as started:
        if started is not None:
            entry = started
        args.url = entry
        said: set[str] = set()
        async with client_from(args) as client:
            # Each step is made from the request the options describe, its secrets kept
            # to the entry point's origin.
            tab = Tab(client, given=spec_from(args))
            walked = await tab.walk(
                bookmark.path,
                entry=entry,
                on_send=lambda _spec, note: say_withheld(note, said),
                on_page=lambda page: _answered(page, said),
            )
    exchanges = [page.exchange for page in walked.pages if page.exchange is not None]
    for exchange, step in zip(exchanges, bookmark.path.steps, strict=False):
        if exchange is not exchanges[-1] or walked.problem is None:
            out.append(_brief(exchange, step.follow, args))
    if exchanges:
        out.append(_full(exchanges[-1], args))
    if walked.problem is not None:
        raise FollowError(walked.problem)
    return ExitStatus.FAILED if exchanges and said_undecoded(exchanges[-1]) else ExitStatus.OK


def _answered(page: Page, said: set[str]) -> None:
    """A page of the walk that failed ends it with its error (exit 1); what a redirect on
    its way went without is said."""
    from explorer.cli.commands.network import answered
    from explorer.cli.output import say_withheld

    say_withheld(answered(page).withheld, said)


@contextlib.contextmanager
def _bundled_mock(bookmark: Bookmark, args: argparse.Namespace) -> Iterator[str | None]:
    """For a bookmark made on the bundled mock server (and no --from): one started for the
    walk, and the bookmark's entry point on it; else None."""
    if not bookmark.bundled or args.entry:
        yield None
        return
    from explorer.cli.bundled_server import start_bundled_mock
    from explorer.core.bundled.rebase import rebase_url

    try:
        server, bundled = start_bundled_mock(0)
    except (OSError, RuntimeError) as error:
        raise CommandError(f"the bundled mock server could not start: {error}") from None
    keep = getattr(args, "keep", None)
    if keep is not None and keep.recorder is not None:  # kept as made on the bundled mock
        keep.recorder.bundled_origin = bundled.origin
    try:
        yield rebase_url(bookmark.path.entry, bundled.origin)
    finally:
        server.stop()


def _brief(exchange: Exchange, words: str, args: argparse.Namespace) -> str:
    from explorer.cli.output import exchange_json

    if args.json:
        return exchange_json(exchange).decode("utf-8")
    response = exchange.response
    line = f"{response.http_version} {response.status} {response.reason}  ({response.url})"
    return f"{line}\n-> follow {words!r}\n"


def _full(exchange: Exchange, args: argparse.Namespace) -> str:
    from explorer.cli.output import exchange_json, format_exchange

    if args.json:
        return exchange_json(exchange).decode("utf-8")
    return format_exchange(exchange, verbose=args.verbose) + "\n"
