"""Hearing the other instances' writes: PostgreSQL's LISTEN/NOTIFY.

Every write transaction ends with ``NOTIFY restwalk_changes, 'EPOCH:SEQ'``
(delivered at its commit): where the data is now. Each instance keeps one
connection that LISTENs; reading what has arrived on it costs one
non-blocking read, no round trip. A position past the instance's own means
another instance wrote: the store catches up (reads the records that
changed), and the member and page caches, which hang on the store's state,
are dropped.

A notification can still be on its way when a client, having had its 2xx
from one instance, asks another (measured: in-process, every time). So the
listener is not what makes a request see earlier writes: a request's first
look at the store reads the position from the database (see
:mod:`mock_server.store.freshness`); the listener answers for its later
looks, and is where anything that must wake on another instance's write
(an event stream) hears of it.

The same connection LISTENs for events (:data:`EVENTS_CHANNEL`: each event's
number, NOTIFYed in the transaction that appends it; see
:mod:`mock_server.store.postgresql.events`), so an instance learns of another's
events as it learns of its writes, and an open stream's look for news every
tenth of a second costs no round trip.

Positions compare as (epoch, seq): ``seq`` counts writes, ``epoch`` counts
resets (``POST /admin/reset`` starts a new epoch at seq 0). When the
listening connection breaks (the database restarted), nothing can be heard:
:meth:`Listener.heard_past` then says yes to every question, so the store
asks the database itself, until the listener is connected again and the
store has read the database once since (and the event log has read
``head.events``).
"""

from __future__ import annotations

import time
from typing import Any

import psycopg

from mock_server.store.postgresql.connection import CONNECT_TIMEOUT, PAUSE

CHANNEL = "restwalk_changes"
#: Where each event's number is NOTIFYed.
EVENTS_CHANNEL = "restwalk_events"

Position = tuple[int, int]


def payload(position: Position) -> str:
    """The notification's text for ``position``."""
    return f"{position[0]}:{position[1]}"


def position_of(text: bytes | str) -> Position | None:
    """The position a notification names (None if it is not one of ours)."""
    raw = text.decode("ascii", "replace") if isinstance(text, bytes) else text
    epoch, colon, seq = raw.partition(":")
    if not colon or not epoch.isdigit() or not seq.isdigit():
        return None
    return int(epoch), int(seq)


class Listener:
    """One LISTENing connection and the newest position it has heard of."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.heard: Position = (0, 0)
        #: The newest event number heard of.
        self.heard_events = 0
        #: Connected since the store last read the database: writes may have gone unheard.
        self._unsure = True
        #: Connected since the event log last read ``head``: events may have gone unheard.
        self._events_unsure = True
        self._connection: psycopg.Connection[tuple[Any, ...]] | None = None
        self._retry_at = 0.0
        self._connect()

    @property
    def connected(self) -> bool:
        """True while notifications can arrive."""
        return self._connection is not None

    def _connect(self) -> None:
        """LISTEN on a new connection; stays disconnected (and retries later) on failure."""
        try:
            connection = psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT)
            connection.execute(f"LISTEN {CHANNEL}")
            connection.execute(f"LISTEN {EVENTS_CHANNEL}")
        except psycopg.Error:
            self._retry_at = time.monotonic() + PAUSE
            return
        connection.pgconn.nonblocking = 1
        self._connection = connection
        self._unsure = True
        self._events_unsure = True

    def _broken(self) -> None:
        if self._connection is not None:
            self._connection.close()
        self._connection = None
        self._retry_at = time.monotonic() + PAUSE

    def drain(self) -> None:
        """Read every notification that has arrived, without waiting."""
        if self._connection is None:
            if time.monotonic() >= self._retry_at:
                self._connect()
            return
        pgconn = self._connection.pgconn
        try:
            pgconn.consume_input()
        except psycopg.Error:
            self._broken()
            return
        if pgconn.status != psycopg.pq.ConnStatus.OK:
            self._broken()
            return
        while (notification := pgconn.notifies()) is not None:
            if notification.relname == EVENTS_CHANNEL.encode():
                text = notification.extra
                if text.isdigit():
                    self.heard_events = max(self.heard_events, int(text))
                continue
            position = position_of(notification.extra)
            if position is not None and position > self.heard:
                self.heard = position

    def heard_past(self, position: Position) -> bool:
        """True when a write past ``position`` may have happened: heard of, or unheard
        because the listener is not connected."""
        self.drain()
        return self._connection is None or self._unsure or self.heard > position

    def settled(self) -> None:
        """The store has just read the database, after this listener connected: what
        was written before it was listening is known, the rest will be heard."""
        if self._connection is not None:
            self._unsure = False

    def newest_event(self) -> int | None:
        """The newest event number heard of; None when some may have gone unheard (not
        connected, or connected since ``head`` was last read): read it, then
        :meth:`events_read`."""
        self.drain()
        if self._connection is None or self._events_unsure:
            return None
        return self.heard_events

    def events_read(self, newest: int) -> int:
        """``head`` said ``newest``: what was committed before the listener connected is
        known, the rest will be heard. Returns the newest known."""
        self.heard_events = max(self.heard_events, newest)
        if self._connection is not None:
            self._events_unsure = False
        return self.heard_events

    def close(self) -> None:
        """Stop listening."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
