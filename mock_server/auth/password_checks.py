"""Checking passwords so that a flood of wrong ones starves no correct login.

A password costs one PBKDF2 hash (about 0.2 s of CPU: :mod:`mock_server.auth.users`).
One hash at a time in the whole process, in arrival order, made every login
one queue: twenty wrong passwords for bob, well inside the rate limit, kept
alice's correct first login waiting 5.5 s. Now (:class:`PasswordChecks`):

- hashes run in worker threads, at most :data:`HASH_THREADS` at once (a
  limiter of their own, not the thread pool Starlette shares), never on the
  event loop;
- each **account** hashes one password at a time: a user name, and one
  account for every name that is no user (so made-up names cannot open more
  queues than there are users). A flood queues behind itself; another
  account's login takes a free thread at once. At most :data:`MAX_WAITING`
  different passwords wait for one account: one more is a 429 with
  ``Retry-After`` (:class:`TooManyAttempts`), so the work a flood leaves behind
  is bounded, even when its clients have gone (fifty load-test workers logging
  in as alice at once send one password: one hash, and the others read its
  outcome);
- an account's consecutive failures slow its next attempts (:func:`backoff_delay`:
  :data:`FREE_FAILURES` free, then :data:`FIRST_DELAY` doubling up to
  :data:`LONGEST_DELAY`, forgotten after :data:`FORGET_AFTER` quiet seconds or
  at a success). Guessing one user's password gets slower; the others' logins
  do not;
- a (name, password) pair checked before answers from its remembered outcome
  at once, with no thread and no wait (as before).

Waiting (for the account, for the backoff, for a thread) happens in the event
loop: a waiting login holds no thread. The price of the shared account for
unknown names: someone who floods it sees that a name of theirs is no user by
its wait; the seeded user book is documented, and without it every made-up
name would be a queue of its own, and the starvation would be back.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus

import anyio
import anyio.to_thread

from mock_server.auth.users import User, Users, fingerprint
from mock_server.http.problems import Problem

#: Hashes running at once: every core but not more than four (four accounts at most
#: hash at once with the seeded users and the unknown names).
HASH_THREADS = max(2, min(4, os.cpu_count() or 1))
#: Consecutive failures of an account that cost nothing more than their hashes.
FREE_FAILURES = 3
#: The wait before the next attempt after :data:`FREE_FAILURES` failures, doubling after.
FIRST_DELAY = 0.25
#: The longest wait before an attempt.
LONGEST_DELAY = 2.0
#: Different passwords that may wait for one account at once.
MAX_WAITING = 16
#: Seconds without a failure after which an account's failures are forgotten.
FORGET_AFTER = 60.0
#: The account of every name that is no user.
UNKNOWN = ""


class TooManyAttempts(Problem):
    """429: :data:`MAX_WAITING` other passwords already wait for this account."""

    def __init__(self, retry_after: float) -> None:
        seconds = max(1, math.ceil(retry_after))
        super().__init__(
            HTTPStatus.TOO_MANY_REQUESTS,
            f"Too many logins for this user are waiting to be checked; try again in "
            f"{seconds} s. Wrong passwords slow down the next logins of their user.",
            headers={"Retry-After": str(seconds)},
        )


def backoff_delay(failures: int) -> float:
    """Seconds an account with ``failures`` consecutive failures waits before a hash."""
    if failures < FREE_FAILURES:
        return 0.0
    return min(LONGEST_DELAY, FIRST_DELAY * 2.0 ** (failures - FREE_FAILURES))


def _lock() -> anyio.Lock:
    """A new account's lock.

    anyio makes its synchronization classes at their first use (a PEP 562 lazy import
    of a module of a dozen dataclasses): here, with the first login's account, and the
    hashes' limiter with the first hash, rather than with this module, which every
    start imports (some 4 ms of it).
    """
    return anyio.Lock()


@dataclass
class _Account:
    """One account's queue (a lock) and its record of failures."""

    lock: anyio.Lock = field(default_factory=_lock)
    failures: int = 0
    last_failure: float = 0.0
    #: The passwords (their fingerprints) of the logins waiting or checked, and how many.
    pending: dict[bytes, int] = field(default_factory=dict)


class PasswordChecks:
    """The users' passwords checked off the event loop, fairly between accounts."""

    def __init__(
        self,
        users: Users,
        *,
        threads: int = HASH_THREADS,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
    ) -> None:
        self.users = users
        self._threads = threads
        #: The hashes' limiter, made with the first hash (see :func:`_lock`).
        self._limiter: anyio.CapacityLimiter | None = None
        self._clock = clock
        self._sleep = sleep
        #: One per user, and :data:`UNKNOWN`: as many as the user book has, plus one.
        self._accounts: dict[str, _Account] = {}

    def account_of(self, name: str) -> str:
        """The account a login as ``name`` counts against."""
        return name if self.users.get(name) is not None else UNKNOWN

    def failures(self, name: str) -> int:
        """The consecutive failures counted against ``name``'s account now."""
        account = self._accounts.get(self.account_of(name))
        if account is None or self._clock() - account.last_failure > FORGET_AFTER:
            return 0
        return account.failures

    async def check(self, name: str, password: str) -> User | None:
        """The user when ``password`` is ``name``'s; None otherwise.

        Raises :class:`TooManyAttempts` when :data:`MAX_WAITING` other passwords
        already wait for the account.
        """
        known, user = self.users.recall(name, password)
        if known:
            return user
        account = self._accounts.setdefault(self.account_of(name), _Account())
        key = fingerprint(name, password)
        if key not in account.pending and len(account.pending) >= MAX_WAITING:
            raise TooManyAttempts(backoff_delay(self.failures(name)) * MAX_WAITING)
        account.pending[key] = account.pending.get(key, 0) + 1
        try:
            async with account.lock:
                return await self._check_alone(account, name, password)
        finally:
            account.pending[key] -= 1
            if not account.pending[key]:
                del account.pending[key]

    async def _check_alone(self, account: _Account, name: str, password: str) -> User | None:
        """:meth:`check` while no other login of the account is checked."""
        # A login with the same pair may have been checked while this one waited.
        known, user = self.users.recall(name, password)
        if known:
            return user
        delay = backoff_delay(self.failures(name))
        if delay:
            await self._sleep(delay)
        if self._limiter is None:
            self._limiter = anyio.CapacityLimiter(self._threads)
        user = await anyio.to_thread.run_sync(
            self.users.authenticate, name, password, limiter=self._limiter
        )
        if user is None:
            account.failures = self.failures(name) + 1
            account.last_failure = self._clock()
        else:
            account.failures = 0
        return user
