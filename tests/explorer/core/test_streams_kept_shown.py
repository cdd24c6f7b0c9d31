"""A stream's events kept within bounds, searched, and shown as text that is data."""

from __future__ import annotations

import orjson

from explorer.core.streams.event import StreamEvent
from explorer.core.streams.kept import KeptEvents
from explorer.core.streams.limits import StreamLimits
from explorer.core.streams.shown import (
    dropped_text,
    event_body,
    event_heading,
    event_json,
    event_row,
)
from explorer.core.text.terminal_text import CONTROL

ESCAPES = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x9b2J\r\u202e"


def test_the_oldest_are_dropped_past_the_count() -> None:
    kept = KeptEvents(StreamLimits(max_events=3))
    for number in range(1, 11):
        kept.add(StreamEvent(str(number), number=number))
    assert [e.data for e in kept] == ["8", "9", "10"]
    assert (kept.received, kept.dropped, len(kept)) == (10, 7, 3)
    assert kept[0].number == 8
    assert dropped_text(kept.dropped) == "7 older events dropped to keep memory bounded"


def test_the_oldest_are_dropped_past_the_size_but_the_newest_stays() -> None:
    kept = KeptEvents(StreamLimits(max_kept=100))
    for _ in range(5):
        kept.add(StreamEvent("x" * 40))
    assert (len(kept), kept.dropped) == (2, 3)
    kept.add(StreamEvent("y" * 500))  # larger than the bound alone: kept, all else goes
    assert [e.data[0] for e in kept] == ["y"]


def test_matching_looks_at_type_id_and_data_in_any_case() -> None:
    kept = KeptEvents(StreamLimits())
    kept.add(StreamEvent('{"name": "Ann"}', type="customer.created", id="1-a"))
    kept.add(StreamEvent('{"name": "Bob"}', type="order.placed", id="2-a"))
    assert [e.id for e in kept.matching("ann")] == ["1-a"]
    assert [e.id for e in kept.matching("ORDER")] == ["2-a"]
    assert [e.id for e in kept.matching("-a")] == ["1-a", "2-a"]


def test_control_characters_are_shown_never_sent() -> None:
    event = StreamEvent(
        ESCAPES, type=f"t{ESCAPES}", id=f"i{ESCAPES}", problem=f"p{ESCAPES}", arrived=0.0
    )
    for text in (event_heading(event), event_row(event)):
        assert CONTROL.search(text) is None, text
    body = event_body(event)
    assert "\x1b" not in body
    assert "\u241b]52" in body  # the escape as its control picture
    assert b"\x1b" not in event_json(event)
    assert orjson.loads(event_json(event))["data"] == ESCAPES  # the same value, escaped


def test_json_data_is_pretty_printed_and_one_line_in_a_row() -> None:
    event = StreamEvent(
        '{"id":1,"tags":["a"]}', is_json=True, value={"id": 1, "tags": ["a"]}, type="message"
    )
    assert event_body(event) == '{\n  "id": 1,\n  "tags": [\n    "a"\n  ]\n}'
    assert event_row(event) == '{"id":1,"tags":["a"]}'
    row = StreamEvent("two\nlines")
    assert event_row(row) == "two\u240alines"


def test_the_heading_says_what_was_left_out_and_what_is_wrong() -> None:
    event = StreamEvent(
        "x", type="big", id="7", size=100_000_006, cut=99_000_000, number=3, problem=""
    )
    heading = event_heading(event)
    assert "#3 big id 7 (100 MB); 99 MB of it left out (over the limit)" in heading
    odd = StreamEvent("7", number=4, size=2, problem="maybe cut short")
    assert event_heading(odd).endswith("#4 (2 B); maybe cut short")


def test_an_event_as_a_json_line() -> None:
    event = StreamEvent(
        '{"a":1}',
        type="t",
        id="9",
        is_json=True,
        value={"a": 1},
        size=30,
        number=2,
        arrived=1_800_000_000.125,
    )
    assert orjson.loads(event_json(event)) == {
        "number": 2,
        "arrived": "2027-01-15T08:00:00.125Z",
        "type": "t",
        "id": "9",
        "data": '{"a":1}',
        "json": {"a": 1},
        "size": 30,
    }
    deep = StreamEvent(
        "[" * 300 + "]" * 300, is_json=True, value=orjson.loads("[" * 300 + "]" * 300)
    )
    assert "json" not in orjson.loads(event_json(deep))
