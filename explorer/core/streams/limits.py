"""How much of a stream is held: what bounds what a server can make restwalk hold (one
line, one event, and every event kept).

Apart from :mod:`.event`: every browser tab holds its limits from the start, and the
TUI's start need not build the event's class (:class:`~.event.StreamEvent`, a frozen
dataclass whose methods are compiled as its module is imported) before a stream comes.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["StreamLimits"]


class StreamLimits(NamedTuple):
    """How much of a stream is held: one line, one event's data, and every event kept."""

    #: Bytes of one line kept; the rest of it, until its end, is left out (and counted).
    max_line: int = 1_000_000
    #: Bytes of one event's data kept (an SSE event of many ``data:`` lines, a record).
    max_event: int = 1_000_000
    #: Events kept; past it the oldest are dropped, and counted.
    max_events: int = 10_000
    #: Bytes of data kept across the events kept; past it the oldest are dropped too.
    max_kept: int = 50_000_000
