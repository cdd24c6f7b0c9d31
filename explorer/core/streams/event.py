"""What a stream carries, one event at a time.

An event is one server-sent event, one line of JSON lines, one record of a JSON
text sequence, or one line of text, each as a :class:`StreamEvent`; the framing's
parser makes it from bytes (:mod:`.sse`, :mod:`.json_lines`, :mod:`.json_seq`,
:mod:`.lines`), and the reader that feeds the parser numbers it and stamps the
time it came, within :mod:`.limits`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["Parser", "StreamEvent"]


@dataclass(frozen=True)
class StreamEvent:
    """One event of a stream, its data as text (cut to the limits, and said so)."""

    #: The data: an SSE event's ``data:`` lines joined, a line, a JSON text as it came.
    data: str
    #: An SSE event's type (``message`` when it named none); empty for other framings.
    type: str = ""
    #: An SSE event's id (the stream's last event id when it came); empty if none.
    id: str = ""
    #: True when :attr:`data` is a JSON text, parsed into :attr:`value`.
    is_json: bool = False
    #: The JSON value of :attr:`data` (None when it is not JSON: see :attr:`is_json`).
    value: object = None
    #: Bytes it took in the stream, field names and line ends included.
    size: int = 0
    #: Bytes of it left out, past :class:`~.limits.StreamLimits`' bounds (0: none).
    cut: int = 0
    #: Why it is not what its framing promises, in one sentence ("" when it is): a line
    #: of JSON lines that is not JSON, a record of a sequence that may be cut short.
    problem: str = ""
    #: Its place in the stream, from 1 across reconnections (set by the reader).
    number: int = 0
    #: When its last byte came, in seconds since the epoch (set by the reader).
    arrived: float = 0.0


class Parser(Protocol):
    """A framing's incremental parser: bytes in as they come, events out as they end."""

    def feed(self, chunk: bytes) -> list[StreamEvent]:
        """The events ``chunk`` completes (maybe none yet)."""
        ...

    def end(self) -> list[StreamEvent]:
        """The events still complete at the end of the body (what is not is dropped)."""
        ...

    @property
    def pending(self) -> int:
        """Bytes of an event begun and not yet ended (kept or counted as left out)."""
        ...
