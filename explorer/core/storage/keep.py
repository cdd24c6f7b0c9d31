"""What one restwalk run keeps, opened as the config says: the history and the bookmarks.

The TUI and the commands open a :class:`Keep` once, hand its recorder to their
client (every exchange then goes to the history), and close it at the end so
what is queued is written. With ``[history] enabled = false`` nothing is
recorded, but what was kept before can still be listed.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING

from explorer.core.config import HistoryConfig
from explorer.core.http.client import Client
from explorer.core.storage.recorder import Recorder

if TYPE_CHECKING:
    from explorer.core.storage.bookmarks import BookmarkStore
    from explorer.core.storage.history import HistoryStore, Warn

__all__ = ["Keep"]


class Keep:
    """The history (and its recorder, when recording is on) and the bookmarks of a run,
    in ``directory``, bounded and masked as ``config`` says. ``bundled_origin`` is the
    bundled mock server's, when this run started it: what is made there is marked so.

    Each store is made (and its module, SQLite's for the history, imported) when it is
    first used: the TUI's first screen writes its start page only once it is drawn
    (:meth:`hold`), and reads neither store.
    """

    def __init__(
        self,
        config: HistoryConfig,
        directory: Path,
        *,
        source: str,
        warn: Warn | None = None,
        bundled_origin: str = "",
    ) -> None:
        self.config = config
        self.directory = directory
        self._warn = warn
        self._history: HistoryStore | None = None
        self._bookmarks: BookmarkStore | None = None
        self._lock = threading.Lock()  # (the recorder's thread may open the history first)
        self.recorder: Recorder | None = (
            Recorder(self._history_store, source=source, bundled_origin=bundled_origin)
            if config.enabled
            else None
        )

    @property
    def history(self) -> HistoryStore:
        """The history, bounded and masked as the config says (made at the first use)."""
        return self._history_store()

    def _history_store(self) -> HistoryStore:
        with self._lock:
            if self._history is None:
                from explorer.core.storage.history import HistoryStore

                config = self.config
                self._history = HistoryStore.in_directory(
                    self.directory,
                    max_entries=config.max_entries,
                    max_bytes=config.max_bytes,
                    mask_secrets=config.mask_secrets,
                    warn=self._warn,
                )
            return self._history

    @property
    def bookmarks(self) -> BookmarkStore:
        """The bookmarks (made at the first use)."""
        with self._lock:
            if self._bookmarks is None:
                from explorer.core.storage.bookmarks import BookmarkStore

                self._bookmarks = BookmarkStore.in_directory(self.directory)
            return self._bookmarks

    def watch(self, client: Client) -> None:
        """Record every exchange ``client`` makes from now on (when recording is on)."""
        if self.recorder is not None and self.recorder.record not in client.observers:
            client.observers.append(self.recorder.record)

    def hold(self) -> None:
        """Keep what is recorded waiting, unwritten, until :meth:`release` (or :meth:`close`)."""
        if self.recorder is not None:
            self.recorder.hold()

    def release(self) -> None:
        """Write what :meth:`hold` kept waiting, and go on writing as exchanges come."""
        if self.recorder is not None:
            self.recorder.release()

    def close(self, timeout: float = 10.0) -> bool:
        """Write what is queued (waiting at most ``timeout`` s); True when all was written."""
        done = self.recorder.close(timeout) if self.recorder is not None else True
        with self._lock:
            history = self._history
        if history is not None:
            history.close()
        return done
