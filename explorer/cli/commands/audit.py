"""``restwalk audit URL``: how well the API keeps the REST constraints, in figures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.commands.network import run_printing
from explorer.cli.commands.survey import add_crawl_options, limits_from, say_withheld_in
from explorer.cli.exit_status import ExitStatus
from explorer.cli.options import client_from, spec_from

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers

__all__ = ["add_parser", "run"]


def add_parser(commands: SubParsers, shared: argparse.ArgumentParser) -> None:
    """``restwalk audit``'s parser."""
    from explorer.core.survey.audit_probes import MAX_SAMPLES, MISSING_PATH, PROBE_METHOD

    parser = commands.add_parser(
        "audit",
        prog="restwalk audit",
        parents=[shared],
        help="measure the API against the REST constraints",
        description=paragraphs(
            "Map the API from URL as 'restwalk map' does, then measure it: hypermedia "
            "(answers carrying links; resources reached by links the API writes, against "
            "its description when it links one), the uniform interface (501 for an "
            "unknown method, 405 with Allow, HEAD equal to GET without a body, OPTIONS "
            "with Allow), cacheability (validators, explicit freshness, 304 for a "
            "conditional GET, Vary where content is negotiated), statelessness (cookies "
            "set, and whether answers change without them) and error bodies (problem "
            "details), each as a share with the answers behind it; and which versioning "
            "style the API uses. The grade is the mean of the five.",
            "Every probe is safe: GET, HEAD and OPTIONS, plus one made-up method, "
            f"{PROBE_METHOD}, sent without a body to the entry and one resource (RFC 9110 "
            "asks a server to answer 501 to a method it does not know; no server defines "
            f"this one, so it changes nothing), and a GET of {MISSING_PATH} to see an "
            f"error. At most --samples resources are probed (default {MAX_SAMPLES}).",
        ),
        epilog=paragraphs(
            "The map gets 70% of --time-limit, the probes the rest.",
            "exit codes: 0 URL answered (whatever the grade), 1 URL got no answer, 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    parser.add_argument("url", metavar="URL", help="the API's entry point (its root)")
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="text (default) or json"
    )
    parser.add_argument(
        "--samples",
        type=int,
        default=MAX_SAMPLES,
        metavar="N",
        help=f"probe at most N resources (default {MAX_SAMPLES})",
    )
    add_crawl_options(parser, pages=100, seconds=60.0)


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk audit``."""
    return run_printing(_audit, args)


async def _audit(args: argparse.Namespace, out: list[str]) -> ExitStatus:
    from explorer.cli.errors import UsageError
    from explorer.cli.output import error_line
    from explorer.core.survey.audit import run_audit
    from explorer.core.survey.crawl import Visit, client_sends
    from explorer.core.survey.render_audit import audit_json, audit_text

    if args.samples < 0:
        raise UsageError(f"--samples must be 0 or more, not {args.samples}")
    spec = spec_from(args)
    limits = limits_from(args)

    def progress(visit: Visit) -> None:
        error_line(f"{visit.status} {visit.final_url} (depth {visit.depth}, via {visit.via})")

    async with client_from(args) as client:
        send, without_cookies = client_sends(client)
        audit = await run_audit(
            spec.url,
            send,
            limits=limits,
            base=spec,
            without_cookies=without_cookies,
            max_samples=args.samples,
            on_visit=progress if args.progress else None,
        )
    result = audit.crawl
    say_withheld_in(result)
    if not result.visits and result.failures:  # the entry itself got no answer
        raise result.failures[0].error
    out.append(audit_json(audit) if args.format == "json" else audit_text(audit))
    return ExitStatus.OK
