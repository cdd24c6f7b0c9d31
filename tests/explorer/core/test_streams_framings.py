"""JSON lines, JSON text sequences (RFC 7464) and text lines, fed in chunks of every size,
bounded; and which responses are streams."""

from __future__ import annotations

import pytest

from explorer.core.streams.event import Parser, StreamEvent
from explorer.core.streams.framing import Framing, framing_of, parser_for
from explorer.core.streams.json_lines import JSONLines
from explorer.core.streams.json_seq import JSONSequence
from explorer.core.streams.limits import StreamLimits
from explorer.core.streams.lines import LineSplitter, TextLines

LIMITS = StreamLimits()


def fed(parser: Parser, data: bytes, chunk: int) -> list[StreamEvent]:
    got: list[StreamEvent] = []
    for start in range(0, len(data), chunk):
        got += parser.feed(data[start : start + chunk])
    return got + parser.end()


CHUNKS = [1, 2, 5, 1 << 20]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_json_lines(chunk: int) -> None:
    data = b'{"a": 1}\n\n  \r\n[1,2]\r\n{oops}\n"last, without a line feed"'
    got = fed(JSONLines(LIMITS), data, chunk)
    assert [e.value for e in got] == [{"a": 1}, [1, 2], None, "last, without a line feed"]
    assert [e.is_json for e in got] == [True, True, False, True]
    assert got[2].data == "{oops}"
    assert got[2].problem.startswith("not JSON: unexpected character")
    assert sum(e.size for e in got) == len(data)  # blank lines counted with the next value


def test_a_json_line_that_is_not_utf8_says_where() -> None:
    [event] = fed(JSONLines(LIMITS), b'"\xff"\n', 1)
    assert event.problem == "not JSON: not UTF-8: byte 0xff at offset 1"
    assert event.data == '"\ufffd"'


def test_a_json_line_past_the_bound_is_cut_not_parsed() -> None:
    limits = StreamLimits(max_line=10)
    cut, ok = fed(JSONLines(limits), b'["' + b"x" * 100 + b'"]\n{}\n', 3)
    assert (cut.data, cut.cut, cut.is_json) == ('["xxxxxxxx', 94, False)
    assert cut.problem == "cut: not parsed"
    assert ok.value == {}


@pytest.mark.parametrize("chunk", CHUNKS)
def test_json_text_sequences(chunk: int) -> None:
    data = (
        b'\x1e{"a": 1}\n'
        b"\x1e\x1e"  # empty records are nothing
        b'\x1e{\n  "pretty": [\n    1\n  ]\n}\n'
        b"\x1enot json\n"
        b"\x1e42\n"
        b"\x1e7"  # a number not followed by whitespace may be cut short
    )
    got = fed(JSONSequence(LIMITS), data, chunk)
    assert [e.value for e in got] == [{"a": 1}, {"pretty": [1]}, None, 42, None]
    assert got[2].problem.startswith("not JSON")
    assert got[4].data == "7"
    assert "maybe cut short" in got[4].problem
    assert sum(e.size for e in got) == len(data) - 2  # the empty records' separators


def test_a_sequence_record_is_shown_once_its_line_feed_came() -> None:
    """Not one record late: a record ending in LF that parses is complete."""
    parser = JSONSequence(LIMITS)
    assert parser.feed(b'\x1e{"a": ') == []
    assert parser.feed(b"\n") == []  # ends in LF but is no JSON text yet
    [event] = parser.feed(b"1}\n")
    assert event.value == {"a": 1}
    assert parser.feed(b"\x1e") == []
    assert parser.end() == []


def test_bytes_before_the_first_rs_are_said_to_be_out_of_place() -> None:
    first, second = fed(JSONSequence(LIMITS), b'{"x": 1}\x1e{"y": 2}\n', 100)
    assert first.value == {"x": 1}
    assert first.problem.startswith("bytes before the first RS")
    assert (second.value, second.problem) == ({"y": 2}, "")


def test_a_sequence_record_past_the_bound_is_cut() -> None:
    limits = StreamLimits(max_event=16)
    cut, ok = fed(JSONSequence(limits), b'\x1e["' + b"y" * 1000 + b'"]\n\x1e1\n', 7)
    assert len(cut.data) == 16
    assert cut.cut == 1000 + 5 - 16
    assert ok.value == 1


@pytest.mark.parametrize("chunk", CHUNKS)
def test_text_lines(chunk: int) -> None:
    got = fed(TextLines(LIMITS), b"one\r\ntwo\n\nthree", chunk)
    assert [e.data for e in got] == ["one", "two", "", "three"]
    assert [e.size for e in got] == [5, 4, 1, 5]


@pytest.mark.parametrize("chunk", [1, 3, 1 << 20])
def test_line_ends_split_between_chunks(chunk: int) -> None:
    splitter = LineSplitter(100, cr_ends_lines=True)
    data = b"a\r\nb\rc\nd\r"
    lines = []
    for start in range(0, len(data), chunk):
        lines += splitter.feed(data[start : start + chunk])
    lines += splitter.feed(b"\ne")
    assert [line.text for line in lines] == [b"a", b"b", b"c", b"d"]
    # The LF after d's CR is counted with the line after it, not yet ended.
    assert sum(line.size for line in lines) == len(data)
    assert splitter.pending == 1


def test_the_splitter_holds_no_more_than_its_bound() -> None:
    splitter = LineSplitter(10, cr_ends_lines=False)
    for _ in range(100):
        assert splitter.feed(b"z" * 10_000) == []
    [line] = splitter.feed(b"\n")
    assert (line.text, line.cut, line.size) == (b"z" * 10, 999_990, 1_000_001)


@pytest.mark.parametrize(
    ("content_type", "kwargs", "framing"),
    [
        ("text/event-stream; charset=utf-8", {}, Framing.SSE),
        ("application/x-ndjson", {}, Framing.JSON_LINES),
        ("Application/JSONL", {}, Framing.JSON_LINES),
        ("application/json-seq", {}, Framing.JSON_SEQ),
        ("application/geo+json-seq", {}, Framing.JSON_SEQ),
        ("text/plain", {"chunked": True}, Framing.TEXT),
        ("text/plain", {"chunked": True, "content_length": "5"}, None),
        ("text/plain", {}, None),
        ("application/json", {"chunked": True}, None),
        (None, {"chunked": True}, None),
    ],
)
def test_which_responses_are_streams(
    content_type: str | None, kwargs: dict[str, object], framing: Framing | None
) -> None:
    assert framing_of(content_type, **kwargs) is framing  # type: ignore[arg-type]


def test_each_framing_has_its_parser() -> None:
    assert isinstance(parser_for(Framing.JSON_LINES, LIMITS), JSONLines)
    assert isinstance(parser_for(Framing.JSON_SEQ, LIMITS), JSONSequence)
    assert isinstance(parser_for(Framing.TEXT, LIMITS), TextLines)
    sse = parser_for(Framing.SSE, LIMITS, last_event_id="9")
    assert sse.last_event_id == "9"  # type: ignore[attr-defined]
