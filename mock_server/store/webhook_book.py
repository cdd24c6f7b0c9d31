"""Webhook subscriptions and the attempts to deliver to them, as the store keeps them.

A :class:`Subscription` says where to POST which events (a callback URL,
event types, the API version of the payload) and the secret deliveries are
signed with. Each try to deliver one event to one subscription is an
:class:`Attempt`, kept (the newest :data:`MAX_ATTEMPTS` per subscription) so
``GET /webhooks/{id}`` can list them. Ids are never reused: an id below
:meth:`WebhookBook.next_id` that is not there was deleted (410 Gone).

:class:`MemoryWebhookBook` keeps them in memory; with ``--db`` the database
does (:meth:`mock_server.store.store.Persistence.webhook_book`), so every
``--workers`` process sees every subscription and every attempt.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, replace
from typing import Protocol

#: Subscriptions kept at most: a server answers 409 to more.
MAX_SUBSCRIPTIONS = 100
#: Attempts kept per subscription, newest last.
MAX_ATTEMPTS = 50


@dataclass(frozen=True)
class Subscription:
    """Where to deliver which events, and how to sign them. ``id`` is 0 until added."""

    url: str
    types: tuple[str, ...]
    secret: str
    version: int
    #: The scheme and authority the subscription was made at: payload URLs are absolute.
    base: str
    created: float
    description: str = ""
    id: int = 0


@dataclass(frozen=True)
class Attempt:
    """One try to deliver one event to one subscription."""

    webhook: int
    #: The event's id as clients see it (also the ``webhook-id`` sent).
    event: str
    type: str
    number: int
    time: float
    #: The receiver's status code; None when no answer came.
    status: int | None
    #: ``delivered``, ``failed`` (another try follows), ``gave-up`` or ``dropped``.
    outcome: str
    detail: str
    duration_ms: int
    #: When the next try is due (None: no other try).
    retry_at: float | None = None


class WebhookBook(Protocol):
    """Where subscriptions and their attempts are kept."""

    def add(self, subscription: Subscription) -> Subscription:
        """Keep ``subscription`` under the next id; returns it with its id."""

    def get(self, webhook_id: int) -> Subscription | None:
        """The subscription ``webhook_id``, or None when there is none (now)."""

    def all(self) -> list[Subscription]:
        """Every subscription, by id."""

    def remove(self, webhook_id: int) -> bool:
        """Delete the subscription and its attempts; True if it was there."""

    def next_id(self) -> int:
        """The id the next subscription will get: every smaller one was given once."""

    def record(self, attempt: Attempt) -> None:
        """Keep ``attempt`` (the oldest of its subscription's go past :data:`MAX_ATTEMPTS`)."""

    def attempts(self, webhook_id: int) -> list[Attempt]:
        """The attempts kept for ``webhook_id``, newest first."""


class MemoryWebhookBook:
    """A :class:`WebhookBook` in this process's memory."""

    def __init__(self) -> None:
        self._subscriptions: dict[int, Subscription] = {}
        self._attempts: dict[int, deque[Attempt]] = {}
        self._next = 1
        self._lock = threading.Lock()

    def add(self, subscription: Subscription) -> Subscription:
        """Keep ``subscription`` under the next id."""
        with self._lock:
            added = replace(subscription, id=self._next)
            self._next += 1
            self._subscriptions[added.id] = added
            self._attempts[added.id] = deque(maxlen=MAX_ATTEMPTS)
        return added

    def get(self, webhook_id: int) -> Subscription | None:
        """The subscription ``webhook_id``, if there is one."""
        return self._subscriptions.get(webhook_id)

    def all(self) -> list[Subscription]:
        """Every subscription, by id."""
        with self._lock:
            return [self._subscriptions[key] for key in sorted(self._subscriptions)]

    def remove(self, webhook_id: int) -> bool:
        """Delete the subscription and its attempts."""
        with self._lock:
            self._attempts.pop(webhook_id, None)
            return self._subscriptions.pop(webhook_id, None) is not None

    def next_id(self) -> int:
        """The id the next subscription will get."""
        return self._next

    def record(self, attempt: Attempt) -> None:
        """Keep ``attempt``, unless its subscription was deleted meanwhile."""
        with self._lock:
            kept = self._attempts.get(attempt.webhook)
            if kept is not None:
                kept.append(attempt)

    def attempts(self, webhook_id: int) -> list[Attempt]:
        """The attempts kept for ``webhook_id``, newest first."""
        with self._lock:
            return list(reversed(self._attempts.get(webhook_id, ())))
