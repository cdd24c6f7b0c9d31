"""``restwalk explain TOPIC``: a status code, header or method explained."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.errors import UsageError
from explorer.cli.exit_status import ExitStatus

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers

__all__ = ["add_parser", "run"]


def add_parser(
    commands: SubParsers,
    shared: argparse.ArgumentParser,
) -> None:
    """``restwalk explain``'s parser (it sends nothing: no connection options)."""
    explain = commands.add_parser(
        "explain",
        prog="restwalk explain",
        help="explain a status code, header or method",
        description=paragraphs(
            "Explain a status code (418), a header (Retry-After) or a method "
            "(PATCH): the rule, what it means, and what to do next.",
        ),
        epilog="exit codes: 0 explained, 2 unknown topic.",
        formatter_class=formatter,
    )
    explain.add_argument("topic", metavar="TOPIC", help="e.g. 404, Retry-After, PATCH")


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk explain``."""
    from explorer.core.knowledge import explain as explain_topic

    explanation = explain_topic(args.topic)
    if explanation is None:
        raise UsageError(
            f"nothing known about {args.topic!r}: give a status code (404), a header "
            "(Retry-After) or a method (PATCH)"
        )
    sys.stdout.write(explanation.to_text().rstrip("\n") + "\n")
    return ExitStatus.OK
