"""One writer at a time across the ``--workers`` processes sharing a ``--db`` file.

SQLite's own lock does this, but a writer that finds it taken waits in steps
of 1, 2, 5, 10, 15, 20, 25... ms (its busy handler), however soon the other
write ends: under a steady load of writes from two workers, one in a hundred
waited 150 ms for a lock held one or two. :class:`WriteLock` is taken first,
an advisory ``flock`` on a small file beside the database, tried again every
fraction of a millisecond, so a writer goes as soon as the other is done. It is
held only around one write transaction; past :data:`WAIT_SECONDS` the write
fails as SQLite's would ("database is locked"). Where ``fcntl`` is missing
(Windows, where ``--workers`` is not offered) it does nothing.

The same lock, held for a process's whole life (:meth:`WriteLock.try_acquire`),
keeps a ``--data`` file to one writer (:func:`mock_server.userdata.datafile.claim`).
An ``flock`` goes with its process, ``kill -9`` included: no stale lock to clear.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover (Windows)
    fcntl = None  # type: ignore[assignment]

#: Seconds a writer waits for another's transaction before its write fails.
WAIT_SECONDS = 10.0
#: The pauses between tries: short at first (a write takes a millisecond or two).
_PAUSES = (0.0001, 0.0002, 0.0005)
_LONGEST_PAUSE = 0.001


class WriteLock:
    """An exclusive lock on ``path`` (made ``0600`` if missing), shared by processes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._descriptor: int | None = None
        if fcntl is not None:
            self._descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)

    def acquire(self) -> None:
        """Take the lock, waiting for another process's write to end (at most
        :data:`WAIT_SECONDS`: then ``sqlite3.OperationalError``, as SQLite's own)."""
        if self._descriptor is None:
            return
        deadline = time.monotonic() + WAIT_SECONDS
        tries = 0
        while True:
            try:
                fcntl.flock(self._descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                pass
            if time.monotonic() > deadline:
                raise sqlite3.OperationalError("database is locked")
            time.sleep(_PAUSES[tries] if tries < len(_PAUSES) else _LONGEST_PAUSE)
            tries += 1

    def try_acquire(self) -> bool:
        """Take the lock if no other process holds it; False (at once) if one does."""
        if self._descriptor is None:
            return True
        try:
            fcntl.flock(self._descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def release(self) -> None:
        """Let the next writer go."""
        if self._descriptor is not None:
            fcntl.flock(self._descriptor, fcntl.LOCK_UN)

    def close(self) -> None:
        """Close the lock's file (the lock is released with it)."""
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None
