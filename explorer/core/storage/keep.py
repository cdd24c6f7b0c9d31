"""What one restwalk run keeps, opened as the config says: the history and the bookmarks.

The TUI and the commands open a :class:`Keep` once, hand its recorder to their
client (every exchange then goes to the history), and close it at the end so
what is queued is written. With ``[history] enabled = false`` nothing is
recorded, but what was kept before can still be listed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from explorer.core.config import HistoryConfig
from explorer.core.http.client import Client
from explorer.core.storage.bookmarks import BookmarkStore
from explorer.core.storage.history import HistoryStore, Warn
from explorer.core.storage.recorder import Recorder

__all__ = ["Keep"]


@dataclass
class Keep:
    """The history (and its recorder, when recording is on) and the bookmarks of a run."""

    history: HistoryStore
    recorder: Recorder | None
    bookmarks: BookmarkStore
    config: HistoryConfig

    @classmethod
    def open(
        cls,
        config: HistoryConfig,
        directory: Path,
        *,
        source: str,
        warn: Warn | None = None,
        bundled_origin: str = "",
    ) -> Keep:
        """The stores in ``directory`` bounded and masked as ``config`` says; nothing is read
        or written before it is used. ``bundled_origin`` is the bundled mock server's, when
        this run started it: what is made there is marked so."""
        history = HistoryStore.in_directory(
            directory,
            max_entries=config.max_entries,
            max_bytes=config.max_bytes,
            mask_secrets=config.mask_secrets,
            warn=warn,
        )
        recorder = (
            Recorder(history, source=source, bundled_origin=bundled_origin)
            if config.enabled
            else None
        )
        return cls(history, recorder, BookmarkStore.in_directory(directory), config)

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
        self.history.close()
        return done
