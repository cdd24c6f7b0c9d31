"""The stream reader on in-process transports: events as they come, a broken event stream
resumed with Last-Event-ID after the server's retry, and each step said."""

from __future__ import annotations

import gzip
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import httpx
import pytest

from explorer.core.http.stream_reading import MIN_RETRY_MS, NoteKind, StreamNote, StreamReader
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.framing import Framing

SSE = {"content-type": "text/event-stream"}


class Broken:
    """A connection that breaks here."""


def body(*parts: bytes | Broken) -> Callable[[], AsyncIterator[bytes]]:
    async def chunks() -> AsyncIterator[bytes]:
        for part in parts:
            if isinstance(part, Broken):
                raise httpx.ReadError("connection reset by peer")
            yield part

    return chunks


def serving(
    answers: list[tuple[int, dict[str, str], Callable[[], AsyncIterator[bytes]]]],
) -> tuple[httpx.AsyncClient, list[httpx.Request]]:
    """A client whose requests get ``answers`` in turn (a refused connection after them)."""
    seen: list[httpx.Request] = []
    queue: Iterator[tuple[int, dict[str, str], Callable[[], AsyncIterator[bytes]]]] = iter(answers)

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        try:
            status, headers, content = next(queue)
        except StopIteration:
            raise httpx.ConnectError("All connection attempts failed", request=request) from None
        return httpx.Response(status, headers=headers, content=content())

    return httpx.AsyncClient(transport=httpx.MockTransport(handler)), seen


def opener(
    client: httpx.AsyncClient,
) -> Callable[[tuple[tuple[str, str], ...]], AbstractAsyncContextManager[httpx.Response]]:
    @asynccontextmanager
    async def reopen(headers: tuple[tuple[str, str], ...]) -> AsyncIterator[httpx.Response]:
        async with client.stream("GET", "http://api.test/events", headers=headers) as response:
            yield response

    return reopen


class Waits:
    def __init__(self) -> None:
        self.seconds: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)


async def read_all(
    reader: StreamReader, client: httpx.AsyncClient
) -> list[StreamEvent | StreamNote]:
    async with opener(client)(()) as first:
        return [item async for item in reader.read(first)]


def shape(items: list[StreamEvent | StreamNote]) -> list[str]:
    return [
        f"{item.id}:{item.data}" if isinstance(item, StreamEvent) else item.kind.value
        for item in items
    ]


async def test_a_broken_event_stream_is_resumed_after_retry_with_the_last_event_id() -> None:
    client, seen = serving(
        [
            (200, SSE, body(b"retry: 1500\n\nid: 1\ndata: a\n\nid: 2\nda", b"ta: b\n", Broken())),
            (200, SSE, body(b"id: 3\ndata: c\n\n")),
            (204, {}, body()),
        ]
    )
    waits = Waits()
    ticks = iter(range(100))
    reader = StreamReader(
        Framing.SSE, reopen=opener(client), sleep=waits, clock=lambda: float(next(ticks))
    )
    items = await read_all(reader, client)
    assert shape(items) == [
        "1:a",
        "unfinished",
        "broken",
        "waiting",
        "resumed",
        "3:c",
        "ended",
        "waiting",
        "stopped",
    ]
    assert waits.seconds == [1.5, 1.5]
    assert [r.headers.get("last-event-id") for r in seen] == [None, "1", "3"]
    notes = {item.kind: item.text for item in items if isinstance(item, StreamNote)}
    assert notes[NoteKind.BROKEN].startswith("The connection")
    assert notes[NoteKind.UNFINISHED] == "an event begun when it ended (14 B) was dropped"
    assert notes[NoteKind.RESUMED] == "reconnected: 200 OK; asked for the events after 1"
    assert "204 No Content" in notes[NoteKind.STOPPED]
    assert [i.number for i in items if isinstance(i, StreamEvent)] == [1, 2]
    assert [i.arrived for i in items if isinstance(i, StreamEvent)] == [0.0, 5.0]
    assert (reader.events, reader.connections, reader.last_event_id) == (2, 2, "3")


async def test_a_server_that_starts_over_instead_of_resuming_is_said_so() -> None:
    # QA 3: a FastAPI StreamingResponse ignores Last-Event-ID and sends ids 0... again.
    again = b"retry: 10\n\nid: 0\ndata: a\n\nid: 1\ndata: b\n\n"
    client, seen = serving([(200, SSE, body(again)), (200, SSE, body(again)), (204, {}, body())])
    reader = StreamReader(Framing.SSE, reopen=opener(client), sleep=Waits())
    items = await read_all(reader, client)
    assert shape(items) == [
        *("0:a", "1:b", "ended", "waiting", "resumed"),
        *("replayed", "0:a", "1:b", "ended", "waiting", "stopped"),
    ]
    notes = {item.kind: item.text for item in items if isinstance(item, StreamNote)}
    assert notes[NoteKind.REPLAYED] == (
        "the server sent id 0 again: it does not go on after Last-Event-ID 1, so the events "
        "after it may repeat ones already shown"
    )
    assert [r.headers.get("last-event-id") for r in seen] == [None, "1", "1"]


