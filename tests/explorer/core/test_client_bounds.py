"""The client's bounds, against in-process transports: body size, total time, redirects."""

from __future__ import annotations

import asyncio
import gzip
from collections.abc import AsyncIterator

import httpx
import pytest

from explorer.core.http.client import Client, next_hop
from explorer.core.http.errors import BodyTooLarge, DeadlineExceeded, RedirectRefused
from explorer.core.http.request import RequestSpec


class _Stream(httpx.AsyncByteStream):
    def __init__(self, chunks: AsyncIterator[bytes]) -> None:
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._chunks:
            yield chunk


async def _endless() -> AsyncIterator[bytes]:
    while True:
        yield b"x" * 65536


async def test_an_endless_body_stops_at_the_bound() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, stream=_Stream(_endless())))
    async with Client(transport=transport, max_body=1_000_000) as client:
        with pytest.raises(BodyTooLarge, match="1 MB"):
            await client.send(RequestSpec(url="http://h/"))


async def test_a_gzip_bomb_is_counted_decoded() -> None:
    async def bomb() -> AsyncIterator[bytes]:
        yield gzip.compress(bytes(50 << 20))

    def handler(request: httpx.Request) -> httpx.Response:
        headers = {"Content-Encoding": "gzip"}
        return httpx.Response(200, headers=headers, stream=_Stream(bomb()))

    async with Client(transport=httpx.MockTransport(handler), max_body=1 << 20) as client:
        with pytest.raises(BodyTooLarge):
            await client.send(RequestSpec(url="http://h/"))


async def test_a_declared_length_past_the_bound_is_refused_before_reading() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        headers = {"Content-Length": str(10**12)}
        return httpx.Response(200, headers=headers, stream=_Stream(_endless()))

    async with Client(transport=httpx.MockTransport(handler), max_body=1000) as client:
        with pytest.raises(BodyTooLarge, match="Content-Length"):
            await client.send(RequestSpec(url="http://h/"))


async def test_the_whole_exchange_has_a_deadline() -> None:
    async def trickle() -> AsyncIterator[bytes]:
        while True:
            await asyncio.sleep(0.05)
            yield b"."

    transport = httpx.MockTransport(lambda request: httpx.Response(200, stream=_Stream(trickle())))
    async with Client(transport=transport, max_time=0.3) as client:
        with pytest.raises(DeadlineExceeded, match=r"0\.3 s"):
            await client.send(RequestSpec(url="http://h/"))


@pytest.mark.parametrize(
    ("location", "named"),
    [
        ("javascript:alert(1)", "javascript:"),
        ("JavaScript:alert(1)", "JavaScript:"),
        ("data:text/html,x", "data:"),
        ("ftp://h/x", "ftp:"),
        ("http://h:0/", "port 0"),
        ("http://h:70000/", "port 70000"),
    ],
)
def test_a_redirect_nowhere_is_refused_by_name(location: str, named: str) -> None:
    request = httpx.Request("GET", "http://h/")
    response = httpx.Response(302, headers={"Location": location}, request=request)
    with pytest.raises(RedirectRefused, match=named):
        next_hop(request, response)


async def test_without_following_a_javascript_redirect_is_the_answer() -> None:
    transport = httpx.MockTransport(
        lambda request: httpx.Response(302, headers={"Location": "javascript:alert(1)"})
    )
    async with Client(transport=transport) as client:
        exchange = await client.send(RequestSpec(url="http://h/"), follow_redirects=False)
    assert exchange.response.status == 302
    assert exchange.response.header("location") == "javascript:alert(1)"
    async with Client(transport=transport) as client:
        with pytest.raises(RedirectRefused) as refused:
            await client.send(RequestSpec(url="http://h/"))
    assert [hop.response.status for hop in refused.value.hops] == [302]


async def test_a_reason_past_ascii_is_kept_as_its_header_fields_are() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        reason = "ÖK 日本 ✓".encode()
        return httpx.Response(200, extensions={"reason_phrase": reason}, json={})

    async with Client(transport=httpx.MockTransport(handler)) as client:
        exchange = await client.send(RequestSpec(url="http://h/"))
    assert exchange.response.reason == "ÖK 日本 ✓"  # httpx's reason_phrase says "K  "
