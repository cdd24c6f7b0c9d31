"""``restwalk-mock``: the mock server on the command line.

Every setting of :class:`~mock_server.settings.Settings` has a flag. A bad
setting (unknown flag, port in use, ``--disable-method GET``) is one line on
stderr and exit status 2; otherwise the server prints the URL it listens on
and serves until SIGINT or SIGTERM. What the command line accepts, each flag and its
value's type, is :mod:`mock_server.cli_parser`'s.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence

from mock_server.cli_parser import build_parser
from mock_server.settings import Settings
from mock_server.store.persistence import StoreLocation
from mock_server.transport.tls import (
    MAKER_MISSING,
    CertificateError,
    CertificateFiles,
    can_make_certificates,
    check_files,
)

#: The smallest limit for one header field (unless the whole section is smaller).
MIN_FIELD_LIMIT = 4096


def field_limit(max_header_size: int) -> int:
    """The limit for one header field: half the section, at least 4096, at most all of it.

    So the default section of 8192 allows 4096 for one field, and a user who
    raises ``--max-header-size`` to send a 10 KB cookie may send it.
    """
    return min(max_header_size, max(MIN_FIELD_LIMIT, max_header_size // 2))


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The settings a parsed command line asks for."""
    store: StoreLocation = args.store or StoreLocation()
    if args.db is not None and args.store is not None:
        raise ValueError("--db FILE is --store sqlite:FILE: give one of them")
    return Settings(
        host=args.host,
        port=args.port,
        db=args.db or store.db,
        store_url=store.url,
        allowed_hosts=tuple(dict.fromkeys(args.allowed_host)),
        seed_size=args.seed_size,
        token_mode=args.token_mode,
        secret=args.secret,
        rate_limit=args.rate_limit,
        max_uri_length=args.max_uri_length,
        max_header_size=args.max_header_size,
        max_field_size=field_limit(args.max_header_size),
        max_body_size=args.max_body_size,
        body_timeout_seconds=args.body_timeout,
        http_parser=args.http_parser,
        disabled_methods=frozenset(args.disable_method),
        require_preconditions=args.require_preconditions,
        maintenance=args.maintenance,
        fault_rate=args.fault_rate,
        fault_kinds=tuple(args.fault_kind),
        data=args.data,
        read_only_data=args.read_only_data,
        journal_size=args.journal_size,
        journal_secrets=args.journal_secrets,
        cors_origins=None if args.cors is None else tuple(args.cors or ["*"]),
        allow_reset=args.allow_reset,
        oauth=not args.no_oauth,
        oauth_clients=tuple(args.oauth_client),
        latency_ms=args.latency,
        event_backlog=args.event_backlog,
        event_heartbeat_seconds=args.event_heartbeat,
        webhook_allow=tuple(args.webhook_allow),
        webhook_retries=args.webhook_retries,
        workers=args.workers,
        log_level=args.log_level,
        http2=args.http2,
        tls=args.tls or args.cert is not None or args.key is not None,
        cert=args.cert,
        key=args.key,
        openapi=args.openapi,
        stateless=args.stateless,
        seed=args.seed,
        api_keys=tuple(args.api_key),
        record=args.record,
        tape=args.tape,
        replay=args.replay,
    )


def start_line(url: str, settings: Settings, certificate: CertificateFiles | None) -> str:
    """The one line printed at start: the URL first, then what is served and what to trust."""
    notes = []
    if settings.http2:
        notes.append("HTTP/1.1 and " + ("h2 by ALPN" if settings.tls else "h2c"))
    if certificate is not None and certificate.ca is not None:
        notes.append(f"trust {certificate.ca}")
    return f"restwalk-mock listening on {url}" + (f" ({'; '.join(notes)})" if notes else "")


def _check_your_api(parser: argparse.ArgumentParser, settings: Settings) -> None:
    """Exit 2 with one line when the document, the tape or the upstream cannot be used."""
    if settings.workers > 1 and (
        settings.record is not None or (not settings.stateless and settings.openapi)
    ):
        parser.error(
            "--workers above 1 serves from several processes: a recording or stateful "
            "collections live in one (use --stateless, or leave out --workers)"
        )
    from mock_server.contract import DocumentError, check_contract
    from mock_server.tape import TapeError, check_tape_writable, check_upstream, read_tape

    try:
        if settings.openapi is not None:
            check_contract(settings)
        if settings.tape is not None:
            check_tape_writable(settings.tape)
        if settings.replay is not None:
            read_tape(settings.replay)
        if settings.record is not None:
            check_upstream(settings.record)
    except (DocumentError, TapeError, ValueError) as error:
        parser.error(str(error))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the mock server; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        settings = settings_from_args(args)
    except ValueError as error:
        parser.error(str(error))
    if settings.workers > 1 and not settings.shared_store:
        parser.error(
            "--workers above 1 needs --store (sqlite:FILE or postgresql://...), "
            "so that the workers share one store"
        )
    if settings.data is not None:
        from mock_server.userdata.datafile import DataError, claim, read

        if settings.workers > 1 and not settings.read_only_data:
            parser.error(
                "--data with --workers above 1 needs --read-only-data: one file, one writer"
            )
        if settings.store_url is not None and not settings.read_only_data:
            parser.error(
                "--data with --store postgresql:// needs --read-only-data: the data file's "
                "collections are one instance's"
            )
        try:
            read(settings.data)
            if not settings.read_only_data:
                claim(settings.data).close()  # taken for good when the app is made
        except DataError as error:
            parser.error(str(error))
    if settings.oauth_clients:
        from mock_server.auth.users import Users
        from mock_server.oauth.metadata import check_client_ids

        try:
            check_client_ids((c.client_id for c in settings.oauth_clients), Users().names())
        except ValueError as error:
            parser.error(str(error))
    if not settings.teaching_api:
        _check_your_api(parser, settings)
    if settings.workers > 1 and settings.http2:
        parser.error("--http2 serves from one process: leave out --workers")
    if settings.cert is not None and settings.key is not None:
        try:
            check_files(settings.cert, settings.key)
        except CertificateError as error:
            parser.error(str(error))
    elif settings.tls and not can_make_certificates():
        parser.error(MAKER_MISSING)
    if settings.shared_store:
        from mock_server.store.errors import PersistenceError
        from mock_server.store.persistence import open_persistence

        try:
            persistence = open_persistence(settings.db, settings.store_url)
        except PersistenceError as error:
            parser.error(str(error))
        if persistence is not None:
            persistence.close()
    from mock_server.serving import serve
    from mock_server.transport.server import bind_socket, certificate_of, url_of

    try:
        sock = bind_socket(settings.host, settings.port)
    except OSError as error:
        parser.error(f"cannot listen on {settings.host}:{settings.port}: {error.strerror or error}")
    certificate, made = certificate_of(settings)
    from mock_server.userdata.datafile import DataError

    try:
        print(start_line(url_of(sock, settings.tls), settings, certificate), flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            serve(settings, sock, certificate)
    except DataError as error:
        # Another writer took the data file between the check above and now.
        parser.error(str(error))
    finally:
        if made is not None:
            made.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
