"""One kept exchange as a list shows it: :class:`HistoryEntry`, read from its row.

The whole exchange is :meth:`explorer.core.storage.history.HistoryStore.load`'s; an
entry holds what a list of them shows and searches (the ``entries`` table's columns,
:data:`~explorer.core.storage.history_schema.ENTRY_COLUMNS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from explorer.core.storage.history_schema import ENTRY_COLUMNS

__all__ = ["LISTED", "HistoryEntry", "entry_of"]


@dataclass(frozen=True)
class HistoryEntry:
    """One kept exchange, as a list shows it (the whole exchange:
    :meth:`~explorer.core.storage.history.HistoryStore.load`)."""

    id: int
    #: When the request was sent, in seconds since the epoch.
    at: float
    method: str
    #: The URL as requested (secrets masked when masking is on).
    url: str
    #: Where the answer came from, after redirects.
    final_url: str
    status: int
    reason: str
    #: Seconds the whole exchange took.
    duration: float
    #: Bytes the entry takes in the history.
    size: int
    #: Who made it: ``tui``, ``cli`` or ``har`` (imported).
    source: str
    masked: bool
    #: What the session's cache did when the answer came from it: ``fresh`` (nothing was
    #: sent) or ``revalidated`` (a 304 said the cached body still holds); else empty.
    cache: str = ""
    #: True when made on the bundled mock server, whose port may change between runs.
    bundled: bool = False

    @property
    def from_cache(self) -> bool:
        """True when the body is the cache's, not one the server sent then."""
        return bool(self.cache)


#: The columns a list reads, in :func:`entry_of`'s order.
LISTED = ", ".join(ENTRY_COLUMNS)


def entry_of(row: Sequence[Any]) -> HistoryEntry:
    """The entry a row of :data:`LISTED` columns holds."""
    return HistoryEntry(
        id=int(row[0]),
        at=float(row[1]),
        method=str(row[2]),
        url=str(row[3]),
        final_url=str(row[4]),
        status=int(row[5]),
        reason=str(row[6]),
        duration=float(row[7]),
        size=int(row[8]),
        source=str(row[9]),
        masked=bool(row[10]),
        cache=str(row[11]),
        bundled=bool(row[12]),
    )
