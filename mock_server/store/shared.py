"""What a database may keep for every instance at once, beyond the data.

One instance keeps its request journal and its rate limit's windows in
memory. A database that several instances share (PostgreSQL) keeps them
instead, so ``/_journal`` on any instance lists the requests all of them
received, and a client's limit is counted across all of them.
:class:`InstanceSharing` is what such a database offers; the service and
the rate limit layer use it when the store's persistence has it.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from mock_server.request_journal import Entry


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
