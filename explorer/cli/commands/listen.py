"""``restwalk listen``: a local endpoint that shows each request it receives, as it comes.

It serves :class:`~explorer.core.listening.endpoint.Endpoint` with uvicorn on
127.0.0.1 (a free port unless ``--port``), and prints every request received as
``restwalk request -v`` prints a request: its request line, the method
explained, its headers (credentials masked) and its body (JSON indented), then
the answer it got. With ``--secret`` a Standard Webhooks signature is checked,
and a delivery whose signature does not verify is answered 401. Ctrl-C stops
it, saying how many came.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from http import HTTPStatus
from typing import TYPE_CHECKING

from explorer.cli.arguments import formatter, paragraphs
from explorer.cli.errors import CommandError, UsageError
from explorer.cli.exit_status import ExitStatus

if TYPE_CHECKING:
    import argparse

    from explorer.cli.commands import SubParsers
    from explorer.core.listening.endpoint import Endpoint
    from explorer.core.listening.received import ReceivedRequest

__all__ = ["add_parser", "run"]

#: Where the endpoint listens: this machine only.
HOST = "127.0.0.1"


def add_parser(
    commands: SubParsers,
    shared: argparse.ArgumentParser,
) -> None:
    """``restwalk listen``'s parser (it sends nothing: no connection options)."""
    listen = commands.add_parser(
        "listen",
        prog="restwalk listen",
        help="a local endpoint that shows each request it receives (webhooks)",
        description=paragraphs(
            "Listen on 127.0.0.1 (a free port, printed first) and show each request "
            "received as it comes, as 'restwalk request -v' shows a request: the "
            "request line, the method explained, the headers (credentials masked), the "
            "body (JSON indented), and the answer given. Subscribe it to a service's "
            "webhooks (the mock's: POST /webhooks with its URL) and watch the "
            "deliveries arrive.",
            "With --secret the Standard Webhooks signature (webhook-id, "
            "webhook-timestamp, webhook-signature) is checked with the specification's "
            "own library; a delivery that does not verify is answered 401, so its "
            "sender counts it as failed.",
        ),
        epilog=paragraphs(
            "Every request is answered --status (204 No Content), unless its body is "
            "larger than --max-body (413) or takes more than 30 s to come (408). "
            "Ctrl-C stops listening.",
            "exit codes: 0 stopped with ctrl+c, 1 the port could not be listened on, 2 bad usage.",
        ),
        formatter_class=formatter,
    )
    listen.add_argument(
        "--port", type=int, default=0, metavar="N", help="listen on port N (default: a free one)"
    )
    listen.add_argument(
        "--secret",
        metavar="whsec_...",
        help="check each request's Standard Webhooks signature with this secret "
        "(the one the sender shows when the webhook is made)",
    )
    listen.add_argument(
        "--status",
        type=int,
        default=HTTPStatus.NO_CONTENT,
        metavar="CODE",
        help="the status every request is answered (default: 204; 500 to see a sender retry)",
    )
    listen.add_argument(
        "--max-body",
        default="10MB",
        metavar="SIZE",
        help="the largest body kept: bytes, or with kB, MB (default: 10MB)",
    )
    listen.add_argument(
        "--json", action="store_true", help="print each request as one JSON object per line"
    )


def run(args: argparse.Namespace) -> ExitStatus:
    """Run ``restwalk listen`` until ctrl+c."""
    from explorer.cli.output import error_line
    from explorer.core.listening.endpoint import Endpoint
    from explorer.core.listening.signature import secret_problem
    from explorer.core.text.plural import counted
    from explorer.core.text.sizes import parse_size

    if args.secret is not None and (problem := secret_problem(args.secret)) is not None:
        raise UsageError(f"--secret: {problem}")
    if not HTTPStatus.OK <= args.status <= 599:
        raise UsageError(f"--status must be from 200 to 599, not {args.status}")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be from 0 to 65535, not {args.port}")
    try:
        max_body = parse_size(args.max_body)
    except ValueError as exc:
        raise UsageError(f"--max-body: {exc}") from None
    sock = _listening_socket(args.port)
    origin = f"http://{HOST}:{sock.getsockname()[1]}"
    endpoint = Endpoint(
        lambda received: _show(received, origin, json_lines=args.json),
        secret=args.secret,
        status=args.status,
        max_body=max_body,
    )
    checked = "; Standard Webhooks signatures checked" if args.secret else ""
    error_line(f"listening on {origin}/ (any path; ctrl+c stops){checked}")
    try:
        asyncio.run(_serve(endpoint, sock))
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    error_line(f"stopped listening: {counted(endpoint.received, 'request')} received")
    return ExitStatus.OK


def _listening_socket(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1 at ``port`` (0: a free one); one line if it cannot."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise CommandError(f"cannot listen on {HOST}:{port}: {exc.strerror or exc}") from None
    return sock


async def _serve(app: Endpoint, sock: socket.socket) -> None:
    """Serve ``app`` on ``sock`` with uvicorn until ctrl+c (its own logging silenced: what
    is wrong with a request is said in its answer, and printed)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        lifespan="off",
        http="h11",
        ws="none",
        log_config=None,
        log_level="debug" if os.environ.get("RESTWALK_DEBUG") else "critical",
        access_log=False,
        server_header=False,
        timeout_graceful_shutdown=2,
    )
    await uvicorn.Server(config).serve(sockets=[sock])


def _show(received: ReceivedRequest, origin: str, *, json_lines: bool) -> None:
    from explorer.cli.output import write_out
    from explorer.cli.received_output import received_json, received_text

    if json_lines:
        write_out(received_json(received, origin).decode("utf-8") + "\n")
    else:
        write_out(received_text(received, origin) + "\n")
    sys.stdout.flush()
