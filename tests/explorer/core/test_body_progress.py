"""A body's progress while it comes: the figures, and the client counting each chunk."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import httpx
import pytest

from explorer.core.http.client import Client
from explorer.core.http.errors import BodyTooLarge
from explorer.core.http.progress import (
    BodyProgress,
    cancelled_text,
    rate_text,
    receiving_text,
    waiting_text,
)
from explorer.core.http.request import RequestSpec


class FakeClock:
    """A clock a test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_receiving_text_says_bytes_of_the_total_percent_and_rate() -> None:
    said = receiving_text(3_200_000, 20_000_000, 4_100_000.0)
    assert said == "receiving 3.2 MB of 20 MB (16%) · 4.1 MB/s"


def test_receiving_text_without_a_length_or_a_rate() -> None:
    assert receiving_text(3_200_000, None, 4_100_000.0) == "receiving 3.2 MB · 4.1 MB/s"
    assert receiving_text(512, 2048, None) == "receiving 512 B of 2 KB (25%)"


def test_the_percentage_is_rounded_down_and_never_past_100() -> None:
    assert "(99%)" in receiving_text(999, 1000, None)
    assert "(100%)" in receiving_text(1000, 1000, None)
    assert "(100%)" in receiving_text(1500, 1000, None)  # (a length that lied)


def test_rate_text() -> None:
    assert rate_text(512.4) == "512 B/s"
    assert rate_text(1_234_567.0) == "1.2 MB/s"


def test_a_rate_about_a_units_boundary_keeps_its_precision() -> None:
    """Readings about 1 MB/s, as a local server dripping 5 MB in 5 s gave them: whole
    kilobytes, megabytes with their decimal (not ``973.8 KB/s`` then ``1 MB/s``)."""
    assert [rate_text(r) for r in (973_812.0, 980_000.0, 999_499.0, 999_500.0)] == [
        "974 KB/s",
        "980 KB/s",
        "999 KB/s",
        "1.0 MB/s",
    ]
    assert rate_text(2_000_000.0) == "2.0 MB/s"
    assert rate_text(999.6) == "1 KB/s"
    assert rate_text(1_500.0) == "2 KB/s"
    assert rate_text(999_950_000.0) == "1.0 GB/s"
    assert rate_text(0.0) == "0 B/s"


def test_nothing_to_say_before_a_head() -> None:
    progress = BodyProgress(FakeClock())
    assert not progress.begun
    assert progress.text() == ""
    progress.add(10)  # (a count with no head is kept, and says nothing)
    assert progress.text() == ""


def test_the_rate_is_over_the_recent_past() -> None:
    clock = FakeClock()
    progress = BodyProgress(clock)
    progress.begin(200, 10_000_000)
    assert progress.rate() is None  # no time has passed
    for _ in range(8):  # 1 MB a second for two seconds, a chunk each quarter
        clock.now += 0.25
        progress.add(250_000)
    assert progress.rate() == pytest.approx(1_000_000)
    assert progress.text() == "receiving 2.0 MB of 10 MB (20%) · 1.0 MB/s"
    for _ in range(4 * 5):  # then 2 MB a second for five seconds: the window's rate
        clock.now += 0.25
        progress.add(500_000)
    assert progress.rate() == pytest.approx(2_000_000)


def test_the_rate_falls_to_nothing_when_the_server_stops_sending() -> None:
    """A megabyte came at once, then nothing: the reader, reading the rate now and then
    (as the screen does), sees it fall, and reach 0 once the window is past."""
    clock = FakeClock()
    progress = BodyProgress(clock)
    progress.begin(200, 2_000_000)
    progress.add(1_000_000)
    rates = []
    for _ in range(4 * 5):
        clock.now += 0.25
        rates.append(progress.rate())
    assert rates[0] == pytest.approx(4_000_000)
    assert rates == sorted(rates, key=lambda rate: -(rate or 0))
    assert rates[-1] == 0
    assert progress.text() == "receiving 1.0 MB of 2 MB (50%) · stalled 5 s"


def test_a_stalled_body_says_how_long_nothing_came() -> None:
    """QA: a body that stopped after 201 bytes read "0 B/s" for the 30 s until the timeout;
    once nothing came for the rate's whole window, it says how long, as the wait for a head
    does. Bytes coming again give the rate back."""
    clock = FakeClock()
    progress = BodyProgress(clock)
    progress.begin(200, 100_000)
    progress.add(201)
    clock.now += 2.9
    assert progress.text() == "receiving 201 B of 100 KB (0%) · 69 B/s"
    clock.now += 0.1
    assert progress.text() == "receiving 201 B of 100 KB (0%) · stalled 3 s"
    clock.now += 22.5
    assert progress.text() == "receiving 201 B of 100 KB (0%) · stalled 25 s"
    progress.add(0)  # (an empty chunk is no byte)
    assert progress.text().endswith("· stalled 25 s")
    progress.add(1_000)
    assert progress.text().startswith("receiving 1 KB of 100 KB (1%) · ")
    assert "stalled" not in progress.text()


