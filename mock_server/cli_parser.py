"""What ``restwalk-mock`` accepts on its command line: :func:`build_parser`, each flag's
help, and the value types that turn a flag's text into a setting or a one-line usage
error (exit status 2). :mod:`mock_server.cli` reads the result into
:class:`~mock_server.settings.Settings` and serves.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from mock_server.settings import (
    STANDARD_METHODS,
    UNDISABLEABLE_METHODS,
    OAuthClientSpec,
    RateLimit,
    Settings,
)
from mock_server.store.persistence import StoreLocation, parse_store

__all__ = ["EXIT_USAGE", "build_parser"]

EXIT_USAGE = 2
EPILOG = """\
HTTP/2 and TLS:
  --http2 serves the same app with Hypercorn instead of uvicorn, on one port:
  HTTP/1.1, h2c by prior knowledge (curl --http2-prior-knowledge), the h2c
  upgrade (a body-less request with Upgrade: h2c gets 101 Switching Protocols),
  and with --tls h2 or http/1.1 by ALPN. Over HTTP/2 a resource pushes what it
  links with rel=preload (an order: its customer and products) and sends those
  links in 103 Early Hints first.
  Under --http2, HTTP/1.1 differs where Hypercorn answers before the app: a
  request it cannot parse (malformed request line or header, no Host) gets a
  bare 400, and a head that outgrows the limit while arriving a bare 431, with
  no problem body; status lines carry no reason phrase; 100 Continue is sent as
  soon as the head arrives, even before a 413; a stalled head is closed without
  408. Everything the app decides (501, 505, 414, 431, 413, ...) is the same.
  --tls without --cert/--key makes a certificate for 127.0.0.1, ::1 and localhost
  at start and prints the path of the authority that signed it: trust that file
  (curl --cacert FILE, restwalk --cacert FILE).

Your API:
  --openapi api.yaml serves an OpenAPI 3.0 or 3.1 document instead of the teaching
  API: every operation, requests validated (400/422 naming each field), answers
  from its examples or generated from its schemas (--seed), collections stateful
  (--stateless: as Prism), security enforced with the mock's own credentials
  (a token from POST /auth/token, alice/wonderland for Basic, --api-key KEY),
  Prefer: code=404 / example=NAME / dynamic=true (or ?__code=404...) as Prism reads them.
  --record URL --tape F.har proxies to a real API and records every exchange,
  secrets masked; --replay F.har serves them offline (with --openapi: the tape
  first, the document for the rest).
