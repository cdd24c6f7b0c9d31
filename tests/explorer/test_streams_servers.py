"""Streams read over real sockets: the mock's event stream broken on the way and resumed
with Last-Event-ID, and streams served by implementations no one here wrote
(sse-starlette's EventSourceResponse, Starlette's StreamingResponse of JSON lines),
each served by Hypercorn."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Callable
from contextlib import (
    AbstractAsyncContextManager,
    AsyncExitStack,
    aclosing,
    asynccontextmanager,
)
from pathlib import Path

import httpx
import orjson
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from explorer.core.http.stream_reading import NoteKind, StreamNote, StreamReader
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.framing import Framing, framing_of
from tests.explorer.events_mock import create, mock_with_editor
from tests.explorer.servers import CuttingProxy, HypercornServer

Item = StreamEvent | StreamNote
Opener = Callable[[tuple[tuple[str, str], ...]], AbstractAsyncContextManager[httpx.Response]]


def opener(client: httpx.AsyncClient, url: str) -> Opener:
    @asynccontextmanager
    async def reopen(headers: tuple[tuple[str, str], ...]) -> AsyncIterator[httpx.Response]:
        sent = {"Accept": "text/event-stream", "Cache-Control": "no-store", **dict(headers)}
        async with client.stream("GET", url, headers=sent) as response:
            yield response

    return reopen


async def until(items: AsyncIterator[Item], wanted: Callable[[Item], bool]) -> list[Item]:
    """The items read until one ``wanted`` (that one last), within 15 s."""
    got: list[Item] = []

    async def read() -> None:
        async for item in items:
            got.append(item)
            if wanted(item):
                return
        raise AssertionError(f"the stream ended first: {got}")

    async with asyncio.timeout(15):  # in this task: the stream's context was entered here
        await read()
    return got


def is_event(item: Item) -> bool:
    return isinstance(item, StreamEvent)


def note(kind: NoteKind) -> Callable[[Item], bool]:
    return lambda item: isinstance(item, StreamNote) and item.kind is kind


# --- the mock's events, the connection broken on the way --------------------------------------


async def test_the_mock_s_stream_broken_on_the_way_resumes_after_the_last_event() -> None:
    with mock_with_editor() as (url, editor), CuttingProxy(httpx.URL(url).port or 0) as proxy:
        async with httpx.AsyncClient(timeout=10) as client, AsyncExitStack() as stack:
            reopen = opener(client, f"{proxy.url}/events")
            reader = StreamReader(Framing.SSE, reopen=reopen)
            async with reopen(()) as response:
                assert framing_of(response.headers["content-type"]) is Framing.SSE
                items = await stack.enter_async_context(aclosing(reader.read(response)))
                create(editor, "First")
                [first] = await until(items, is_event)
                proxy.cut()
                create(editor, "Second")  # while the connection is down
                create(editor, "Third")
                started = time.monotonic()
                gap = await until(items, note(NoteKind.RESUMED))
                waited = time.monotonic() - started
                resumed = [await until(items, is_event) for _ in range(2)]
                create(editor, "Fourth")
                live = await until(items, is_event)
    assert isinstance(first, StreamEvent)
    assert first.type == "customer.created"
    assert first.value["data"]["name"] == "First"  # type: ignore[index]
    kinds = [item.kind for item in gap if isinstance(item, StreamNote)]
    assert kinds == [NoteKind.BROKEN, NoteKind.WAITING, NoteKind.RESUMED]
    waiting = gap[1]
    assert isinstance(waiting, StreamNote)
    assert waiting.text == f"reconnecting in 2 s with Last-Event-ID {first.id}"  # its retry: 2000
    assert waited >= 1.9
    names = [e.value["data"]["name"] for [e] in resumed]  # type: ignore[index]
    assert names == ["Second", "Third"]  # what came meanwhile, nothing twice
    [fourth] = live
    assert fourth.value["data"]["name"] == "Fourth"  # type: ignore[union-attr, index]
    assert [e.number for [e] in (*resumed, live)] == [2, 3, 4]  # type: ignore[misc]
    assert reader.connections == 2
    assert reader.heartbeats == 2  # the opening comment of each connection
    assert proxy.connections == 2


async def test_an_id_the_mock_never_gave_is_said_in_an_event() -> None:
    with mock_with_editor() as (url, _):
        async with httpx.AsyncClient(timeout=10) as client:
            reopen = opener(client, f"{url}/events")
            reader = StreamReader(Framing.SSE, reopen=reopen, last_event_id="7-00000000")
            async with (
                reopen((("Last-Event-ID", "7-00000000"),)) as response,
                aclosing(reader.read(response)) as items,
            ):
                [gap] = await until(items, is_event)
    assert isinstance(gap, StreamEvent)
    assert gap.type == "stream.gap"
    assert gap.value["reason"] == "unknown-id"  # type: ignore[index]


# --- sse-starlette, served by Hypercorn ---------------------------------------------------------


def sse_app(connections: list[str | None]) -> Starlette:
    """Three events per connection, numbered on from the Last-Event-ID sent back; on the
    third connection, 204 No Content (the standard's way to say: do not reconnect)."""

    async def events(request: Request) -> Response:
        last = request.headers.get("last-event-id")
        connections.append(last)
        if len(connections) == 3:
            return Response(status_code=204)
        start = int(last) + 1 if last else 1

        async def messages() -> AsyncIterator[ServerSentEvent]:
            yield ServerSentEvent(retry=50, comment="hello")
            for number in range(start, start + 3):
                await asyncio.sleep(0.02)
                data = orjson.dumps({"n": number}).decode() if number % 2 else f"line\nof {number}"
                yield ServerSentEvent(data=data, id=str(number), event="tick")

        return EventSourceResponse(messages(), ping=0.01)

    return Starlette(routes=[Route("/events", events)])


async def test_a_stream_sse_starlette_serves_resumed_until_it_says_204(tmp_path: Path) -> None:
    connections: list[str | None] = []
    with HypercornServer(sse_app(connections), tls=False, tmp_path=tmp_path) as server:
        async with httpx.AsyncClient(timeout=10) as client:
            reopen = opener(client, f"{server.url}/events")
            reader = StreamReader(Framing.SSE, reopen=reopen)
            async with reopen(()) as response, aclosing(reader.read(response)) as read:
                items = await until(read, note(NoteKind.STOPPED))
    events = [item for item in items if isinstance(item, StreamEvent)]
    assert [(e.id, e.type) for e in events] == [(str(n), "tick") for n in range(1, 7)]
    assert events[0].value == {"n": 1}
    assert events[1].data == "line\nof 2"  # two data: lines, joined
    assert not events[1].is_json
    assert connections == [None, "3", "6"]
    kinds = [item.kind for item in items if isinstance(item, StreamNote)]
    ended, waiting, resumed, stopped = (
        NoteKind.ENDED,
        NoteKind.WAITING,
        NoteKind.RESUMED,
        NoteKind.STOPPED,
    )
    assert kinds == [ended, waiting, resumed, ended, waiting, stopped]
    assert "204 No Content" in items[-1].text  # type: ignore[union-attr]
    assert reader.heartbeats >= 2  # "hello" on each connection, and its pings


# --- Starlette's StreamingResponse, served by Hypercorn -----------------------------------------


@asynccontextmanager
async def streamed(
    body: Callable[[], AsyncIterator[bytes]], media_type: str, tmp_path: Path
) -> AsyncIterator[tuple[StreamReader, AsyncIterator[Item]]]:
    """A reader of ``body`` served as a StreamingResponse of ``media_type``, and its items."""

    async def endpoint(request: Request) -> Response:
        return StreamingResponse(body(), media_type=media_type)

    app = Starlette(routes=[Route("/stream", endpoint)])
    with HypercornServer(app, tls=False, tmp_path=tmp_path) as server:
        url = f"{server.url}/stream"
        async with (
            httpx.AsyncClient(timeout=10) as client,
            client.stream("GET", url) as response,
        ):
            framing = framing_of(response.headers["content-type"])
            assert framing is not None
            reader = StreamReader(framing, reopen=opener(client, url))
            async with aclosing(reader.read(response)) as items:
                yield reader, items


async def test_json_lines_from_starlette_come_one_by_one(tmp_path: Path) -> None:
    go_on = threading.Event()

    async def body() -> AsyncIterator[bytes]:
        yield b'{"n": 1}\n'
        await asyncio.to_thread(go_on.wait, 10)  # the rest only once the first was read
        yield b'{"n": 2}\n{"n"'
        yield b": 3}\n"

    async with streamed(body, "application/x-ndjson", tmp_path) as (reader, items):
        assert reader.framing is Framing.JSON_LINES
        [first] = await until(items, is_event)
        go_on.set()
        rest = await until(items, note(NoteKind.ENDED))
    assert first.value == {"n": 1}  # type: ignore[union-attr]
    assert [getattr(item, "value", None) for item in rest] == [{"n": 2}, {"n": 3}, None]
    assert reader.connections == 1  # JSON lines have no way to resume: their end is the end


async def test_a_json_sequence_from_starlette(tmp_path: Path) -> None:
    async def body() -> AsyncIterator[bytes]:
        for number in range(3):
            yield b'\x1e{"n": %d}\n' % number
            await asyncio.sleep(0.01)

    async with streamed(body, "application/json-seq", tmp_path) as (reader, items):
        assert reader.framing is Framing.JSON_SEQ
        got = await until(items, note(NoteKind.ENDED))
    assert [getattr(item, "value", None) for item in got] == [{"n": 0}, {"n": 1}, {"n": 2}, None]