def test_a_new_head_begins_again() -> None:
    clock = FakeClock()
    progress = BodyProgress(clock)
    progress.begin(302, 50)
    clock.now += 1
    progress.add(50)
    progress.begin(200, None)
    assert (progress.status, progress.received, progress.total) == (200, 0, None)


class _Chunks(httpx.AsyncByteStream):
    """A body of ``sizes`` chunks; before each, what ``seen`` reads is noted."""

    def __init__(self, sizes: list[int], seen: Callable[[], int], notes: list[int]) -> None:
        self.sizes, self.seen, self.notes = sizes, seen, notes

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for size in self.sizes:
            self.notes.append(self.seen())
            yield b"x" * size


async def test_the_client_counts_each_chunk_as_it_comes() -> None:
    progress = BodyProgress(FakeClock())
    notes: list[int] = []
    sizes = [1000, 2000, 4000]

    def handler(request: httpx.Request) -> httpx.Response:
        headers = {"Content-Length": str(sum(sizes))}
        stream = _Chunks(sizes, lambda: progress.received, notes)
        return httpx.Response(200, headers=headers, stream=stream)

    async with Client(transport=httpx.MockTransport(handler)) as client:
        exchange = await client.send(RequestSpec(url="http://h/big"), progress=progress)
    assert notes == [0, 1000, 3000]  # counted while the body came, not at its end
    assert (progress.status, progress.received, progress.total) == (200, 7000, 7000)
    assert len(exchange.response.body) == 7000


async def test_a_body_without_a_length_is_counted_of_no_total() -> None:
    progress = BodyProgress(FakeClock())

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=_Chunks([10, 20], lambda: 0, []))

    async with Client(transport=httpx.MockTransport(handler)) as client:
        await client.send(RequestSpec(url="http://h/"), progress=progress)
    assert (progress.received, progress.total) == (30, None)
    assert progress.text().startswith("receiving 30 B")


async def test_each_hop_of_a_redirect_is_counted_anew() -> None:
    progress = BodyProgress(FakeClock())

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/old":
            moved = _Chunks([100], lambda: 0, [])
            return httpx.Response(302, headers={"Location": "/new"}, stream=moved)
        return httpx.Response(200, headers={"Content-Length": "5"}, stream=_Chunks([5], int, []))

    async with Client(transport=httpx.MockTransport(handler)) as client:
        await client.send(RequestSpec(url="http://h/old"), progress=progress)
    assert (progress.status, progress.received, progress.total) == (200, 5, 5)


async def test_the_body_bound_still_stops_a_counted_body() -> None:
    progress = BodyProgress(FakeClock())

    async def endless() -> AsyncIterator[bytes]:
        while True:
            yield b"x" * 65536

    class Endless(httpx.AsyncByteStream):
        async def __aiter__(self) -> AsyncIterator[bytes]:
            async for chunk in endless():
                yield chunk

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, stream=Endless())

    async with Client(transport=httpx.MockTransport(handler), max_body=1_000_000) as client:
        with pytest.raises(BodyTooLarge):
            await client.send(RequestSpec(url="http://h/"), progress=progress)
    assert 1_000_000 < progress.received <= 1_000_000 + 65536


def test_what_came_keeps_its_precision_as_the_rate_does() -> None:
    """One line, one style for its moving figures: not ``3 MB`` after ``2.9 MB``, beside
    ``1.0 MB/s``; the total, which does not move, as every size is shown."""
    said = receiving_text(3_000_000, 5_000_000, 1_000_000.0)
    assert said == "receiving 3.0 MB of 5 MB (60%) · 1.0 MB/s"
    assert receiving_text(973_812, None, None) == "receiving 974 KB"


def test_cancelled_text_says_what_had_come() -> None:
    progress = BodyProgress(FakeClock())
    assert cancelled_text(None).startswith("Cancelled before anything came: r sends")
    assert cancelled_text(progress).startswith("Cancelled before anything came")
    progress.begin(200, None)
    progress.add(20_000)
    said = cancelled_text(progress)
    assert said.startswith("Cancelled while its body came (200, 20 KB), none shown: r sends")
    progress.begin(206, 1_000_000)
    progress.add(1_500)
    assert "(206, 1.5 KB of 1 MB)" in cancelled_text(progress)


def test_waiting_text_counts_whole_seconds_from_the_first() -> None:
    """Before the head comes: "sending", then how long it has been waited for (QA: 25 s of
    "sending" could not be told from 2 s)."""
    assert waiting_text(0) == "sending"
    assert waiting_text(0.99) == "sending"
    assert waiting_text(1.0) == "waiting for the answer · 1 s"
    assert waiting_text(12.7) == "waiting for the answer · 12 s"
