"""How ``restwalk request`` prints a stream: each event as it comes, and what befell it.

Text: an event is its heading (``[10:00:01.125] #3 customer.created id 42-5f3a9c1e
(213 B)``) and its data, JSON indented; what happened to the connection is a
``# `` line between them. JSON lines: one object per event
(:func:`~explorer.core.streams.shown.event_json`), and one per note with
``"note"`` (its kind), ``"text"`` and ``"at"``.
"""

from __future__ import annotations

from explorer.core.http.stream_reading import StreamNote
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.shown import (
    clock_time,
    event_body,
    event_heading,
    event_json,
    utc_stamp,
)
from explorer.core.text.terminal_text import json_line, visible_line

__all__ = ["item_json", "item_text"]


def item_text(item: StreamEvent | StreamNote) -> str:
    """An event or a note as text, ending in a line break."""
    if isinstance(item, StreamNote):
        return f"# [{clock_time(item.at)}] {visible_line(item.text)}\n"
    body = event_body(item)
    return f"{event_heading(item)}\n{body}\n" if body else f"{event_heading(item)}\n"


def item_json(item: StreamEvent | StreamNote) -> bytes:
    """An event or a note as one JSON object (no line break)."""
    if isinstance(item, StreamEvent):
        return event_json(item)
    return json_line({"note": item.kind.value, "text": item.text, "at": utc_stamp(item.at)})
