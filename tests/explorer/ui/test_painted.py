"""Work that holds the GIL waits until the frame before it has had time to be written."""

from __future__ import annotations

import time

from textual.app import App, ComposeResult
from textual.widgets import Static

from explorer.ui.painted import FLUSH_GRACE, after_paint, call_after_paint


class One(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("hello")


async def test_after_paint_returns_after_a_refresh_and_the_grace() -> None:
    app = One()
    async with app.run_test() as pilot:
        await pilot.pause()
        start = time.perf_counter()
        await after_paint(app.query_one(Static))
        assert time.perf_counter() - start >= FLUSH_GRACE


async def test_call_after_paint_calls_once_after_the_grace() -> None:
    app = One()
    calls: list[float] = []
    async with app.run_test() as pilot:
        await pilot.pause()
        start = time.perf_counter()
        call_after_paint(app.query_one(Static), lambda: calls.append(time.perf_counter()))
        await pilot.pause(FLUSH_GRACE * 5)
        assert len(calls) == 1
        assert calls[0] - start >= FLUSH_GRACE
