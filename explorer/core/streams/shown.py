"""A stream's events as a person reads them, and as JSON lines for scripts.

Every piece of server text goes through the one control-character filter
(:mod:`explorer.core.text.terminal_text`): an event's data, type and id are data,
never terminal control. JSON data is pretty-printed; the rest is shown as it came.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from datetime import UTC, datetime

import orjson

from explorer.core.streams.event import StreamEvent
from explorer.core.text.plural import counted
from explorer.core.text.sizes import size_text
from explorer.core.text.terminal_text import json_line, visible, visible_line

__all__ = [
    "clock_time",
    "dropped_text",
    "event_body",
    "event_heading",
    "event_json",
    "event_row",
    "events_json",
    "utc_stamp",
]


def clock_time(seconds: float) -> str:
    """``10:00:01.125``: local time to the millisecond."""
    return datetime.fromtimestamp(seconds).strftime("%H:%M:%S.%f")[:-3]


def utc_stamp(seconds: float) -> str:
    """``2026-12-01T10:00:01.125Z``: RFC 3339 in UTC to the millisecond, for JSON."""
    moment = datetime.fromtimestamp(seconds, tz=UTC).isoformat(timespec="milliseconds")
    return moment.replace("+00:00", "Z")


def event_heading(event: StreamEvent) -> str:
    """One line saying what an event is: when it came, its type and id, and what is odd."""
    parts = [f"[{clock_time(event.arrived)}]", f"#{event.number}"]
    if event.type:
        parts.append(visible_line(event.type))
    if event.id:
        parts.append(f"id {visible_line(event.id)}")
    parts.append(f"({size_text(event.size)})")
    line = " ".join(parts)
    if event.cut:
        line += f"; {size_text(event.cut)} of it left out (over the limit)"
    if event.problem:
        line += f"; {visible_line(event.problem)}"
    return line


def event_body(event: StreamEvent) -> str:
    """An event's data for reading: JSON indented, anything else as it came."""
    if event.is_json:
        try:
            return visible(orjson.dumps(event.value, option=orjson.OPT_INDENT_2).decode("utf-8"))
        except orjson.JSONEncodeError:  # nested deeper than orjson writes: as it came
            pass
    return visible(event.data)


def event_row(event: StreamEvent) -> str:
    """An event on one line, for a row of a table: its data with every break made visible
    (JSON written compactly)."""
    data = event.data
    if event.is_json:
        with contextlib.suppress(orjson.JSONEncodeError):
            data = orjson.dumps(event.value).decode("utf-8")
    return visible_line(data)


def event_json(event: StreamEvent) -> bytes:
    """An event as one JSON object (DEL, C1 and formatting characters escaped)."""
    document: dict[str, object] = {"number": event.number, "arrived": utc_stamp(event.arrived)}
    if event.type:
        document["type"] = event.type
    if event.id:
        document["id"] = event.id
    document["data"] = event.data
    if event.is_json:
        document["json"] = event.value
    document["size"] = event.size
    if event.cut:
        document["cut"] = event.cut
    if event.problem:
        document["problem"] = event.problem
    return json_line(document)


def events_json(events: Iterable[StreamEvent]) -> bytes:
    """``events`` as one JSON array, for a filter to run over: each
    ``{"number", "type", "id", "data"}``, its data the JSON value when it is one (its
    type and id only when it has them)."""
    documents = []
    for event in events:
        document: dict[str, object] = {"number": event.number}
        if event.type:
            document["type"] = event.type
        if event.id:
            document["id"] = event.id
        document["data"] = event.value if event.is_json else event.data
        documents.append(document)
    try:
        return orjson.dumps(documents)
    except orjson.JSONEncodeError:  # a value nested deeper than orjson writes: its text
        return orjson.dumps([_as_text(document) for document in documents])


def _as_text(document: dict[str, object]) -> dict[str, object]:
    data = document["data"]
    if isinstance(data, str):
        return document
    try:
        orjson.dumps(data)
    except orjson.JSONEncodeError:
        return {**document, "data": "(nested too deep to filter)"}
    return document


def dropped_text(count: int) -> str:
    """``1,204 older events dropped`` (to keep within the limits)."""
    return f"{counted(count, 'older event')} dropped to keep memory bounded"
