"""JSON lines (NDJSON, ``application/x-ndjson``, ``application/jsonl``): one JSON text a line.

Each line ending in LF (a CR before it dropped) is one value; a blank line is
skipped; the last line counts without its LF when the body ends (JSON Lines
allows that). A line that is not JSON is shown as the text it is, with why
(:attr:`~explorer.core.streams.event.StreamEvent.problem`), and the lines after it
are read on: one bad line does not end a stream. A line past the bound is cut,
and not parsed.
"""

from __future__ import annotations

import orjson

from explorer.core.bodies.json_error import json_error
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.limits import StreamLimits
from explorer.core.streams.lines import Line, LineSplitter, decoded

__all__ = ["JSONLines"]


class JSONLines:
    """JSON lines' parser: a value per line, each line bounded."""

    def __init__(self, limits: StreamLimits) -> None:
        self._lines = LineSplitter(min(limits.max_line, limits.max_event), cr_ends_lines=False)
        self._skipped = 0  # bytes of blank lines, counted with the next value

    @property
    def pending(self) -> int:
        return self._lines.pending

    def feed(self, chunk: bytes) -> list[StreamEvent]:
        events = []
        for line in self._lines.feed(chunk):
            event = self._event(line)
            if event is not None:
                events.append(event)
        return events

    def end(self) -> list[StreamEvent]:
        line = self._lines.end()
        event = None if line is None else self._event(line)
        return [] if event is None else [event]

    def _event(self, line: Line) -> StreamEvent | None:
        text = line.text.removesuffix(b"\r") if not line.cut else line.text
        size = line.size + self._skipped
        if not line.cut and not text.strip():
            self._skipped = size
            return None
        self._skipped = 0
        shown = decoded(text, line.cut)
        if line.cut:
            return StreamEvent(shown, size=size, cut=line.cut, problem="cut: not parsed")
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError as error:
            return StreamEvent(shown, size=size, problem=f"not JSON: {json_error(text, error)}")
        return StreamEvent(shown, is_json=True, value=value, size=size)
