"""JSON text sequences (RFC 7464, ``application/json-seq``): RS, a JSON text, LF, again.

Each record begins with RS (U+001E) and runs to the next RS or the end of the
body; it may span lines (LF is whitespace in JSON), so a record is known
complete when the next RS comes. Waiting for it would show each value one
record late: a record whose bytes end in LF and parse as one JSON text is shown
at once. As the RFC says (§2.1, §2.4):

- an empty record (RS RS) is nothing; a record that is not JSON is shown as the
  text it is, with why, and parsing goes on with the next;
- a top-level number, ``true``, ``false`` or ``null`` not followed by whitespace
  may have been cut short in transit: it is shown as text, with that said.

Bytes before the first RS are shown as text too (a sequence should not begin
so). A record past the bound is cut, and not parsed.
"""

from __future__ import annotations

from dataclasses import replace

import orjson

from explorer.core.bodies.json_error import json_error
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.limits import StreamLimits
from explorer.core.streams.lines import Held, decoded

__all__ = ["RS", "JSONSequence"]

#: The record separator that begins each JSON text.
RS = b"\x1e"
_WHITESPACE = b" \t\r\n"


class JSONSequence:
    """RFC 7464's parser: one value per record, each record bounded."""

    def __init__(self, limits: StreamLimits) -> None:
        self._record = Held(limits.max_event)
        self._size = 0
        self._begun = False  # an RS has come (bytes before the first are out of place)

    @property
    def pending(self) -> int:
        return self._record.pending

    def feed(self, chunk: bytes) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        pos = 0
        while True:
            found = chunk.find(RS, pos)
            stop = len(chunk) if found < 0 else found
            self._size += stop - pos
            self._record.keep(chunk, pos, stop)
            if found < 0:
                break
            events += self._finish(at_rs=True)
            self._begun = True
            self._size = 1  # the RS
            pos = found + 1
        if self._record.data.endswith(b"\n") and not self._record.cut:
            # Complete as far as can be told: shown now, if it parses.
            events += self._finish(at_rs=False, only_valid=True)
        return events

    def end(self) -> list[StreamEvent]:
        return self._finish(at_rs=True)

    def _finish(self, *, at_rs: bool, only_valid: bool = False) -> list[StreamEvent]:
        """The record so far as an event (``only_valid``: only if it is one JSON text)."""
        record, cut, size = bytes(self._record.data), self._record.cut, self._size
        event = None
        if record.strip(_WHITESPACE) or cut:
            event = self._event(record, cut, size)
            if only_valid and not event.is_json:
                return []
        elif not at_rs:
            return []
        self._record.take()
        self._size = 0
        if event is None:
            return []
        if not self._begun:
            return [replace(event, problem="bytes before the first RS: a sequence begins with RS")]
        return [event]

    def _event(self, record: bytes, cut: int, size: int) -> StreamEvent:
        shown = decoded(record.strip(_WHITESPACE), cut)
        if cut:
            return StreamEvent(shown, size=size, cut=cut, problem="cut: not parsed")
        try:
            value = orjson.loads(record)
        except orjson.JSONDecodeError as error:
            return StreamEvent(shown, size=size, problem=f"not JSON: {json_error(record, error)}")
        scalar = isinstance(value, int | float | bool) or value is None
        if scalar and record[-1:] not in (b" ", b"\t", b"\r", b"\n"):
            return StreamEvent(
                shown,
                size=size,
                problem="maybe cut short: a top-level number, true, false or null must be "
                "followed by whitespace (RFC 7464, 2.4)",
            )
        return StreamEvent(shown, is_json=True, value=value, size=size)
