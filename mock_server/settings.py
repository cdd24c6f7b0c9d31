"""Every setting of the mock server, in one frozen dataclass.

The command line (:mod:`mock_server.cli`) fills it; tests build it directly.
Defaults are the ones ``../shared/design/mock-server.md`` decides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

TokenMode = Literal["signed", "stored"]
#: The HTTP/1.1 parser: llhttp (fast; requests it refuses go to h11) or h11 alone.
HttpParser = Literal["httptools", "h11"]

#: Methods the spec names. GET and HEAD can never be disabled.
STANDARD_METHODS: tuple[str, ...] = (
    "GET",
    "HEAD",
    "POST",
    "PUT",
    "PATCH",
    "DELETE",
    "OPTIONS",
    "TRACE",
    "CONNECT",
)
UNDISABLEABLE_METHODS = frozenset({"GET", "HEAD"})
#: A serialized origin, as a browser sends it in ``Origin``: scheme://host[:port].
ORIGIN = re.compile(r"^[a-z][a-z0-9+.-]*://[^/?#@\sA-Z]+$")
#: A rate limit as the command line takes it: ``N/Ss``.
_RATE = re.compile(r"^(\d+)/(\d+(?:\.\d+)?)s$")


@dataclass(frozen=True)
class RateLimit:
    """At most ``requests`` per ``window_seconds`` for one client."""

    requests: int
    window_seconds: float

    @classmethod
    def parse(cls, text: str) -> RateLimit | None:
        """The limit ``N/Ss`` names (``100/10s``); None for ``off``. ValueError otherwise."""
        if text == "off":
            return None
        match = _RATE.match(text)
        if not match or int(match.group(1)) < 1 or float(match.group(2)) <= 0:
            raise ValueError(f"expected N/Ss (e.g. 100/10s) or off, got {text!r}")
        return cls(int(match.group(1)), float(match.group(2)))


@dataclass(frozen=True)
class OAuthClientSpec:
    """An OAuth client given on the command line: ``ID:SECRET:REDIRECT``.

    An empty ``secret`` makes a public client; an empty ``redirect_uri`` one
    without the authorization code grant.
    """

    client_id: str
    secret: str = ""
    redirect_uri: str = ""

    @classmethod
    def parse(cls, text: str) -> OAuthClientSpec:
        """The client ``ID:SECRET:REDIRECT`` names (the redirect URI may hold colons)."""
        client_id, _, rest = text.partition(":")
        secret, _, redirect_uri = rest.partition(":")
        if not client_id or not client_id.isprintable() or " " in client_id:
            raise ValueError(f"expected ID:SECRET:REDIRECT with an ID, got {text!r}")
        if redirect_uri and not redirect_uri.startswith(("http://", "https://")):
            raise ValueError(f"the redirect URI must be an http(s) URL, got {redirect_uri!r}")
        if "#" in redirect_uri:
            raise ValueError(f"a redirect URI has no fragment, got {redirect_uri!r}")
        return cls(client_id, secret, redirect_uri)


@dataclass(frozen=True)
class Settings:
    """How one mock server instance behaves."""

    host: str = "127.0.0.1"
    port: int = 8000
    #: Host names answered besides the loopback ones and ``host`` (``--allowed-host``);
    #: any other ``Host`` is a 421 (see :mod:`mock_server.http.hosts`).
    allowed_hosts: tuple[str, ...] = ()
    #: The SQLite file the data is kept in (``--db FILE``, ``--store sqlite:FILE``).
    db: Path | None = None
    #: The PostgreSQL database the data is kept in (``--store postgresql://...``), shared.
    store_url: str | None = None
    seed_size: int = 1
    token_mode: TokenMode = "signed"
    secret: str | None = None
    rate_limit: RateLimit | None = field(default_factory=lambda: RateLimit(100, 10.0))
    max_uri_length: int = 2048
    max_header_size: int = 8 * 1024
    max_field_size: int = 4 * 1024
    max_body_size: int = 1024 * 1024
    disabled_methods: frozenset[str] = frozenset()
    require_preconditions: bool = False
    maintenance: bool = False
    fault_rate: float = 0.0
    #: What ``fault_rate`` injects: status codes ("503") and connection faults
    #: ("reset", see :mod:`mock_server.transport.connection_faults`); empty: 500, 502, 503, 504.
    fault_kinds: tuple[str, ...] = ()
    latency_ms: int = 0
    workers: int = 1
    log_level: str = "info"
    keep_alive_seconds: float = 5.0
    #: The longest a request body may take to arrive, however steadily it trickles.
    body_timeout_seconds: float = 60.0
    http_parser: HttpParser = "httptools"
    token_lifetime_seconds: int = 3600
    #: Your own collections (``--data db.json``); None serves only the built-in ones.
    data: Path | None = None
    #: Keep writes to ``data`` in memory instead of writing them to the file.
    read_only_data: bool = False
    #: How many requests the request journal (``/_journal``) keeps, newest last.
    journal_size: int = 1000
    #: ``/_journal`` shows credentials and secret fields as sent (``--journal-secrets``);
    #: masked otherwise. The pytest plugin sees them either way.
    journal_secrets: bool = False
    #: Origins allowed by CORS (``--cors``): None is off, ``("*",)`` any origin without
    #: credentials; a listed origin may send credentials (see :mod:`mock_server.layers.cors`).
    cors_origins: tuple[str, ...] | None = None
    #: ``POST /_reset`` restores the seed without a login (``--allow-reset``), for tests.
    allow_reset: bool = False
    #: Serve HTTP/2 too, with Hypercorn (see :mod:`mock_server.transport.http2`).
    http2: bool = False
    #: Serve over TLS: with ``cert`` and ``key`` (PEM files), or a certificate made at start.
    tls: bool = False
    cert: Path | None = None
    key: Path | None = None
    #: Serve the OAuth 2.0 authorization server (``--no-oauth`` turns it off).
    oauth: bool = True
    #: OAuth clients beside the seeded ones (``--oauth-client``).
    oauth_clients: tuple[OAuthClientSpec, ...] = ()

    @property
    def shared_store(self) -> bool:
        """True when the data is in a database several processes can share."""
        return self.db is not None or self.store_url is not None

    #: Serve this OpenAPI 3.0 or 3.1 document instead of the teaching API (``--openapi``).
    openapi: Path | None = None
    #: Answer every operation as the document says, remembering nothing (``--stateless``).
    stateless: bool = False
    #: The seed of generated answers: the same seed, the same answers.
    seed: int = 0
    #: Keys an ``apiKey`` security scheme of the document accepts (besides the mock's tokens).
    api_keys: tuple[str, ...] = ()
    #: Proxy every request to this URL and record the exchanges in ``tape`` (``--record``).
    record: str | None = None
    #: The HAR file ``record`` writes.
    tape: Path | None = None
    #: Serve the exchanges of this HAR file (``--replay``); with ``openapi``, recorded first.
    replay: Path | None = None

    @property
    def teaching_api(self) -> bool:
        """True when the mock serves its own teaching API (no document, tape or proxy)."""
        return self.openapi is None and self.replay is None and self.record is None

    #: Events kept for streams to resume from (``Last-Event-ID``), newest last.
    event_backlog: int = 1000
    #: Seconds between the comment lines that keep an idle event stream open.
    event_heartbeat_seconds: float = 15.0
    #: Where webhooks may deliver: ``HOST`` or ``HOST:PORT`` entries; empty: loopback only.
    webhook_allow: tuple[str, ...] = ()
    #: The pauses, in seconds, before each retry of a failed webhook delivery.
    webhook_retries: tuple[float, ...] = (1.0, 5.0, 30.0)

    def __post_init__(self) -> None:
        bad = self.disabled_methods & UNDISABLEABLE_METHODS
        if bad:
            raise ValueError(f"{', '.join(sorted(bad))} can never be disabled")
        if self.seed_size < 1:
            raise ValueError("seed size must be at least 1")
        if not 0.0 <= self.fault_rate <= 1.0:
            raise ValueError("fault rate must be between 0 and 1")
        if self.latency_ms < 0:
            raise ValueError("latency must not be negative")
        if self.body_timeout_seconds <= 0:
            raise ValueError("the body timeout must be positive")
        if self.workers < 1:
            raise ValueError("workers must be at least 1")
        if self.journal_size < 0:
            raise ValueError("journal size must not be negative")
        if self.db is not None and self.store_url is not None:
            raise ValueError("one store at a time: a SQLite file or a PostgreSQL URL")
        if self.event_backlog < 1:
            raise ValueError("the event backlog must hold at least 1 event")
        if not 0 < self.event_heartbeat_seconds < float("inf"):
            raise ValueError("the event heartbeat must be a positive number of seconds")
        if any(not 0 <= pause < float("inf") for pause in self.webhook_retries):
            raise ValueError("webhook retry pauses must be seconds, 0 or more")
        if (self.cert is None) != (self.key is None):
            raise ValueError("a certificate and its key go together: give both or neither")
        if self.cert is not None and not self.tls:
            raise ValueError("a certificate is for TLS: it needs tls on")
        if (self.record is None) != (self.tape is None):
            raise ValueError("--record URL and --tape FILE go together")
        if self.record is not None and (self.replay is not None or self.openapi is not None):
            raise ValueError("--record proxies a real API: leave out --replay and --openapi")
        if not self.teaching_api and self.data is not None:
            given = "--openapi" if self.openapi else "--replay" if self.replay else "--record"
            raise ValueError(
                f"--data and {given} do not go together: --data adds your collections to "
                "the teaching API, and with a document or a tape the mock serves only that "
                "(a document's collections start from its examples)"
            )
        if self.stateless and self.openapi is None:
            raise ValueError("--stateless is for --openapi")
        if self.openapi is None and self.api_keys:
            raise ValueError("--api-key is for --openapi (the document's apiKey schemes)")
        if self.openapi is None and self.seed:
            raise ValueError("--seed is for --openapi (the answers made from its schemas)")
        if self.openapi is not None and not self.stateless and self.shared_store:
            raise ValueError(
                "--openapi keeps the document's collections in this process's memory, "
                "never in --store or --db (what you POST would not be kept where you "
                "asked): leave out --store, or add --stateless to keep only logins, the "
                "journal and the rate limit there"
            )
        for origin in self.cors_origins or ():
            if origin == "null":
                raise ValueError(
                    "--cors cannot allow null: it is the origin of every sandboxed page and "
                    "local file, so it would let any site use the browser's credentials; "
                    "--cors alone lets any origin read without them"
                )
            if origin != "*" and not ORIGIN.match(origin):
                raise ValueError(
                    "--cors takes origins as browsers send them, scheme://host[:port] in "
                    f"lower case with no path (http://localhost:5173), got {origin!r}"
                )
