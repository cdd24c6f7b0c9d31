"""The event hub: where the store's writes become events, and where streams read them.

**Writing.** The store tells the hub of each write inside the write's
transaction (:meth:`EventHub.changed`); the hub asks its :class:`Describer`
what the change is called and appends the event to the log there, so it
commits with the write. When the store says the transaction committed
(:meth:`EventHub.settled`), the events are handed to the listeners (the
webhooks' deliverer): only events that exist are delivered. Events that are
no write (a job's progress) are published directly (:meth:`EventHub.publish`).

**Reading.** Every process keeps the newest events in memory (the *ring*,
as many as the log keeps), read from the log after each commit of its own,
and, when other processes write to the same log (``--db`` with
``--workers``), every :data:`POLL_SECONDS` while a stream waits (one task
per process looks, however many streams wait). A stream
holds only a cursor, the number of the last event it sent, and reads the
ring from there (:meth:`EventHub.since`): a client that reads slowly costs
the server nothing more, and one that falls further behind than the ring
reaches is told how many events it missed. Nothing here grows with the
number of events or with a slow reader.

A shared log that cannot be read for a while (PostgreSQL restarting) keeps
streams waiting, not failing: the polling task and the read after a commit
try again at their next turn.

**Closing.** :meth:`EventHub.close` (from any thread) ends every stream's
wait and stops the tasks the hub runs (a job's progress), so a server with
open streams stops at once.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import threading
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from mock_server.store.errors import StoreUnavailable
from mock_server.store.event_log import Event, EventLog
from mock_server.store.store import Change

#: How often a process looks for other processes' events in a shared log, while a
#: stream waits (one look for all its streams).
POLL_SECONDS = 0.1
#: How long a stream waits before it looks again by itself (it is woken sooner).
IDLE_SECONDS = 5.0
#: The most events one read of the ring gives.
READ_BATCH = 100
#: Tasks the hub runs at once at most (a job's progress each); the oldest is stopped.
MAX_TASKS = 1000
#: The event of a reset of the data (``POST /admin/reset``): on every stream.
RESET = "data.reset"


class Describer(Protocol):
    """What each change is called and how an event's resource shows in a version."""

    def describe(self, change: Change, now: float) -> Event | None:
        """The event for ``change`` (None: not one to tell)."""

    def render(self, event: Event, version: int) -> Any:
        """The representation of ``event``'s resource in API ``version``."""

    def types(self) -> tuple[str, ...]:
        """Every event type this server sends."""


class PlainDescriber:
    """Names a change after its collection (``customers`` -> ``customer.created``).

    What a hub uses until the server gives it the describer that knows the
    entities (:mod:`mock_server.events.describer`).
    """

    def describe(self, change: Change, now: float) -> Event | None:
        """``<collection without its s>.<action>``; a reset is :data:`RESET`."""
        if change.collection is None or change.record is None:
            return Event(RESET, now, None, "/", {})
        record = change.record
        kind = change.collection.removesuffix("s")
        return Event(
            f"{kind}.{change.action}",
            now,
            change.collection,
            f"/{change.collection}/{record.id}",
            dict(record.data),
            record.id,
        )

    def render(self, event: Event, version: int) -> Any:
        """The payload as it is."""
        return event.payload

    def types(self) -> tuple[str, ...]:
        """None known beforehand but the reset."""
        return (RESET,)


