"""The SSE parser: the WHATWG standard's rules, held to httpx-sse's decoder on the same
bytes, fed in chunks of every size, and bounded whatever comes."""

from __future__ import annotations

import codecs
from typing import Any

import pytest
from httpx_sse._decoders import SSEDecoder, SSELineDecoder
from hypothesis import given
from hypothesis import strategies as st

from explorer.core.streams.event import StreamEvent
from explorer.core.streams.limits import StreamLimits
from explorer.core.streams.sse import SSEParser

LIMITS = StreamLimits()


def parse(
    data: bytes, *, chunk: int | None = None, limits: StreamLimits = LIMITS
) -> tuple[SSEParser, list[StreamEvent]]:
    """The parser after ``data`` fed in chunks of ``chunk`` bytes, and its events."""
    parser = SSEParser(limits)
    got: list[StreamEvent] = []
    step = chunk or max(len(data), 1)
    for start in range(0, len(data), step):
        got += parser.feed(data[start : start + step])
    return parser, got + parser.end()


def events(data: bytes, **kwargs: Any) -> list[StreamEvent]:
    return parse(data, **kwargs)[1]


def reference(data: bytes, chunks: list[int]) -> list[tuple[str, str, str]]:
    """httpx-sse's events for ``data`` fed in ``chunks``: (type, data, id) each.

    Its decoder also dispatches a block that set only an id, a type or a retry hint
    (the standard dispatches nothing then): such blocks are left out here, the one
    difference between the two.
    """
    text = codecs.getincrementaldecoder("utf-8-sig")(errors="replace")
    lines = SSELineDecoder()
    decoder = SSEDecoder()
    out: list[tuple[str, str, str]] = []
    saw_data = False

    def line(value: str) -> None:
        nonlocal saw_data
        if value.startswith("data:") or value == "data":
            saw_data = True
        event = decoder.decode(value)
        if event is not None and saw_data:
            out.append((event.event, event.data, event.id))
        if not value:
            saw_data = False

    pos = 0
    for size in chunks:
        piece = text.decode(data[pos : pos + size])
        pos += size
        for each in lines.decode(piece) if piece else []:
            line(each)
    tail = text.decode(data[pos:], final=True)
    for each in (lines.decode(tail) if tail else []) + lines.flush():
        line(each)
    return out


def ours(data: bytes, chunks: list[int]) -> list[tuple[str, str, str]]:
    parser = SSEParser(LIMITS)
    got: list[StreamEvent] = []
    pos = 0
    for size in chunks:
        got += parser.feed(data[pos : pos + size])
        pos += size
    got += parser.feed(data[pos:]) + parser.end()
    return [(event.type, event.data, event.id) for event in got]


def test_the_mock_s_messages() -> None:
    data = (
        b": restwalk-mock: every change; a heartbeat every 15 s\nretry: 2000\n\n"
        b'id: 42-5f3a9c1e\nevent: customer.created\ndata: {"id":"42-5f3a9c1e","data":{"id":13}}\n\n'
        b": ping\n\n"
    )
    parser, [event] = parse(data)
    assert (event.type, event.id) == ("customer.created", "42-5f3a9c1e")
    assert event.is_json
    assert event.value == {"id": "42-5f3a9c1e", "data": {"id": 13}}
    assert parser.retry == 2000
    assert parser.comments == 2
    assert parser.last_event_id == "42-5f3a9c1e"
    assert event.size == len(data) - len(b": ping\n\n") - len(
        b": restwalk-mock: every change; a heartbeat every 15 s\nretry: 2000\n\n"
    )


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # The standard's own examples (html.spec.whatwg.org, "Event stream interpretation").
        (b"data: YHOO\ndata: +2\ndata: 10\n\n", [("message", "YHOO\n+2\n10", "")]),
        (
            b": test stream\n\ndata: first event\nid: 1\n\n"
            b"data:second event\nid\n\ndata:  third event\n\n",
            [
                ("message", "first event", "1"),
                ("message", "second event", ""),
                ("message", " third event", ""),
            ],
        ),
        (b"data\n\ndata\ndata\n\ndata:", [("message", "", ""), ("message", "\n", "")]),
        (b"data:test\n\ndata: test\n\n", [("message", "test", ""), ("message", "test", "")]),
        # CR, CR LF and LF all end lines, mixed.
        (b"event: a\rdata: 1\r\ndata: 2\n\r\n", [("a", "1\n2", "")]),
        # A byte-order mark at the start is dropped; one later is data.
        (
            b"\xef\xbb\xbfdata: x\n\ndata: \xef\xbb\xbfy\n\n",
            [("message", "x", ""), ("message", "\ufeffy", "")],
        ),
        # An id holding NUL is ignored; an empty id resets it; unknown fields are ignored.
        (
            b"id: 7\ndata: a\n\nid: 8\x009\nfoo: bar\ndata: b\n\nid\ndata: c\n\n",
            [("message", "a", "7"), ("message", "b", "7"), ("message", "c", "")],
        ),
        # Bad UTF-8 is replaced.
        (b"data: \xff\xfe ok\n\n", [("message", "\ufffd\ufffd ok", "")]),
        # An event without a blank line after it when the stream ends is dropped.
        (b"data: done\n\ndata: never", [("message", "done", "")]),
    ],
)
def test_the_standard_s_cases(data: bytes, expected: list[tuple[str, str, str]]) -> None:
    for chunk in (None, 1, 2, 3):
        got = [(e.type, e.data, e.id) for e in events(data, chunk=chunk)]
        assert got == expected, chunk
    assert ours(data, [1] * len(data)) == reference(data, [1] * len(data))


