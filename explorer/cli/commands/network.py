"""Running a command that sends requests: its printed lines, and the h2c hint."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

    from explorer.cli.exit_status import ExitStatus
    from explorer.core.http.exchange import Exchange
    from explorer.core.session.trail import Page

__all__ = ["answered", "run_printing", "said_for"]

#: A command's body: it appends what it prints to the list, and returns the exit status.
Runner = Callable[["argparse.Namespace", list[str]], Coroutine[None, None, "ExitStatus"]]


def run_printing(runner: Runner, args: argparse.Namespace) -> ExitStatus:
    """Run ``runner``; what it printed is written even when it fails half way."""
    from explorer.cli.keeping import recording
    from explorer.core.http.errors import DecodingError, NetworkError, ProtocolError

    out: list[str] = []
    try:
        with recording(args):
            return asyncio.run(runner(args, out))
    except (ProtocolError, NetworkError) as exc:
        # An HTTP/1.1 server answers the h2c preface with an error and hangs up:
        # the client reads either that answer (a protocol error) or, when the
        # close comes first, a reset (a network error). Both mean the same here.
        if getattr(args, "http2_prior_knowledge", False) and not isinstance(exc, DecodingError):
            exc.hint = (
                "With --http2-prior-knowledge the server must speak HTTP/2 in cleartext "
                "(h2c), and many speak only HTTP/1.1 there: try without it."
            )
        raise
    finally:
        if out:
            from explorer.cli.output import write_out

            write_out("\n".join(out).rstrip("\n") + "\n")


def answered(page: Page) -> Exchange:
    """``page``'s exchange; the failure that left it without one is raised (exit 1)."""
    if page.error is not None:
        raise page.error
    assert page.exchange is not None
    return page.exchange


def said_for(page: Page, said: set[str]) -> Exchange:
    """``page``'s exchange (:func:`answered`), what its request went without said on stderr
    first, then what a redirect on its way went without, each once."""
    from explorer.cli.output import say_withheld

    say_withheld(page.withheld, said)
    exchange = answered(page)
    say_withheld(exchange.withheld, said)
    return exchange
