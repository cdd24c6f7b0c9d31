"""Rate limit layer: at most N requests per window per client, else 429.

**Who is a client.** The rate limit sits outside authentication (the design's
layer order), so it cannot use the authenticated principal; and it must not
trust what a client merely *claims*, or a client could dodge its limit by
sending a new made-up user name (Basic) or unsigned token with each request.
So a client is:

- the ``sub`` of a Bearer token whose signature verifies with the server's
  secret (``service.auth.secret``) and which has not expired
  (:func:`mock_server.auth.tokens.verify`: pure and cheap, one HMAC);
- otherwise the client's IP address (the port is not part of it).

Basic credentials are not used: checking a password costs a deliberately slow
hash, which a rate limiter must not pay per request; Basic clients are counted
by address, as are anonymous ones and clients with a bad token.

**The window** is sliding: a client may make ``requests`` requests in any
``window_seconds``; each request is remembered until it leaves the window.
Refused requests are not counted. Time comes from ``service.clock``, so tests
move time instead of sleeping. With ``--workers N`` each worker counts alone;
with ``--store postgresql://`` the windows are kept in the database
(:class:`SharedWindow`) and every instance counts in the same ones.

**The answer.** Every response carries ``RateLimit-Limit``,
``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds until the oldest
counted request leaves the window and frees a slot), plus ``RateLimit-Policy``
(``100;w=10``). Over the limit: 429 with those and ``Retry-After``.

A 429 from inside (a login that must wait, the status demo) is a refusal by
another rule: this layer's fields, saying requests are left, would contradict
it, and the draft asks for the fields of the window with the fewest left. So
an inner 429 keeps the fields it carries, if any, and gets none of this layer's.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Protocol

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mock_server.auth import tokens
from mock_server.http.problems import Problem
from mock_server.http.rate_limit_fields import budget_fields, refusal_fields
from mock_server.service import Service
from mock_server.settings import RateLimit
from mock_server.store.shared import RateCounter

#: Forget idle clients after this many requests (keeps memory bounded).
SWEEP_EVERY = 1024

BearerSubject = Callable[[str], "str | None"]
"""A Bearer token to the subject it verifiably names, or None."""


@dataclass(frozen=True)
class Decision:
    """The outcome for one request: allowed or not, and what the headers say."""

    allowed: bool
    limit: int
    remaining: int
    reset_seconds: int

    def headers(self, window_seconds: float) -> dict[str, str]:
        """The ``RateLimit-*`` headers for this decision."""
        return budget_fields(self.limit, window_seconds, self.remaining, self.reset_seconds)


class Window(Protocol):
    """Where a client's recent requests are counted."""

    limit: RateLimit

    def take(self, key: str, now: float) -> Decision:
        """Count a request of ``key`` at ``now`` if a slot is free; say what happened."""


class SlidingWindow:
    """Counts each client's requests over the last ``window_seconds``."""

    def __init__(self, limit: RateLimit) -> None:
        self.limit = limit
        self._hits: dict[str, deque[float]] = {}
        self._since_sweep = 0

    def __len__(self) -> int:
        """How many clients are remembered."""
        return len(self._hits)

    def take(self, key: str, now: float) -> Decision:
        """Count a request of ``key`` at ``now`` if a slot is free; say what happened."""
        window = self.limit.window_seconds
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - window:
            hits.popleft()
        allowed = len(hits) < self.limit.requests
        if allowed:
            hits.append(now)
        reset = max(1, math.ceil(hits[0] + window - now))
        self._sweep(now)
        return Decision(allowed, self.limit.requests, self.limit.requests - len(hits), reset)

    def _sweep(self, now: float) -> None:
        self._since_sweep += 1
        if self._since_sweep < SWEEP_EVERY:
            return
        self._since_sweep = 0
        horizon = now - self.limit.window_seconds
        for key in [key for key, hits in self._hits.items() if not hits or hits[-1] <= horizon]:
            del self._hits[key]


class SharedWindow:
    """The sliding window counted in a database, for every instance sharing it."""

    def __init__(self, limit: RateLimit, counter: RateCounter) -> None:
        self.limit = limit
        self._counter = counter

    def take(self, key: str, now: float) -> Decision:
        """Count a request of ``key`` at ``now`` if a slot is free, on every instance."""
        window = self.limit.window_seconds
        allowed, used, oldest = self._counter.take(key, now, window, self.limit.requests)
        reset = max(1, math.ceil(oldest + window - now))
        return Decision(allowed, self.limit.requests, self.limit.requests - used, reset)


def bearer_token(scope: Scope) -> str | None:
    """The Bearer token of the request's ``Authorization`` header, if it has one."""
    headers: list[tuple[bytes, bytes]] = scope["headers"]
    for name, value in headers:
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
            return None
    return None


def client_key(scope: Scope, bearer_subject: BearerSubject) -> str:
    """Whom a request counts against: a verified token subject, else the address."""
    token = bearer_token(scope)
    subject = bearer_subject(token) if token else None
    if subject is not None:
        return f"subject:{subject}"
    client = scope.get("client")
    return f"address:{client[0]}" if client else "address:unknown"


def subject_verifier(secret: bytes, clock: Callable[[], float]) -> BearerSubject:
    """A function from a Bearer token to its verified, unexpired subject (else None)."""

    def subject(token: str) -> str | None:
        claims = tokens.verify(token, secret, clock())
        return claims.sub if claims is not None else None

    return subject


class RateLimitLayer:
    """Answers 429 once a client has used up its requests for the window."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service
        limit = service.settings.rate_limit
        sharing = service.sharing
        self.window: Window | None = None
        if limit is not None:
            self.window = (
                SlidingWindow(limit)
                if sharing is None
                else SharedWindow(limit, sharing.rate_windows)
            )
        self.bearer_subject = subject_verifier(service.auth.secret, lambda: service.clock())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self.window is None:
            await self.app(scope, receive, send)
            return
        window_seconds = self.window.limit.window_seconds
        decision = self.window.take(client_key(scope, self.bearer_subject), self.service.clock())
        if not decision.allowed:
            problem = Problem(
                HTTPStatus.TOO_MANY_REQUESTS,
                f"Too many requests: the limit is {decision.limit} per "
                f"{window_seconds:g} s; retry in {decision.reset_seconds} s.",
                headers=refusal_fields(decision.limit, window_seconds, decision.reset_seconds),
            )
            await problem.response(scope)(scope, receive, send)
            return
        headers = decision.headers(window_seconds)

        async def send_with_headers(message: Message) -> None:
            if (
                message["type"] == "http.response.start"
                and message["status"] != HTTPStatus.TOO_MANY_REQUESTS
            ):
                MutableHeaders(scope=message).update(headers)
            await send(message)

        await self.app(scope, receive, send_with_headers)
