"""A stream through the core client and a tab, over real sockets: send leaves it unread
at once, open hands it on; a tab reads the mock's events as writes happen, resumes a
broken stream with its credential and Last-Event-ID, and holds what it keeps bounded."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from explorer.core.http.client import Client
from explorer.core.http.request import BasicAuth, RequestSpec
from explorer.core.http.stream_reading import NoteKind, StreamNote
from explorer.core.session.live_stream import StreamItem
from explorer.core.session.tab import Tab
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.framing import Framing
from explorer.core.streams.limits import StreamLimits
from tests.explorer.events_mock import create, mock_with_editor
from tests.explorer.servers import CuttingProxy, HypercornServer


async def until(
    items: AsyncIterator[StreamItem], wanted: Callable[[StreamItem], bool]
) -> StreamItem:
    async with asyncio.timeout(15):
        async for item in items:
            if wanted(item):
                return item
    raise AssertionError("the stream ended first")


def is_event(item: StreamItem) -> bool:
    return isinstance(item, StreamEvent)


async def test_send_leaves_a_stream_unread_and_answers_at_once() -> None:
    with mock_with_editor() as (url, _):
        async with Client(max_time=30) as client:
            started = time.monotonic()
            exchange = await client.send(RequestSpec(url=f"{url}/events"))
            took = time.monotonic() - started
    assert took < 5  # not the 30 s deadline: the body is never waited for
    assert exchange.response.status == 200
    assert exchange.response.stream == Framing.SSE.value
    assert exchange.response.body == b""


async def test_a_tab_reads_the_mock_s_events_as_writes_happen() -> None:
    with mock_with_editor() as (url, editor):
        async with Client() as client:
            tab = Tab(client)
            page = await tab.load(RequestSpec(url=f"{url}/customers/events"), live=True)
            assert page.exchange is not None
            assert page.exchange.response.stream == "server-sent events"
            live = tab.live
            assert live is not None
            async with aclosing(live.items()) as items:
                create(editor, "Ann")
                first = await until(items, is_event)
                create(editor, "Bob")
                second = await until(items, is_event)
            await tab.stop_live()
            assert tab.live is None
    assert isinstance(first, StreamEvent)
    assert isinstance(second, StreamEvent)
    assert [e.value["data"]["name"] for e in (first, second)] == ["Ann", "Bob"]  # type: ignore[index]
    assert [e.data for e in live.kept] == [first.data, second.data]
    assert live.summary().startswith("2 events (")


async def test_a_broken_stream_is_resumed_with_the_tab_s_credential() -> None:
    """/orders/events needs a credential that reads orders: the reconnection carries it,
    and Last-Event-ID, through the tab's client."""
    with mock_with_editor() as (url, _), CuttingProxy(httpx.URL(url).port or 0) as proxy:
        async with Client() as client:
            tab = Tab(client)
            tab.session.set_credential(proxy.url, BasicAuth("admin", "admin"))
            await tab.load(RequestSpec(url=f"{proxy.url}/orders/events"), live=True)
            live = tab.live
            assert live is not None
            async with aclosing(live.items()) as items:
                proxy.cut()
                resumed = await until(
                    items, lambda i: isinstance(i, StreamNote) and i.kind is NoteKind.RESUMED
                )
            await tab.stop_live()
    assert isinstance(resumed, StreamNote)
    assert resumed.text.startswith("reconnected: 200 OK")  # not a 401: the credential went
    assert proxy.connections == 2


async def test_what_a_tab_keeps_of_a_stream_is_bounded(tmp_path: Path) -> None:
    async def lines(request: Request) -> Response:
        async def body() -> AsyncIterator[bytes]:
            for number in range(500):
                yield b'{"n": %d}\n' % number

        return StreamingResponse(body(), media_type="application/x-ndjson")

    app = Starlette(routes=[Route("/lines", lines)])
    with HypercornServer(app, tls=False, tmp_path=tmp_path) as server:
        async with Client() as client:
            tab = Tab(client)
            tab.limits = StreamLimits(max_events=100)
            await tab.load(RequestSpec(url=f"{server.url}/lines"), live=True)
            assert tab.live is not None
            items = [item async for item in tab.live.items()]
    assert tab.live.ended
    assert len([i for i in items if isinstance(i, StreamEvent)]) == 500
    assert (len(tab.live.kept), tab.live.kept.dropped) == (100, 400)
    assert tab.live.kept[0].value == {"n": 400}
    assert "400 older events dropped" in tab.live.summary()


@pytest.mark.parametrize(("text", "framing"), [(True, Framing.TEXT), (False, None)])
async def test_chunked_text_is_a_stream_when_asked(
    tmp_path: Path, text: bool, framing: Framing | None
) -> None:
    async def chunks(request: Request) -> Response:
        async def body() -> AsyncIterator[bytes]:
            yield b"one\n"
            yield b"two\n"

        return StreamingResponse(body(), media_type="text/plain")

    app = Starlette(routes=[Route("/text", chunks)])
    with HypercornServer(app, tls=False, tmp_path=tmp_path) as server:
        async with (
            Client() as client,
            await client.open(RequestSpec(url=f"{server.url}/text"), text=text) as opened,
        ):
            assert opened.framing is framing
            body = opened.exchange.response.body
    assert body == (b"" if text else b"one\ntwo\n")
