"""Every setting of the mock server, in one frozen dataclass.

The command line (:mod:`mock_server.cli`) fills it; tests build it directly.
Defaults are the ones ``../shared/design/mock-server.md`` decides.
"""

from __future__ import annotations

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


@dataclass(frozen=True)
class RateLimit:
    """At most ``requests`` per ``window_seconds`` for one client."""

    requests: int
    window_seconds: float


@dataclass(frozen=True)
class Settings:
    """How one mock server instance behaves."""

    host: str = "127.0.0.1"
    port: int = 8000
    db: Path | None = None
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
    latency_ms: int = 0
    workers: int = 1
    log_level: str = "info"
    keep_alive_seconds: float = 5.0
    #: The longest a request body may take to arrive, however steadily it trickles.
    body_timeout_seconds: float = 60.0
    http_parser: HttpParser = "httptools"
    token_lifetime_seconds: int = 3600

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
