"""``restwalk history``: list, search, show, export (HAR) and import the history."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from explorer.cli.arguments import add_config_option, formatter, paragraphs
from explorer.cli.errors import CommandError, UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.core.text.plural import counted

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.storage.history import HistoryStore
    from explorer.core.storage.history_entry import HistoryEntry
    from explorer.core.storage.history_query import HistoryQuery

__all__ = ["DEFAULT_LIMIT", "add_parser", "run"]

#: Entries listed when --limit says nothing.
DEFAULT_LIMIT = 50


def add_parser(commands: SubParsers, shared: argparse.ArgumentParser) -> None:
    """``restwalk history``'s parser (it sends nothing: no connection options)."""
    history = commands.add_parser(
        "history",
        prog="restwalk history",
        help="list, search and export the exchanges kept in the history",
        description=paragraphs(
            "Every exchange the TUI and the commands make is kept in the history "
            "(config.toml's [history] sets how many, how large, and whether secrets "
            "are masked). Newest first; each filter narrows the list.",
            "--search reads words as the TUI's history search does: text the URL "
            "holds, a method (GET), a status or class (404, 4xx), since:2h or "
            "since:2026-11-26, until:2026-11-27.",
        ),
        epilog=paragraphs(
            "examples: restwalk history --search 'customers 4xx'; restwalk history "
            "--status 5xx --since 1d --json; restwalk history --har walk.har; "
            "restwalk history --import devtools.har; restwalk history --show 12",
            "exit codes: 0 done, 1 a file could not be read or written (or --import "
            "found no exchange it could keep), 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    history.add_argument("--search", default="", metavar="WORDS", help="URL text, method, status")
    history.add_argument(
        "--method", action="append", default=[], metavar="METHOD", help="only this method"
    )
    history.add_argument(
        "--status", action="append", default=[], metavar="CODE", help="only 404, or a class: 4xx"
    )
    history.add_argument("--since", metavar="TIME", help="from a date (2026-11-26) or 2h ago")
    history.add_argument("--until", metavar="TIME", help="before a date or time")
    history.add_argument(
        "--limit",
        type=int,
        metavar="N",
        help=f"at most N entries, newest first (default: {DEFAULT_LIMIT} listed, all "
        "exported; 0: all)",
    )
    output = history.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="one JSON object per entry and line")
    output.add_argument(
        "--har", metavar="FILE", help="write the entries as a HAR 1.2 file (- for stdout)"
    )
    output.add_argument(
        "--import",
        dest="import_file",
        metavar="FILE",
        help="keep the exchanges of a HAR file (from devtools, restwalk...) in the history",
    )
    output.add_argument("--show", type=int, metavar="ID", help="print one entry in full")
    output.add_argument("--clear", action="store_true", help="forget every entry")
    add_config_option(history)


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk history``."""
    from explorer.cli.keeping import open_keep

    keep = open_keep(args)
    try:
        if args.import_file is not None:
            return _import(keep.history, Path(args.import_file))
        if args.show is not None:
            return _show(keep.history, args.show)
        if args.clear:
            count = keep.history.clear()
            sys.stdout.write(f"Forgot {counted(count, 'entry', 'entries')}.\n")
            return ExitStatus.OK
        query = _query(args)
        if args.har is not None:
            return _export(keep.history, query, args.har, args.limit or None)
        limit = DEFAULT_LIMIT if args.limit is None else args.limit or None
        _list(keep.history.search(query, limit=limit), as_json=args.json)
        if not keep.config.enabled:
            from explorer.cli.output import error_line

            error_line("note: recording is off ([history] enabled = false in config.toml)")
        return ExitStatus.OK
    except _history_errors() as error:
        raise CommandError(str(error)) from None
    finally:
        keep.close()


def _history_errors() -> tuple[type[Exception], ...]:
    from explorer.core.storage.history import HistoryError

    return (HistoryError,)


def _query(args: argparse.Namespace) -> HistoryQuery:
    """The filters of the options, as one query; bad words are bad usage."""
    from explorer.core.http.request import STANDARD_METHODS
    from explorer.core.storage.history_query import (
        HistoryQuery,
        QueryError,
        parse_query,
        parse_status,
        parse_time,
    )

    if args.limit is not None and args.limit < 0:
        raise UsageError(f"--limit must be 0 (all) or more, not {args.limit}")
    try:
        query = parse_query(args.search)
        methods = (m.upper() if m.upper() in STANDARD_METHODS else m for m in args.method)
        options = HistoryQuery(
            methods=frozenset(methods),
            statuses=tuple(parse_status(s) for s in args.status),
            since=parse_time(args.since) if args.since else None,
            until=parse_time(args.until) if args.until else None,
        )
    except QueryError as error:
        raise UsageError(str(error)) from None
    return query.merged(options)


def _when(at: float) -> str:
    import time

    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at))


def _list(entries: list[HistoryEntry], *, as_json: bool) -> None:
    from explorer.cli.output import write_out

    if as_json:
        import orjson

        from explorer.core.text.terminal_text import json_visible

        lines = [
            json_visible(
                orjson.dumps(
                    {
                        "id": e.id,
                        "time": _iso(e.at),
                        "method": e.method,
                        "url": e.url,
                        "final_url": e.final_url,
                        "status": e.status,
                        "reason": e.reason,
                        "duration_ms": round(e.duration * 1000, 1),
                        "size": e.size,
                        "source": e.source,
                        "masked": e.masked,
                        "cache": e.cache or None,
                        "bundled_mock": e.bundled,
                    }
                )
            ).decode("utf-8")
            for e in entries
        ]
        write_out("".join(f"{line}\n" for line in lines))
        return
    from explorer.core.text.terminal_text import visible_line

    width = max((len(str(e.id)) for e in entries), default=1)
    lines = [
        f"{e.id:>{width}}  {_when(e.at)}  {visible_line(e.method):<7} {e.status}  "
        f"{visible_line(e.url)}  ({_how(e)})"
        for e in entries
    ]
    write_out("".join(f"{line}\n" for line in lines))


def _how(entry: HistoryEntry) -> str:
    """How long it took, or that the session's cache answered (a fresh one: unsent)."""
    if entry.cache == "fresh":
        return "from cache: nothing was sent"
    took = f"{entry.duration * 1000:.0f} ms"
    if entry.cache == "revalidated":
        return f"{took}; from cache, revalidated by a 304"
    return took


def _iso(at: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(at, tz=UTC).isoformat(timespec="milliseconds")


def _show(history: HistoryStore, entry_id: int) -> ExitStatus:
    from explorer.cli.output import format_exchange, write_out

    exchange = history.load(entry_id)
    if exchange is None:
        raise CommandError(f"no history entry {entry_id} (restwalk history lists them)")
    write_out(format_exchange(exchange, verbose=True).rstrip("\n") + "\n")
    return ExitStatus.OK


def _export(
    history: HistoryStore, query: HistoryQuery, target: str, limit: int | None
) -> ExitStatus:
    from explorer.cli.output import error_line
    from explorer.core.carry.har import har_bytes, har_document
    from explorer.core.storage.exported import history_exchanges

    items = history_exchanges(history, query, limit)
    data = har_bytes(har_document(items, comment="restwalk history"))
    if target == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        from explorer.core.files import replace_file

        try:
            replace_file(Path(target), data)
        except OSError as error:
            raise CommandError(f"cannot write {target}: {error.strerror or error}") from None
        error_line(f"wrote {counted(len(items), 'exchange')} to {target}")
    return ExitStatus.OK


def _import(history: HistoryStore, path: Path) -> ExitStatus:
    """Keep the exchanges of the HAR file ``path``, each once: 1 when the file holds some
    and none could be read (what was kept already is not a failure)."""
    from explorer.cli.output import error_line, write_out
    from explorer.core.carry.har import HarError, read_har

    try:
        data = path.read_bytes()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        found = read_har(data)
    except HarError as error:
        raise CommandError(f"{path}: {error}") from None
    total = len(found.exchanges) + len(found.skipped)
    if not total:
        write_out(f"{path} holds no exchanges: nothing to keep.\n")
        return ExitStatus.OK
    added = history.add_many(found.exchanges, source="har", skip_known=True)
    by = f" (written by {found.creator})" if found.creator else ""
    known = ""
    if added.known:
        was = "was" if added.known == 1 else "were"
        known = f"; {added.known} {was} in the history already"
    write_out(f"Kept {added.kept} of the {counted(total, 'exchange')} of {path}{by}{known}.\n")
    for reason in found.skipped:
        error_line(f"skipped {reason}")
    return ExitStatus.FAILED if not (added.kept or added.known) else ExitStatus.OK
