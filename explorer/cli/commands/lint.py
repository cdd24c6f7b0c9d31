"""``restwalk lint URL``: what httplint finds in URL's response, each note explained.

The notes are httplint's (:mod:`explorer.core.knowledge.lint`): a level, a category, a
one-line summary and what it means and how to fix it. The request is sent as
``restwalk request`` sends it (the same headers, auth and connection options),
and the final response, after any redirects, is linted.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.commands.network import run_printing
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import client_from, spec_from
from explorer.core.text.plural import counted

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.http.exchange import Exchange
    from explorer.core.knowledge.lint import LintNote, LintReport

__all__ = ["FAIL_LEVELS", "add_parser", "format_report", "run"]

#: ``--fail-on LEVEL``: the levels that fail the command, for each LEVEL.
FAIL_LEVELS = {"bad": ("bad",), "warn": ("bad", "warning")}


def add_parser(
    commands: SubParsers,
    shared: argparse.ArgumentParser,
) -> None:
    """``restwalk lint``'s parser."""
    lint = commands.add_parser(
        "lint",
        prog="restwalk lint",
        parents=[shared],
        help="what an HTTP linter (httplint) finds in a response",
        description=paragraphs(
            "Send the request and print what httplint, the checker behind REDbot, finds "
            "in the response: Cache-Control, Vary, ETag, Content-Type and its charset, "
            "Date, Content-Length, content codings... Each note has a level (BAD, WARN, "
            "INFO, GOOD), a summary, and what it means and how to fix it. Redirects are "
            "followed and the final response is linted (--no-redirects lints the 3xx).",
        ),
        epilog=paragraphs(
            "exit codes: 0 answered and linted (whatever the notes, unless --fail-on), "
            "1 the request failed, or --fail-on found a note of that level, 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    lint.add_argument("url", metavar="URL", help="the URL to request")
    lint.add_argument(
        "-X",
        "--method",
        default="GET",
        metavar="METHOD",
        help="the method (default GET; HEAD lints the headers of a GET's answer)",
    )
    lint.add_argument(
        "--fail-on",
        choices=tuple(FAIL_LEVELS),
        metavar="LEVEL",
        help="exit 1 when a note is BAD (bad) or BAD or WARN (warn), for scripts and CI",
    )
    lint.add_argument("--json", action="store_true", help="one JSON object per note and line")


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk lint``."""
    return run_printing(_lint, args)


async def _lint(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    import asyncio

    from explorer.core.knowledge.lint import lint_exchange

    spec = spec_from(args, args.method)
    async with client_from(args) as client:
        exchange = await client.send(spec)
    report = await asyncio.to_thread(lint_exchange, exchange)
    if args.json:
        out.extend(_json_lines(report))
    else:
        out.append(format_report(exchange, report))
    failing = FAIL_LEVELS.get(args.fail_on or "", ())
    if any(note.level in failing for note in report.notes):
        from explorer.cli.output import error_line

        worst = [note for note in report.notes if note.level in failing]
        error_line(f"{counted(len(worst), 'note')} at --fail-on {args.fail_on} or worse")
        return ExitStatus.FAILED
    return ExitStatus.OK


def format_report(exchange: Exchange, report: LintReport) -> str:
    """The report as text: the status line, the tally, then each note with its detail."""
    response = exchange.response
    lines = [
        f"{response.http_version} {response.status} {response.reason}".rstrip()
        + f"  ({exchange.final.method} {response.url})",
        f"# httplint: {report.tally}",
    ]
    if report.remark:
        lines.append(f"# note: {report.remark}")
    for note in report.notes:
        lines += ["", *_note_lines(note, 0)]
    return "\n".join(lines) + "\n"


def _note_lines(note: LintNote, depth: int) -> list[str]:
    indent = "  " * depth
    lines = [f"{indent}[{note.word}] {note.category}: {note.summary}"]
    for line in note.detail.replace("\n\n", "\n").split("\n"):
        lines += textwrap.wrap(
            line,
            width=88,
            initial_indent=indent + "    ",
            subsequent_indent=indent + ("      " if line.startswith("- ") else "    "),
            break_on_hyphens=False,
            break_long_words=False,
        )
    for child in note.children:
        lines += _note_lines(child, depth + 1)
    return lines


def _json_lines(report: LintReport) -> list[str]:
    import orjson

    from explorer.core.text.terminal_text import json_visible

    def document(note: LintNote) -> dict[str, object]:
        return {
            "level": note.level,
            "category": note.category,
            "summary": note.summary,
            "detail": note.detail,
            "children": [document(child) for child in note.children],
        }

    return [json_visible(orjson.dumps(document(note))).decode("utf-8") for note in report.notes]
