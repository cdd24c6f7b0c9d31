"""Keeping exchanges in the history off the caller's thread.

The client calls :meth:`Recorder.record` for every exchange as it completes, on
the event loop: masking a body and writing SQLite must not hold the TUI's frame
or the next request. The exchange goes on a queue; one thread of the recorder's
own masks and writes it. :meth:`Recorder.close` waits for what is queued
(bounded), so a command that ends right after its request still keeps it. While
held (:meth:`Recorder.hold`), what is recorded waits beside the queue, the thread
not told of it (the thread, if running, waits between two writes for what was
queued before): the TUI's start page is written once the first screen is painted,
and a followed page once it is, not while they are being drawn. A thread woken by
an exchange it may not write yet would still take the interpreter from the drawing
to find that out: a switch the UI thread waits for, on a busy machine a scheduler's
turn.

A history that cannot be written (a full disk, a read-only directory) is said
once through ``warn``; browsing goes on.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from explorer.core.http.secret_rules import origin_of

if TYPE_CHECKING:
    from explorer.core.http.exchange import Exchange
    from explorer.core.storage.history import HistoryStore

__all__ = ["Recorder"]

_STOP: Final = None


class Recorder:
    """Writes the exchanges given to :meth:`record` into ``store``, on a thread of its own.

    ``store`` may be a function that makes it: it is then called by the first write (the
    history's module, SQLite's, imported then, on the thread), never when nothing is.
    """

    def __init__(
        self,
        store: HistoryStore | Callable[[], HistoryStore],
        *,
        source: str,
        bundled_origin: str = "",
    ) -> None:
        self._store = store if callable(store) else (lambda: store)
        self._opened: HistoryStore | None = None
        self.source = source
        #: The bundled mock server's origin in this run: its exchanges are marked so.
        self.bundled_origin = bundled_origin
        self._queue: queue.SimpleQueue[tuple[Exchange, float] | None] = queue.SimpleQueue()
        #: What was recorded while held: queued (the thread told) once released.
        self._waiting: list[tuple[Exchange, float]] = []
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        #: Told when writing is released (the thread waits on it while held).
        self._released = threading.Condition(self._lock)
        self._warned = False
        self._closed = False
        self._held = False
        #: How many exchanges were written (for tests and the status of the history).
        self.written = 0

    @property
    def store(self) -> HistoryStore:
        """The history written to (made now, if it was given as a function)."""
        if self._opened is None:
            self._opened = self._store()
        return self._opened

    def record(self, exchange: Exchange) -> None:
        """Keep ``exchange`` (it returns at once; the writing happens on the thread)."""
        if self._closed:
            return
        item = (exchange, exchange.sent_at or time.time() - exchange.timings.total)
        with self._lock:
            if self._held:  # (not queued: that would wake the thread, to wait)
                self._waiting.append(item)
                return
        self._queue.put(item)
        self._start()

    def hold(self) -> None:
        """Keep what is recorded from now on waiting, queued and written only once
        :meth:`release` (or :meth:`close`) is called: the writing (opening SQLite,
        masking, a commit) then does not share the interpreter with what is being done
        meanwhile, nor does the thread, which is not woken for it."""
        with self._lock:
            self._held = True

    def release(self) -> None:
        """Write what :meth:`hold` kept waiting, and what is recorded from now on."""
        with self._lock:
            self._held = False
            for item in self._waiting:
                self._queue.put(item)
            self._waiting.clear()
            self._released.notify_all()
        self._start()

    def _start(self) -> None:
        """Start the writing thread, once something is queued and writing is not held."""
        with self._lock:
            if self._thread is None and not self._held and not self._queue.empty():
                self._thread = threading.Thread(
                    target=self._run, name="restwalk-history", daemon=True
                )
                self._thread.start()

    def _run(self) -> None:
        from explorer.core.storage.history import HistoryError

        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            exchange, at = item
            with self._lock:
                while self._held:
                    self._released.wait()
            try:
                bundled = bool(self.bundled_origin) and (
                    origin_of(exchange.request.url) == self.bundled_origin
                )
                added = self.store.add(exchange, at=at, source=self.source, bundled=bundled)
                if added is not None:
                    self.written += 1
            except HistoryError as error:
                if not self._warned:
                    self._warned = True
                    self.store.warn(f"{error}; exchanges are not kept in the history")

    def close(self, timeout: float = 10.0) -> bool:
        """Write what is queued (waiting at most ``timeout`` s) and stop; True when all was."""
        self._closed = True
        self.release()  # (what was held is written now)
        with self._lock:
            thread = self._thread
        if thread is not None:
            self._queue.put(_STOP)
            thread.join(timeout)
            if thread.is_alive():
                return False
        if self._opened is not None:  # (a history never written is never opened)
            self._opened.close()
        return True