class EventHub:
    """One server's events: written into ``log``, read by its streams from memory."""

    def __init__(self, log: EventLog, clock: Callable[[], float] = time.time) -> None:
        self.log = log
        self.clock = clock
        self.describer: Describer = PlainDescriber()
        #: Told of each event of this process once its transaction committed.
        self.listeners: list[Callable[[Event], None]] = []
        self.closed = False
        #: Streams open now (the resource refuses more than its limit).
        self.streams = 0
        self._ring: deque[Event] = deque(maxlen=log.capacity)
        self._seen: int | None = None  # the newest seq in the ring; None: not read yet
        self._lock = threading.RLock()
        self._pending = threading.local()  # events of the transaction a thread has open
        self._refresh_due = False
        #: The loop of the task polling a shared log, while one runs.
        self._poller: asyncio.AbstractEventLoop | None = None
        self._waiters: set[asyncio.Future[None]] = set()
        self._closing: set[asyncio.Future[None]] = set()
        self._tasks: deque[asyncio.Task[None]] = deque()

    @property
    def origin(self) -> str:
        """The log's origin (ids given to clients carry it)."""
        return self.log.origin

    # Writing ---------------------------------------------------------------------------

    def changed(self, change: Change) -> None:
        """The store's watcher: append the event for ``change`` (inside its transaction)."""
        event = self.describer.describe(change, self.clock())
        if event is None:
            return
        numbered = self.log.append(event)
        pending: list[Event] = getattr(self._pending, "events", [])
        pending.append(numbered)
        self._pending.events = pending

    def settled(self, committed: bool) -> None:
        """The store's write ended: hand its events on if it committed, else forget them."""
        pending: list[Event] = getattr(self._pending, "events", [])
        self._pending.events = []
        if committed and pending:
            self._committed(pending)

    def publish(self, event: Event) -> Event:
        """Append ``event`` (no write goes with it) and tell it at once; returns it numbered."""
        numbered = self.log.append(event)
        self._committed([numbered])
        return numbered

    def _committed(self, events: list[Event]) -> None:
        for event in events:
            for listener in self.listeners:
                listener(event)
        self._refresh_soon()

    def _refresh_soon(self) -> None:
        """Read the log once the code that wrote is done (a callback of the running loop)."""
        with self._lock:
            if self._refresh_due:
                return
            self._refresh_due = True
        try:
            asyncio.get_running_loop().call_soon(self._refresh_when_possible)
        except RuntimeError:  # no loop in this thread (a store used directly): read now
            self.refresh()

    def _refresh_when_possible(self) -> None:
        """:meth:`refresh`, unless the log cannot be read now (the next look will)."""
        with contextlib.suppress(StoreUnavailable):
            self.refresh()

    # Reading ---------------------------------------------------------------------------

    def refresh(self) -> None:
        """Bring the ring up to the log, then wake the streams waiting for news."""
        log = self.log
        with self._lock:
            self._refresh_due = False
            newest = log.newest()
            seen = self._seen
            if seen is None or newest - seen > log.capacity:
                seen = max(0, newest - log.capacity)  # the ring is read whole
                self._ring.clear()
            while seen < newest:
                batch = log.after(seen, log.capacity)
                if not batch:
                    break
                self._ring.extend(batch)
                seen = batch[-1].seq
            self._seen = seen
            waiters, self._waiters = self._waiters, set()
        for waiter in waiters:
            _wake(waiter)

    def newest(self) -> int:
        """The number of the newest event this process has read (reading the log first
        if it never did, or when other processes appended to a shared log since: a
        ``Last-Event-ID`` given by another instance's stream is then known here)."""
        seen = self._seen
        if seen is None or (self.log.shared and self.log.newest() > seen):
            self.refresh()
        return self._seen or 0

    def oldest(self) -> int:
        """The number of the oldest event kept in memory (``newest + 1`` when none is)."""
        with self._lock:
            return self._ring[0].seq if self._ring else self.newest() + 1

    def since(self, cursor: int) -> tuple[list[Event], int]:
        """Events after ``cursor`` (at most :data:`READ_BATCH`), and how many between
        ``cursor`` and them are no longer kept."""
        with self._lock:
            ring = self._ring
            if not ring or ring[-1].seq <= cursor:
                return [], 0
            oldest = ring[0].seq
            missed = max(0, oldest - 1 - cursor)
            start = bisect.bisect_right(ring, cursor, key=_seq)
            return [ring[i] for i in range(start, min(len(ring), start + READ_BATCH))], missed

    async def wait(self, cursor: int) -> None:
        """Until an event after ``cursor`` may be there, the hub closes, or a while passes.

        With a shared log, one task looks in it for other processes' events
        every :data:`POLL_SECONDS` while any stream waits (:meth:`_poll`).
        """
        loop = asyncio.get_running_loop()
        with self._lock:
            if self.closed or (self._seen or 0) > cursor:
                return
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            polling = self.log.shared and self._poller is None
            if polling:
                self._poller = loop
        if polling:
            self.spawn(self._poll())
        try:
            await asyncio.wait_for(waiter, IDLE_SECONDS)
        except TimeoutError:
            pass
        finally:
            with self._lock:
                self._waiters.discard(waiter)

    async def _poll(self) -> None:
        """Read the shared log for news every :data:`POLL_SECONDS` while streams wait."""
        try:
            while True:
                await asyncio.sleep(POLL_SECONDS)
                with self._lock:
                    if not self._waiters or self.closed:
                        self._poller = None
                        return
                if self.log.newest() > (self._seen or 0):
                    self._refresh_when_possible()
        except BaseException:
            with self._lock:
                self._poller = None
            raise

    # Tasks and closing -----------------------------------------------------------------

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` on the running loop until it ends or the hub closes."""
        if self.closed:
            work.close()
            return
        task = asyncio.get_running_loop().create_task(work)
        with self._lock:
            self._tasks.append(task)
            while len(self._tasks) > MAX_TASKS:
                _cancel(self._tasks.popleft())
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[None]) -> None:
        with self._lock:
            if task in self._tasks:
                self._tasks.remove(task)

    async def until_closed(self) -> None:
        """Return once the hub is closed."""
        with self._lock:
            if self.closed:
                return
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._closing.add(waiter)
        try:
            await waiter
        finally:
            with self._lock:
                self._closing.discard(waiter)

    def close(self) -> None:
        """End every stream's wait and stop the hub's tasks (from any thread)."""
        with self._lock:
            self.closed = True
            waiters = self._waiters | self._closing
            self._waiters, self._closing = set(), set()
            tasks = list(self._tasks)
        for waiter in waiters:
            _wake(waiter)
        for task in tasks:
            _cancel(task)


def _seq(event: Event) -> int:
    return event.seq


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


def _wake(waiter: asyncio.Future[None]) -> None:
    """Resolve ``waiter`` on its own loop, whichever thread this is."""
    with contextlib.suppress(RuntimeError):  # its loop has closed: nobody waits any more
        waiter.get_loop().call_soon_threadsafe(_resolve, waiter)


def _cancel(task: asyncio.Task[None]) -> None:
    with contextlib.suppress(RuntimeError):  # its loop has closed: so has the task
        task.get_loop().call_soon_threadsafe(task.cancel)
