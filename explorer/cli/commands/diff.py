"""``restwalk diff URL1 URL2``: the structural difference of two answers' bodies."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.commands.network import run_printing
from explorer.cli.errors import UsageError
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import absolute_url, client_from, spec_from

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.http.request import RequestSpec

__all__ = ["add_parser", "run"]


def add_parser(commands: SubParsers, shared: argparse.ArgumentParser) -> None:
    """``restwalk diff``'s parser."""
    parser = commands.add_parser(
        "diff",
        prog="restwalk diff",
        parents=[shared],
        help="compare two answers' bodies, structurally",
        description=paragraphs(
            "GET both URLs (or one URL in two API versions, with --versions) and compare "
            "the bodies field by field: fields added, removed, retyped, restructured "
            "(a string become an object), moved or renamed, and members of collections "
            "(matched by id) only on one side. A removed, retyped, restructured, moved "
            "or renamed field breaks a client of the first answer; an added one does "
            "not: a client ignores the fields it does not expect. Bodies that are not both JSON "
            "are compared line by line.",
        ),
        epilog=paragraphs(
            "examples: restwalk diff http://127.0.0.1:8000/customers/1 "
            "http://127.0.0.1:8000/v2/customers/1; restwalk diff "
            "http://127.0.0.1:8000/products/1 --versions 1 2 --version-style query",
            "exit codes: 0 both answered (whatever differs), 1 a request failed, 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    parser.add_argument("url", metavar="URL1", help="the first (old) answer's URL")
    parser.add_argument("url2", metavar="URL2", nargs="?", help="the second (new) answer's URL")
    parser.add_argument(
        "--versions",
        nargs=2,
        metavar=("OLD", "NEW"),
        help="compare URL1 in API version OLD with URL1 in version NEW "
        "(asked as --version-style says; default: the /vN path segment)",
    )
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    parser.add_argument(
        "--values", action="store_true", help="list the values that differ, not only count them"
    )


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk diff``."""
    return run_printing(_diff, args)


def _specs(args: argparse.Namespace) -> tuple[RequestSpec, RequestSpec]:
    from explorer.core.http.api_version import parse_version
    from explorer.core.http.errors import InvalidRequest

    if args.versions and args.url2:
        raise UsageError("give URL2 or --versions OLD NEW, not both")
    if not args.versions and not args.url2:
        raise UsageError("give two URLs, or one URL and --versions OLD NEW")
    if args.versions and args.api_version is not None:
        raise UsageError("--versions gives both versions: leave out --api-version")
    if args.url2:
        left = spec_from(args)
        return left, replace(left, url=absolute_url(args.url2))
    try:
        old, new = (parse_version(text) for text in args.versions)
    except InvalidRequest as exc:
        raise UsageError(f"--versions: {exc.message}") from None
    if old is None or new is None:
        raise UsageError("--versions needs two versions, such as 1 2")
    args.api_version = old  # the options' own way to ask for a version
    left = spec_from(args)
    return left, replace(left, api_version=new)


async def _diff(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    from explorer.core.survey.compare import compare
    from explorer.core.survey.render_diff import comparison_json, comparison_text

    left_spec, right_spec = _specs(args)
    async with client_from(args) as client:
        left = await client.send(left_spec)
        right = await client.send(right_spec)
    comparison = compare(left.response, right.response)
    if args.json:
        out.append(comparison_json(comparison))
    else:
        out.append(comparison_text(comparison, values=args.values))
    return ExitStatus.OK