async def test_a_server_that_goes_on_after_the_last_event_id_is_not_said_to_start_over() -> None:
    client, _ = serving(
        [
            (200, SSE, body(b"retry: 10\n\nid: 1\ndata: a\n\n")),
            (200, SSE, body(b"data: carried id\n\nid: 2\ndata: b\n\nid: 1\ndata: old\n\n")),
        ]
    )
    reader = StreamReader(Framing.SSE, reopen=opener(client), sleep=Waits(), max_reconnects=1)
    items = await read_all(reader, client)
    # the first event carries the id sent (1); the first id of its own (2) is new; a later
    # repeat is the server's business, not a start over
    assert "replayed" not in shape(items)


async def test_an_answer_that_is_no_event_stream_ends_it() -> None:
    client, _ = serving(
        [
            (200, SSE, body(b"data: a\n\n")),
            (503, {"content-type": "application/problem+json"}, body()),
        ]
    )
    reader = StreamReader(Framing.SSE, reopen=opener(client), sleep=Waits())
    items = await read_all(reader, client)
    assert shape(items) == [":a", "ended", "waiting", "stopped"]
    assert items[-1].text == (  # type: ignore[union-attr]
        "the reconnection was answered 503 Service Unavailable (application/problem+json), "
        "not an event stream: not reconnecting"
    )


async def test_it_gives_up_after_reconnections_failing_in_a_row() -> None:
    client, seen = serving([(200, SSE, body(b"retry: 99999999\n\n"))])
    waits = Waits()
    reader = StreamReader(Framing.SSE, reopen=opener(client), sleep=waits, max_reconnects=3)
    items = await read_all(reader, client)
    assert shape(items) == ["ended"] + ["waiting", "retry-failed"] * 3 + ["stopped"]
    assert waits.seconds == [60.0] * 3  # retry bounded
    assert len(seen) == 4
    assert items[-1].text == "gave up after 3 reconnections failed in a row"  # type: ignore[union-attr]
    assert items[2].text.startswith("Could not connect")  # type: ignore[union-attr]


async def test_a_retry_of_zero_still_waits_before_reconnecting() -> None:
    # QA: a server sending "retry: 0" and ending each connection was asked again 400 times
    # a second (3,151 reconnections in 8 s), for as long as the page was open.
    client, seen = serving(
        [
            (200, SSE, body(b"retry: 0\n\nid: 1\ndata: a\n\n")),
            (200, SSE, body(b"id: 2\ndata: b\n\n")),
        ]
    )
    waits = Waits()
    reader = StreamReader(Framing.SSE, reopen=opener(client), sleep=waits, max_reconnects=1)
    items = await read_all(reader, client)
    assert shape(items) == [
        *("1:a", "ended", "waiting", "resumed", "2:b", "ended"),
        *("waiting", "retry-failed", "stopped"),
    ]
    assert waits.seconds == [MIN_RETRY_MS / 1000] * 2
    assert MIN_RETRY_MS >= 500
    assert items[2].text == f"reconnecting in {MIN_RETRY_MS / 1000:g} s with Last-Event-ID 1"  # type: ignore[union-attr]
    assert len(seen) == 3


async def test_other_framings_end_with_their_body() -> None:
    client, seen = serving(
        [(200, {"content-type": "application/x-ndjson"}, body(b'{"a":', b" 1}\n[2]\n"))]
    )
    reader = StreamReader(Framing.JSON_LINES, reopen=opener(client), sleep=Waits())
    items = await read_all(reader, client)
    assert [getattr(i, "value", None) for i in items[:2]] == [{"a": 1}, [2]]
    assert shape(items)[2:] == ["ended"]
    assert len(seen) == 1
    assert reader.bytes_read == len(b'{"a": 1}\n[2]\n')


async def test_a_gzipped_stream_is_inflated_as_it_comes() -> None:
    compressor = gzip.compress(b"data: one\n\n" * 3 + b"data: " + b"z" * 3_000_000 + b"\n\n")
    pieces = [compressor[i : i + 100] for i in range(0, len(compressor), 100)]
    client, _ = serving([(200, SSE | {"content-encoding": "gzip"}, body(*pieces))])
    reader = StreamReader(Framing.SSE)
    items = await read_all(reader, client)
    events = [i for i in items if isinstance(i, StreamEvent)]
    assert [e.data for e in events[:3]] == ["one"] * 3
    assert events[3].cut == 2_000_006  # past the 1 MB bound of one line, "data: " in it
    assert shape(items)[-1] == "ended"


async def test_bytes_that_are_not_their_coding_break_it() -> None:
    client, _ = serving([(200, SSE | {"content-encoding": "gzip"}, body(b"data: not gzip\n\n"))])
    items = await read_all(StreamReader(Framing.SSE), client)
    assert shape(items) == ["broken"]
    assert "Content-Encoding" in items[0].text or "gzip" in items[0].text  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", list(NoteKind))
def test_every_note_kind_is_named(kind: NoteKind) -> None:
    assert kind.value


def test_a_reconnections_reason_past_ascii_is_kept() -> None:
    """QA 7: the reconnection's notes read its reason as the Trip tab does (httpx's
    ``reason_phrase`` dropped every byte past ASCII: ``ÖK`` showed as ``K``)."""
    from explorer.core.http.stream_reading import _refusal, _resumed

    ok = httpx.Response(200, extensions={"reason_phrase": "ÖK ✓".encode()})
    assert _resumed(ok, "7") == "reconnected: 200 ÖK ✓; asked for the events after 7"
    gone = httpx.Response(
        410, headers={"Content-Type": "text/plain"}, extensions={"reason_phrase": "Wëg".encode()}
    )
    assert _refusal(gone) == (
        "the reconnection was answered 410 Wëg (text/plain), not an event stream: not reconnecting"
    )