def test_a_block_without_data_dispatches_nothing_but_sets_the_last_event_id() -> None:
    parser, got = parse(b"id: 41\n\nevent: x\nretry: 10\n\n")
    assert got == []
    assert parser.last_event_id == "41"
    assert parser.retry == 10


def test_the_last_event_id_is_set_by_a_blank_line_not_by_the_field() -> None:
    """A connection that breaks after ``id:`` and before the blank line resumes from the
    id before it (the event was never dispatched)."""
    parser = SSEParser(LIMITS)
    parser.feed(b"id: 1\ndata: a\n\nid: 2\ndata: b\n")
    assert parser.last_event_id == "1"
    assert parser.pending > 0
    dropped = parser.reconnected()
    assert dropped == len(b"id: 2\ndata: b\n")
    assert parser.last_event_id == "1"
    [event] = parser.feed(b"data: c\n\n")
    assert (event.data, event.id) == ("c", "1")


@pytest.mark.parametrize(
    ("value", "retry"),
    [
        (b"2000", 2000),
        (b" 5", None),
        (b"+5", None),
        (b"1_0", None),
        (b"", None),
        (b"1.5", None),
        (b"\xd9\xa3", None),
        (b"9" * 5000, 10**12),
    ],
)
def test_retry_is_ascii_digits_only(value: bytes, retry: int | None) -> None:
    assert parse(b"retry: " + value + b"\n\n")[0].retry == retry


# --- held to httpx-sse's decoder on any stream, fed in any chunks -----------------------------

_VALUES = st.text(
    st.characters(blacklist_characters="\r\n", blacklist_categories=["Cs"]), max_size=12
)
_LINES = st.one_of(
    st.builds(lambda v: "data: " + v, _VALUES),
    st.builds(lambda v: "data:" + v, _VALUES),
    st.just("data"),
    st.builds(lambda v: "event: " + v, _VALUES),
    st.builds(lambda v: "id: " + v, _VALUES),
    st.builds(lambda v: "retry: " + v, st.from_regex(r"[0-9]{1,5}", fullmatch=True)),
    st.builds(lambda v: ":" + v, _VALUES),
    st.builds(lambda v: "other: " + v, _VALUES),
    st.just(""),
    st.just(""),
)


@given(
    st.lists(st.tuples(_LINES, st.sampled_from(["\n", "\r\n", "\r"])), max_size=30),
    st.lists(st.integers(1, 7), max_size=40),
)
def test_the_same_events_as_httpx_sse(lines: list[tuple[str, str]], chunks: list[int]) -> None:
    data = "".join(line + end for line, end in lines).encode("utf-8")
    assert ours(data, chunks) == reference(data, chunks)


# --- bounded -----------------------------------------------------------------------------------


def test_a_line_past_the_bound_is_cut_and_said_so() -> None:
    limits = StreamLimits(max_line=100, max_event=1000)
    data = b"data: " + b"x" * 10_000 + b"\n\ndata: next\n\n"
    for chunk in (None, 7, 4096):
        big, small = events(data, chunk=chunk, limits=limits)
        assert big.data == "x" * 94  # the line's first 100 bytes, "data: " among them
        assert big.cut == 10_000 - 94
        assert big.size == len(b"data: ") + 10_000 + 2
        assert not big.is_json
        assert (small.data, small.cut) == ("next", 0)


def test_an_event_of_many_lines_past_the_bound_is_cut() -> None:
    limits = StreamLimits(max_line=100, max_event=50)
    data = b"data: 0123456789\n" * 100 + b"\n"
    [event] = events(data, limits=limits, chunk=13)
    assert len(event.data) <= 50
    assert event.data.startswith("0123456789\n0123456789")
    assert event.cut == 100 * 11 - 1 - 50  # its data is the lines joined by line feeds


def test_an_endless_line_holds_no_more_than_the_bound() -> None:
    limits = StreamLimits(max_line=1000)
    parser = SSEParser(limits)
    block = b"a" * 65536
    for _ in range(200):  # 13 MB of one line
        assert parser.feed(block) == []
    assert parser.pending == 200 * 65536
    assert len(parser._lines._held.data) == 1000


def test_a_multibyte_character_cut_by_the_bound_is_left_out() -> None:
    limits = StreamLimits(max_line=8)
    [event] = events("data: é€\n\n".encode(), limits=limits)
    assert event.data == "é"  # "€" begins at byte 8 and is cut in its middle
    assert event.cut == 3
