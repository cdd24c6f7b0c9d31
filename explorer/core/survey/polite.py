"""Sending a survey's requests politely: one at a time, spaced, and waiting when asked.

A map or an audit sends many requests to a server that did not ask for them, so
:class:`PoliteSender` sends them as a considerate crawler does:

- one at a time (the caller awaits each), at least ``delay`` seconds apart;
- a ``429 Too Many Requests`` or ``503 Service Unavailable`` with ``Retry-After``
  (seconds or an HTTP-date, RFC 9110 §10.2.3) is sent again after that wait,
  when the wait ends before the survey's deadline and is no longer than
  ``max_wait``; a 429 without it is retried after a doubling back-off;
- a ``RateLimit-Remaining: 0`` (or ``X-RateLimit-Remaining``) holds the next
  request until the ``RateLimit-Reset`` seconds have passed;
- no request starts after the deadline, and none runs past it
  (:class:`OutOfTime`).

The sender is given the send function (the core client's, or a test's over the
mock's ASGI app), a clock and a sleep, so tests run it without waiting.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus

from explorer.core.http.exchange import Exchange, ReceivedResponse
from explorer.core.http.request import RequestSpec
from explorer.core.knowledge.field_values import parse_delta_seconds, parse_http_date

__all__ = ["Clock", "OutOfTime", "PoliteSender", "Send", "Sleep", "Wait", "retry_after_seconds"]

Send = Callable[[RequestSpec], Awaitable[Exchange]]
Sleep = Callable[[float], Awaitable[None]]
Clock = Callable[[], float]

#: Tries of one request that keeps answering 429 or 503.
MAX_TRIES = 3
#: The first back-off after a 429 that does not say how long to wait.
FIRST_BACKOFF = 1.0
#: A ``RateLimit-Reset`` larger than this is a Unix time (GitHub's), not seconds.
_EPOCH_THRESHOLD = 1_000_000_000
_WAIT_STATUSES = frozenset({HTTPStatus.TOO_MANY_REQUESTS, HTTPStatus.SERVICE_UNAVAILABLE})


class OutOfTime(Exception):
    """The survey's time is up: no more requests are sent."""


@dataclass(frozen=True)
class Wait:
    """A pause the server asked for: where, how long, and why."""

    url: str
    seconds: float
    why: str


def retry_after_seconds(response: ReceivedResponse) -> float | None:
    """Seconds ``Retry-After`` asks to wait (an HTTP-date counted from ``Date``), or None."""
    value = response.header("retry-after")
    if value is None:
        return None
    seconds = parse_delta_seconds(value)
    if seconds is not None:
        return float(seconds)
    when = parse_http_date(value)
    date = parse_http_date(response.header("date") or "")
    if when is None or date is None:
        return None
    return max(0.0, (when - date).total_seconds())


def _rate_limit_pause(response: ReceivedResponse) -> float | None:
    """Seconds until the rate-limit window resets when the quota is used up, else None."""
    remaining = response.header("ratelimit-remaining") or response.header("x-ratelimit-remaining")
    if remaining is None or remaining.strip() != "0":
        return None
    reset = response.header("ratelimit-reset") or response.header("x-ratelimit-reset")
    seconds = parse_delta_seconds(reset or "")
    if seconds is None:
        return None
    if seconds > _EPOCH_THRESHOLD:
        date = parse_http_date(response.header("date") or "")
        return None if date is None else max(0.0, seconds - date.timestamp())
    return float(seconds)


class PoliteSender:
    """Sends one request at a time, spaced by ``delay``, honouring what the server asks."""

    def __init__(
        self,
        send: Send,
        *,
        deadline: float,
        delay: float = 0.0,
        request_timeout: float = 30.0,
        max_wait: float = 30.0,
        clock: Clock = time.monotonic,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._send = send
        self.deadline = deadline
        self.delay = delay
        self.request_timeout = request_timeout
        self.max_wait = max_wait
        self.clock = clock
        self.sleep = sleep
        #: Requests sent (each try counts).
        self.sent = 0
        #: Every pause the server asked for, in order.
        self.waits: list[Wait] = []
        self._next_at = 0.0

    @property
    def remaining(self) -> float:
        """Seconds left before the deadline."""
        return self.deadline - self.clock()

    async def send(self, spec: RequestSpec, *, using: Send | None = None) -> Exchange:
        """Send ``spec`` politely; its answer (a 429 the server would not let go of too).

        ``using`` sends it through another send function than the sender's own (one
        that leaves the cookie jar out), spaced like the others. Raises
        :class:`OutOfTime` when the deadline comes first, and whatever the send
        function raises for a failed request.
        """
        backoff = FIRST_BACKOFF
        for attempt in range(1, MAX_TRIES + 1):
            await self._pause_until(self._next_at)
            exchange = await self._send_once(spec, using or self._send)
            response = exchange.response
            self._next_at = self.clock() + self.delay
            pause = _rate_limit_pause(response)
            if pause is not None and pause > 0:
                self._next_at = max(self._next_at, self.clock() + min(pause, self.max_wait))
                self.waits.append(Wait(response.url, pause, "the rate limit's quota is used up"))
            if response.status not in _WAIT_STATUSES or attempt == MAX_TRIES:
                return exchange
            wait = retry_after_seconds(response)
            if wait is None:
                if response.status != HTTPStatus.TOO_MANY_REQUESTS:
                    return exchange  # a 503 without Retry-After: nothing says when to come back
                wait, backoff = backoff, backoff * 2
            if wait > self.max_wait or self.clock() + wait >= self.deadline:
                return exchange  # longer than the survey may wait: its answer is the 429/503
            self.waits.append(Wait(response.url, wait, f"{response.status} with Retry-After"))
            self._next_at = max(self._next_at, self.clock() + wait)
        raise AssertionError("unreachable")  # pragma: no cover  (the loop always returns)

    async def _pause_until(self, when: float) -> None:
        now = self.clock()
        if now >= self.deadline:
            raise OutOfTime
        if when > now:
            if when >= self.deadline:
                raise OutOfTime
            await self.sleep(when - now)

    async def _send_once(self, spec: RequestSpec, send: Send) -> Exchange:
        limit = min(self.request_timeout, self.remaining)
        if limit <= 0:
            raise OutOfTime
        self.sent += 1
        try:
            async with asyncio.timeout(limit):
                return await send(spec)
        except TimeoutError:
            if self.remaining <= 0:
                raise OutOfTime from None
            from explorer.core.http.errors import DeadlineExceeded

            raise DeadlineExceeded(
                f"No answer within the {limit:g} s a survey gives one request.", url=spec.url
            ) from None
