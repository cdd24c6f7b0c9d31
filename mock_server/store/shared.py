"""What a database may keep for every instance at once, beyond the data.

One instance keeps its request journal and its rate limit's windows in
memory. A database that several instances share (PostgreSQL) keeps them
instead, so ``/_journal`` on any instance lists the requests all of them
received, and a client's limit is counted across all of them.
:class:`InstanceSharing` is what such a database offers; the service and
the rate limit layer use it when the store's persistence has it, the service
through :class:`SharedJournal`, the request journal kept there.
"""

from __future__ import annotations

import logging
from typing import Protocol, runtime_checkable

from mock_server.request_journal import Entry, RequestJournal
from mock_server.store.errors import StoreUnavailable

logger = logging.getLogger("mock_server")


class RateCounter(Protocol):
    """Sliding windows of requests per client, counted in one place for every instance."""

    def take(self, client: str, now: float, span: float, most: int) -> tuple[bool, int, float]:
        """Count a request of ``client`` at ``now`` if fewer than ``most`` were made in the
        last ``span`` seconds: whether it was counted, how many are counted now, the oldest."""


class JournalBackend(Protocol):
    """The request journal's entries, kept in one place for every instance."""

    def insert(self, entry: Entry, size: int) -> int:
        """Keep ``entry`` (and at least the ``size`` newest); its id, unique across instances."""

    def update(self, entry: Entry) -> None:
        """``entry`` (kept earlier) has more of its body now."""

    def newest(self, size: int) -> list[Entry]:
        """The newest ``size`` entries, oldest first."""

    def clear(self) -> int:
        """Forget every entry; how many there were."""


@runtime_checkable
class InstanceSharing(Protocol):
    """A persistence that keeps the journal and the rate limit for every instance."""

    rate_windows: RateCounter
    journal_table: JournalBackend


class SharedJournal(RequestJournal):
    """The journal kept in a database that every instance writes to and reads.

    Entry ids are the database's, unique across instances. Recording is best
    effort: while the database cannot be reached, a request is served and
    not journaled (reading the journal then is a 503).
    """

    def __init__(self, size: int, backend: JournalBackend) -> None:
        super().__init__(size)
        self._backend = backend

    def add(self, entry: Entry) -> None:
        """Keep ``entry`` in the database; it gets the database's next id."""
        if self.size == 0:
            return
        try:
            entry.id = self._backend.insert(entry, self.size)
        except StoreUnavailable:
            logger.debug("not journaled (the database is away): %s %s", entry.method, entry.url)

    def update(self, entry: Entry) -> None:
        """Write ``entry``'s body as it is now (read after the answer began)."""
        if self.size == 0:
            return
        try:
            self._backend.update(entry)
        except StoreUnavailable:
            logger.debug("journal entry %s not updated (the database is away)", entry.id)

    def clear(self) -> int:
        """Forget every entry, every instance's."""
        return self._backend.clear()

    def _kept(self) -> list[Entry]:
        return self._backend.newest(self.size) if self.size else []
