"""The events of a stream kept for a view: the newest, within a count and a size.

A stream may run for hours: :class:`KeptEvents` holds at most
``max_events`` events and ``max_kept`` bytes of their data, drops the oldest
past either, and counts what it dropped, so a view can say "1,204 older events
dropped". Search and filter work on what is kept (:meth:`KeptEvents.matching`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from typing import overload

from explorer.core.streams.event import StreamEvent
from explorer.core.streams.limits import StreamLimits

__all__ = ["KeptEvents"]


class KeptEvents(Sequence[StreamEvent]):
    """The newest events of a stream, bounded, and counts of all that came (the oldest
    kept first)."""

    def __init__(self, limits: StreamLimits) -> None:
        self.limits = limits
        self._events: deque[StreamEvent] = deque()
        self._kept = 0
        #: Events that came, kept or not.
        self.received = 0
        #: The oldest events dropped to keep within the limits.
        self.dropped = 0

    def add(self, event: StreamEvent) -> None:
        """Keep ``event``, dropping the oldest past the limits."""
        self._events.append(event)
        self._kept += len(event.data)
        self.received += 1
        while len(self._events) > 1 and (
            len(self._events) > self.limits.max_events or self._kept > self.limits.max_kept
        ):
            self._kept -= len(self._events.popleft().data)
            self.dropped += 1

    def __len__(self) -> int:
        return len(self._events)

    def __iter__(self) -> Iterator[StreamEvent]:
        return iter(self._events)

    @overload
    def __getitem__(self, index: int) -> StreamEvent: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[StreamEvent]: ...
    def __getitem__(self, index: int | slice) -> StreamEvent | Sequence[StreamEvent]:
        if isinstance(index, slice):
            return list(self._events)[index]
        return self._events[index]

    def matching(self, needle: str) -> list[StreamEvent]:
        """The events kept whose type, id or data holds ``needle`` (any case)."""
        folded = needle.casefold()
        return [
            event
            for event in self._events
            if folded in event.data.casefold()
            or folded in event.type.casefold()
            or folded in event.id.casefold()
        ]
