"""Hostile streams read by the core's reader: a line that never ends and an event of
100 MB held to their bounds, and terminal escapes in events shown as text."""

from __future__ import annotations

import asyncio
import tracemalloc
from collections.abc import Callable
from contextlib import aclosing, suppress
from pathlib import Path

import httpx
import pytest
from textual.css.query import NoMatches
from textual.pilot import Pilot
from textual.widgets import Static

from explorer.cli import main
from explorer.core.http.stream_reading import NoteKind, StreamNote, StreamReader
from explorer.core.streams.event import StreamEvent
from explorer.core.streams.framing import Framing, framing_of
from explorer.core.streams.shown import event_body, event_heading, event_json, event_row
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.stream_view import StreamView
from tests.explorer.hostile.checks import control_bytes
from tests.explorer.hostile.conftest import run_measured
from tests.explorer.hostile.server import BIG_EVENT, HostileServer
from tests.explorer.hostile.test_tui import SETTINGS, assert_shown_not_obeyed
from tests.explorer.ui.conftest import SIZE

MB = 1_000_000


async def test_a_line_that_never_ends_holds_no_more_than_its_bound(
    hostile: HostileServer,
) -> None:
    tracemalloc.start()
    try:
        async with (
            httpx.AsyncClient(timeout=10) as client,
            client.stream("GET", hostile.case("/stream/endless-line")) as response,
        ):
            reader = StreamReader(Framing.SSE)
            got: list[object] = []

            async def read() -> None:
                async for item in reader.read(response):
                    got.append(item)

            task = asyncio.create_task(read())
            for _ in range(600):  # no event ever comes: look at what was read, 30 s at most
                if reader.bytes_read >= 30 * MB:
                    break
                await asyncio.sleep(0.05)
            task.cancel()  # as Escape stops a stream
            with suppress(asyncio.CancelledError):
                await task
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert reader.bytes_read >= 30 * MB
    assert reader.events == 0
    assert got == []
    assert reader.pending >= 30 * MB  # counted, not held
    assert peak < 8 * MB, peak


async def test_an_event_of_100_mb_is_cut_to_its_bound_and_the_next_one_comes(
    hostile: HostileServer,
) -> None:
    tracemalloc.start()
    try:
        async with (
            httpx.AsyncClient(timeout=30) as client,
            client.stream("GET", hostile.case("/stream/100mb-event")) as response,
        ):
            reader = StreamReader(Framing.SSE)
            async with aclosing(reader.read(response)) as read:
                items = [item async for item in read]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    big, after, ended = items
    assert isinstance(big, StreamEvent)
    assert (big.id, len(big.data)) == ("1", MB - len(b"data: "))
    assert big.cut == BIG_EVENT - len(big.data)
    assert "100 MB of it left out" in event_heading(big) or "99 MB of it left out" in (
        event_heading(big)
    )
    assert isinstance(after, StreamEvent)
    assert (after.id, after.data) == ("2", "after")
    assert isinstance(ended, StreamNote)
    assert ended.kind is NoteKind.ENDED
    assert peak < 12 * MB, peak


async def test_escapes_in_events_are_shown_as_text(hostile: HostileServer) -> None:
    for path, framing in (
        ("/stream/escapes", Framing.SSE),
        ("/stream/escapes-ndjson", Framing.JSON_LINES),
    ):
        async with (
            httpx.AsyncClient(timeout=10) as client,
            client.stream("GET", hostile.case(path)) as response,
        ):
            assert framing_of(response.headers["content-type"]) is framing
            async with aclosing(StreamReader(framing).read(response)) as read:
                events = [item async for item in read if isinstance(item, StreamEvent)]
        assert len(events) == 2
        first = events[0]
        kept = first.value["x"] if isinstance(first.value, dict) else first.data
        assert "\x1b" in kept  # kept as it came
        for event in events:
            shown = "\n".join((event_heading(event), event_body(event), event_row(event)))
            assert control_bytes(shown.encode()) == [], path
            assert control_bytes(event_json(event)) == [], path


# --- restwalk request --stream, measured -------------------------------------------------------


def test_request_stream_holds_a_100_mb_event_to_its_bound(
    hostile: HostileServer, tmp_path: Path
) -> None:
    # The server ends the stream after its two events: --max-events stops it before an
    # event stream's reconnection asks for the 100 MB again.
    run = run_measured(
        tmp_path, "request", "GET", hostile.case("/stream/100mb-event"), "--max-events", "2"
    )
    assert run.code == 0, run.err
    lines = run.out.decode().splitlines()
    big = next(line for line in lines if "] #1 message id 1 (" in line)
    assert big.endswith(" (100 MB); 99 MB of it left out (over the limit)")
    assert any("] #2 message id 2 (" in line for line in lines)
    assert "\nafter\n" in run.out.decode()
    assert run.peak_mib < 100  # measured: 49 MiB
    assert control_bytes(run.out) == []


def test_request_stream_holds_an_endless_line_to_its_bound(
    hostile: HostileServer, tmp_path: Path
) -> None:
    run = run_measured(
        tmp_path, "request", "GET", hostile.case("/stream/endless-line"), "--max-time", "3"
    )
    assert run.code == 0, run.err
    last = run.out.decode().splitlines()[-1]
    assert "] stopped after --max-time 3 s" in last
    assert ": 0 events (" in last
    assert run.peak_mib < 100  # measured: 49 MiB
    assert run.seconds < 15


@pytest.mark.parametrize("path", ["/stream/escapes", "/stream/escapes-ndjson"])
@pytest.mark.parametrize("json_lines", [False, True])
def test_request_stream_shows_escapes_as_text(
    hostile: HostileServer, capsysbinary: pytest.CaptureFixture[bytes], path: str, json_lines: bool
) -> None:
    extra = ["--json"] if json_lines else []
    code = main(["request", "GET", hostile.case(path), "--max-events", "2", *extra])
    out = capsysbinary.readouterr().out
    assert code == 0
    assert b"#2" in out or b'"number":2' in out
    assert control_bytes(out) == []


# --- the TUI ------------------------------------------------------------------------------------


def _view(app: RestwalkApp) -> StreamView:
    """The stream's view (mounted when a stream is first shown)."""
    return app.browser.query_one(ResponseTabs).stream_view


async def _until(pilot: Pilot[int], check: Callable[[], bool], seconds: float = 20) -> None:
    for _ in range(int(seconds / 0.05)):
        with suppress(NoMatches):
            if check():
                return
        await pilot.pause(0.05)
    raise AssertionError("never happened")


@pytest.mark.parametrize("path", ["/stream/escapes", "/stream/escapes-ndjson"])
async def test_the_tui_shows_escapes_in_events_as_text(hostile: HostileServer, path: str) -> None:
    app = create_app(hostile.case(path), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await _until(pilot, lambda: _view(app).table.row_count >= 2)
        view = _view(app)
        await pilot.press("escape")  # stop before an event stream reconnects
        for row in range(2):
            view.table.move_cursor(row)
            await pilot.pause()
            assert_shown_not_obeyed(app)


async def test_the_tui_shows_a_100_mb_event_cut_to_its_bound(hostile: HostileServer) -> None:
    app = create_app(hostile.case("/stream/100mb-event"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await _until(pilot, lambda: _view(app).table.row_count == 2)
        view = _view(app)
        await pilot.press("escape")
        view.table.move_cursor(0)
        await pilot.pause()
        heading = str(view.query_one("#stream-event", Static).render())
        assert heading.endswith("(100 MB); 99 MB of it left out (over the limit)")
        assert view.detail.text.size == MB - len(b"data: ")
        assert_shown_not_obeyed(app)
