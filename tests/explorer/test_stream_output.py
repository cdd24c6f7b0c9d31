"""How restwalk request prints a stream's events and notes."""

from __future__ import annotations

import orjson

from explorer.cli.stream_output import item_json, item_text
from explorer.core.http.stream_reading import NoteKind, StreamNote
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.shown import clock_time


def test_an_event_and_a_note_as_text() -> None:
    event = StreamEvent(
        '{"a":1}', type="x.y", id="7", is_json=True, value={"a": 1}, size=20, number=3, arrived=5.0
    )
    assert item_text(event) == f'[{clock_time(5.0)}] #3 x.y id 7 (20 B)\n{{\n  "a": 1\n}}\n\n'
    note = StreamNote(NoteKind.WAITING, "reconnecting in 2 s\x1b[2J", 6.0)
    assert item_text(note) == f"# [{clock_time(6.0)}] reconnecting in 2 s\u241b[2J\n"
    empty = StreamEvent("", type="message", number=4, arrived=5.0)
    assert item_text(empty).endswith(" (0 B)\n\n")


def test_an_event_and_a_note_as_json_lines() -> None:
    assert orjson.loads(item_json(StreamEvent("x", number=1, arrived=0.0)))["data"] == "x"
    note = StreamNote(NoteKind.RESUMED, "reconnected: 200 OK", 0.5)
    assert orjson.loads(item_json(note)) == {
        "note": "resumed",
        "text": "reconnected: 200 OK",
        "at": "1970-01-01T00:00:00.500Z",
    }
