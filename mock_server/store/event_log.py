"""The event log: every change to the data, numbered in the order it happened.

An :class:`Event` is one change: its number (``seq``, from 1, never reused),
its type (``customer.created``), when, which stream it belongs to (its
``topic``: a collection, ``jobs``, or None for every stream), the path of the
resource, and what the resource was after the change (``payload``: a record's
stored data, rendered per API version when sent, or a representation ready
to send). The log keeps only the newest :attr:`EventLog.capacity` of them:
the backlog a stream resumes from.

Each log has an ``origin``, drawn when it is first made: event ids given to
clients carry it (``42-5f3a9c1e``), so a ``Last-Event-ID`` from another run of
the server (whose numbers started again at 1) is told from one of this log.

:class:`MemoryEventLog` is the log of a server without ``--db``. With one,
the database keeps the log beside the records
(:meth:`mock_server.store.store.Persistence.event_log`): an event appended
inside a write's transaction commits with that write, so the events of
``--workers`` processes sharing a file are numbered in the order their writes
committed, and a stream served by any of them reads them all.
"""

from __future__ import annotations

import os
import threading
from collections import deque
from dataclasses import dataclass, replace
from typing import Any, Protocol

#: Events kept by default (``--event-backlog``).
DEFAULT_CAPACITY = 1000


def new_origin() -> str:
    """A fresh origin: eight hex digits."""
    return os.urandom(4).hex()


@dataclass(frozen=True)
class Event:
    """One change to the data. ``seq`` is 0 until a log numbers it."""

    type: str
    time: float
    topic: str | None
    path: str
    payload: dict[str, Any]
    #: The record's id, for an event about a record (its payload is then the stored data).
    record_id: int | None = None
    seq: int = 0


class EventLog(Protocol):
    """Where events are numbered and the newest :attr:`capacity` of them kept."""

    #: Set when the log is made; ids given to clients carry it.
    origin: str
    #: How many events are kept (older ones are forgotten).
    capacity: int
    #: True when other processes append to it too: readers must look for their events.
    shared: bool

    def append(self, event: Event) -> Event:
        """Number ``event`` (the next ``seq``) and keep it; returns it numbered.

        Inside a write's transaction, it commits (or rolls back) with the write.
        """

    def after(self, seq: int, limit: int) -> list[Event]:
        """The kept events numbered above ``seq``, oldest first, at most ``limit``."""

    def newest(self) -> int:
        """The highest ``seq`` given so far (0 when none): cheap, asked often."""


class MemoryEventLog:
    """An :class:`EventLog` in this process's memory, for a server without a database."""

    shared = False

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.origin = new_origin()
        self.capacity = capacity
        self._events: deque[Event] = deque(maxlen=capacity)
        self._newest = 0
        self._lock = threading.Lock()

    def append(self, event: Event) -> Event:
        """Number and keep ``event``; the oldest is forgotten past :attr:`capacity`."""
        with self._lock:
            self._newest += 1
            numbered = replace(event, seq=self._newest)
            self._events.append(numbered)
        return numbered

    def after(self, seq: int, limit: int) -> list[Event]:
        """The kept events above ``seq``, oldest first, at most ``limit``."""
        with self._lock:
            kept = self._events
            if not kept or seq >= self._newest:
                return []
            start = max(0, seq - kept[0].seq + 1)  # numbers are consecutive in memory
            return [kept[i] for i in range(start, min(len(kept), start + limit))]

    def newest(self) -> int:
        """The highest number given so far."""
        return self._newest