"""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is a single line (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _rate_limit(value: str) -> RateLimit | None:
    try:
        return RateLimit.parse(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _at_least(least: int) -> Callable[[str], int]:
    """An argument type: a whole number of at least ``least``."""

    def whole_number(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
        if number < least:
            raise argparse.ArgumentTypeError(
                f"expected a number of at least {least}, got {value!r}"
            )
        return number

    return whole_number


_positive = _at_least(1)
_non_negative = _at_least(0)


def _positive_seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {value!r}") from None
    if not 0 < number < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {value!r}")
    return number


def _port(value: str) -> int:
    number = _non_negative(value)
    if number > 65535:
        raise argparse.ArgumentTypeError(f"a port is at most 65535, got {value!r}")
    return number


def _probability(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {value!r}") from None
    if not 0.0 <= number <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {value!r}")
    return number


def _fault_kind(value: str) -> str:
    from mock_server.layers.faults import FAULTS
    from mock_server.transport.connection_faults import KINDS

    kinds = (*(str(status) for status in sorted(FAULTS)), *KINDS)
    if value not in kinds:
        raise argparse.ArgumentTypeError(f"expected one of {', '.join(kinds)}, got {value!r}")
    return value


def _store(value: str) -> StoreLocation:
    try:
        return parse_store(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _webhook_host(value: str) -> str:
    from mock_server.events.callbacks import Allowed

    try:
        return str(Allowed.parse(value))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _oauth_client(value: str) -> OAuthClientSpec:
    try:
        return OAuthClientSpec.parse(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _pauses(value: str) -> tuple[float, ...]:
    if value == "none":
        return ()
    try:
        pauses = tuple(float(part) for part in value.split(","))
    except ValueError:
        pauses = (-1.0,)
    if not all(0 <= pause < float("inf") for pause in pauses):
        raise argparse.ArgumentTypeError(
            f"expected seconds separated by commas (1,5,30) or none, got {value!r}"
        )
    return pauses


def _allowed_host(value: str) -> str:
    from mock_server.http.hosts import BadHost, host_of

    try:
        host = host_of(value)
    except BadHost as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not host:
        raise argparse.ArgumentTypeError("expected a host name or address, got nothing")
    return host


def _method(value: str) -> str:
    method = value.upper()
    if method in UNDISABLEABLE_METHODS:
        raise argparse.ArgumentTypeError(f"{method} can never be disabled")
    if method not in STANDARD_METHODS:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a method this server knows ({', '.join(STANDARD_METHODS)})"
        )
    return method


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; ``--help`` lists every setting."""
    defaults = Settings()
    parser = _Parser(
        prog="restwalk-mock",
        description="A complete REST/HTTP mock server: CRUD, paging, versions, links, auth, "
        "caching, limits and every status code.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add = parser.add_argument
    add("--host", default=defaults.host, help="address to listen on (default %(default)s)")
    add("--port", type=_port, default=defaults.port, help="port (default %(default)s; 0: any free)")
    add(
        "--store",
        type=_store,
        metavar="WHERE",
        help="where the data is kept: memory (default), sqlite:FILE, or "
        "postgresql://USER@HOST/DB, shared by every instance naming it",
    )
    add(
        "--allowed-host",
        type=_allowed_host,
        action="append",
        default=[],
        metavar="NAME",
        help="also answer requests calling the server NAME (repeatable); besides it, only "
        "localhost, 127.0.0.0/8, [::1] and --host's name or address are answered (0.0.0.0: "
        "the machine's addresses), any other Host gets 421 (DNS rebinding)",
    )
    add(
        "--db",
        type=Path,
        metavar="FILE",
        help="keep the data in this SQLite file: the same as --store sqlite:FILE",
    )
    add(
        "--seed-size",
        type=_positive,
        default=defaults.seed_size,
        metavar="N",
        help="seed N times the base data, for benchmarks (default %(default)s)",
    )
    add(
        "--token-mode",
        choices=("signed", "stored"),
        default=defaults.token_mode,
        help="signed: stateless HMAC tokens; stored: revocable tokens kept in the store",
    )
    add("--secret", metavar="S", help="token signing secret (default: random per start)")
    add(
        "--rate-limit",
        type=_rate_limit,
        default=defaults.rate_limit,
        metavar="N/Ss|off",
        help="requests per window per client, e.g. 100/10s (default), or off",
    )
    add(
        "--max-uri-length",
        type=_positive,
        default=defaults.max_uri_length,
        metavar="BYTES",
        help="longest request target; longer: 414 (default %(default)s)",
    )
    add(
        "--max-header-size",
        type=_positive,
        default=defaults.max_header_size,
        metavar="BYTES",
        help="largest header section; larger: 431; one field may use half of it, "
        "at least 4096 (default %(default)s)",
    )
    add(
        "--max-body-size",
        type=_positive,
        default=defaults.max_body_size,
        metavar="BYTES",
        help="largest request body; larger: 413 (default %(default)s)",
    )
    add(
        "--body-timeout",
        type=_positive_seconds,
        default=defaults.body_timeout_seconds,
        metavar="SECONDS",
        help="longest a request body may take to arrive; slower: 408 (default %(default)g)",
    )
    add(
        "--http-parser",
        choices=("httptools", "h11"),
        default=defaults.http_parser,
        help="HTTP/1.1 parser: httptools (fast; what it refuses goes to h11) or h11 alone",
    )
    add(
        "--disable-method",
        type=_method,
        action="append",
        default=[],
        metavar="METHOD",
        help="answer 405 to METHOD everywhere (repeatable; never GET or HEAD)",
    )
    add(
        "--data",
        type=Path,
        metavar="FILE",
        help="also serve the collections of this JSON (or YAML) file, json-server style; "
        "writes go back to it",
    )
    add(
        "--read-only-data",
        action="store_true",
        help="keep writes to the --data collections in memory, never in the file",
    )
    add(
        "--openapi",
        type=Path,
        metavar="FILE",
        help="serve this OpenAPI 3.0/3.1 document (YAML or JSON) instead of the teaching API",
    )
    add(
        "--stateless",
        action="store_true",
        help="with --openapi: answer each request as the document says, remembering nothing",
    )
    add(
        "--seed",
        type=_non_negative,
        default=defaults.seed,
        metavar="N",
        help="seed of the answers generated from schemas (default %(default)s)",
    )
    add(
        "--api-key",
        action="append",
        default=[],
        metavar="KEY",
        help="with --openapi: a key its apiKey schemes accept, besides the mock's tokens "
        "(repeatable)",
    )
    add("--record", metavar="URL", help="proxy to this API and record the exchanges (--tape)")
    add("--tape", type=Path, metavar="FILE", help="the HAR file --record writes")
    add("--replay", type=Path, metavar="FILE", help="serve the exchanges of this HAR file")
    add(
        "--journal-size",
        type=_non_negative,
        default=defaults.journal_size,
        metavar="N",
        help="requests the journal (/_journal) keeps (default %(default)s; 0: none)",
    )
    add(
        "--journal-secrets",
        action="store_true",
        help="show credentials, cookies and secret fields in /_journal as they were sent "
        "(masked as **** otherwise)",
    )
    add(
        "--cors",
        nargs="*",
        metavar="ORIGIN",
        help="let browser pages from these origins (scheme://host:port) use the server, "
        "with the browser's cookies and credentials; none given: any origin, without them",
    )
    add("--allow-reset", action="store_true", help="POST /_reset restores the seed, no login")
    add(
        "--no-oauth",
        action="store_true",
        help="do not serve the OAuth 2.0 authorization server (/oauth, /.well-known/oauth-*)",
    )
    add(
        "--oauth-client",
        type=_oauth_client,
        action="append",
        default=[],
        metavar="ID:SECRET:REDIRECT",
        help="one more OAuth client (repeatable); an empty SECRET makes it public, "
        "an empty REDIRECT leaves out the authorization code grant",
    )
    add("--require-preconditions", action="store_true", help="writes without If-Match answer 428")
    add("--maintenance", action="store_true", help="answer 503 to everything but /admin")
    add(
        "--fault-rate",
        type=_probability,
        default=defaults.fault_rate,
        metavar="P",
        help="inject random 500/502/503/504 with probability P",
    )
    add(
        "--fault-kind",
        type=_fault_kind,
        action="append",
        default=[],
        metavar="KIND",
        help="what --fault-rate injects (repeatable): 500, 502, 503, 504, or a connection "
        "fault: reset, close, length, trickle, hang (default: the four statuses)",
    )
    add(
        "--latency",
        type=_non_negative,
        default=defaults.latency_ms,
        metavar="MS",
        help="add MS milliseconds to every response",
    )
    add(
        "--workers",
        type=_positive,
        default=defaults.workers,
        metavar="N",
        help="worker processes (more than 1 needs --db, so they share the data)",
    )
    add(
        "--event-backlog",
        type=_positive,
        default=defaults.event_backlog,
        metavar="N",
        help="events kept for streams resuming with Last-Event-ID (default %(default)s)",
    )
    add(
        "--event-heartbeat",
        type=_positive_seconds,
        default=defaults.event_heartbeat_seconds,
        metavar="SECONDS",
        help="a comment on idle event streams this often (default %(default)g)",
    )
    add(
        "--webhook-allow",
        type=_webhook_host,
        action="append",
        default=[],
        metavar="HOST[:PORT]",
        help="deliver webhooks to this host (repeatable); without it, only to loopback "
        "addresses (127.0.0.1, ::1, localhost)",
    )
    add(
        "--webhook-retries",
        type=_pauses,
        default=defaults.webhook_retries,
        metavar="S,S,...",
        help="seconds before each retry of a failed delivery, or none (default 1,5,30)",
    )
    add(
        "--http2",
        action="store_true",
        help="serve HTTP/2 too (h2c, h2 with --tls), with Hypercorn; see below",
    )
    add(
        "--tls",
        action="store_true",
        help="serve HTTPS; without --cert/--key, with a certificate made at start",
    )
    add("--cert", type=Path, metavar="FILE", help="TLS certificate chain, PEM (implies --tls)")
    add("--key", type=Path, metavar="FILE", help="the private key of --cert, PEM")
    add(
        "--log-level",
        choices=("critical", "error", "warning", "info", "debug"),
        default=defaults.log_level,
        help="log detail (default %(default)s)",
    )
    return parser
