"""A search on a hostile body: a bounded count on screen, and stopped when closed (QA 3, 2).

A 50 MB line of ``y`` once made the search grow the app by 100 MB a second, and go on
after Escape; these bodies are small, with the same shape: one long line.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from typing import Any

import httpx
import pytest
from textual.widgets import Input

from explorer.core.bodies import search_process
from explorer.core.http.client import Client
from explorer.core.text import text_search
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.find_bar import FindBar
from explorer.ui.widgets.response_tabs import ResponseTabs
from tests.explorer.ui.conftest import SIZE, settle


def one_line_app(ys: int) -> RestwalkApp:
    body = b'{"a": "' + b"y" * ys + b'"}'

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"Content-Type": "application/json"})

    return create_app("http://api/", client=Client(transport=httpx.MockTransport(handler)))


def search_bar(app: RestwalkApp) -> FindBar:
    return app.browser.query_one("#search-bar", FindBar)


def body_view(app: RestwalkApp) -> BodyView:
    return app.browser.query_one(ResponseTabs).body_view


class Children:
    """The search children started, and an event set when one is."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.started: list[subprocess.Popen[bytes]] = []
        self.one_started = threading.Event()
        real = subprocess.Popen

        def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
            child: subprocess.Popen[bytes] = real(*args, **kwargs)
            self.started.append(child)
            self.one_started.set()
            return child

        monkeypatch.setattr(search_process.subprocess, "Popen", popen)

    async def wait_for_one(self) -> None:
        assert await asyncio.to_thread(self.one_started.wait, 30)
        self.one_started.clear()

    async def all_ended(self) -> list[int | None]:
        """Each child's exit status, once it has ended (a deadline for a failing test)."""
        return [await asyncio.to_thread(child.wait, 30) for child in self.started]


async def test_escape_stops_a_search_that_would_run_for_hours(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``(y+)+z`` on 60 ``y`` takes 2**60 steps. While it runs, keys land where they
    should (wrap on, then off); a new search stops the last, and Escape the search."""
    children = Children(monkeypatch)
    app = one_line_app(60)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = body_view(app)
        await pilot.press("W", "slash", "alt+r")
        assert view.wrap
        assert isinstance(app.focused, Input)
        search_bar(app).input.value = "(y+)+z"
        await children.wait_for_one()
        await pilot.pause()
        assert view.search_status == "searching…"
        await pilot.press("enter", "W")  # to the view, then wrap off: not typed in the bar
        assert app.focused is view
        assert not view.wrap
        assert search_bar(app).input.value == "(y+)+z"
        await pilot.press("slash")  # the same search again: a new one stops the last
        await children.wait_for_one()
        assert len(children.started) == 2
        await pilot.press("escape")
        assert not search_bar(app).display
        assert view.search_status == ""
        statuses = await children.all_ended()
        assert all(status is not None and status != 0 for status in statuses)  # killed
        await pilot.press("W")  # the keys are the browser's again
        assert view.wrap


async def test_escape_in_the_body_closes_the_search_and_stops_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After Enter leaves the search line for the body, Escape there closes the search
    bar and kills its child (as a browser's Escape closes its find bar)."""
    children = Children(monkeypatch)
    app = one_line_app(60)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = body_view(app)
        await pilot.press("slash", "alt+r")
        search_bar(app).input.value = "(y+)+z"
        await children.wait_for_one()
        await pilot.press("enter")
        assert app.focused is view
        await pilot.press("escape")
        assert not search_bar(app).display
        assert view.search_status == ""
        statuses = await children.all_ended()
        assert all(status is not None and status != 0 for status in statuses)  # killed


async def test_a_capped_search_says_so_and_n_goes_round_the_kept_matches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(text_search, "MAX_MATCHES", 50)
    app = one_line_app(5000)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = body_view(app)
        await pilot.press("slash", "y")
        await settle(pilot)
        assert len(view.matches) == 50
        assert search_bar(app).status == "1 of 50+"
        assert search_bar(app).hint == "Only the first 50 matches are kept: n and N go round them."
        await pilot.press("enter", "N")
        assert search_bar(app).status == "50 of 50+"
        current = view.current_match
        assert current is not None
        assert (current.line, current.start) == (1, len('  "a": "') + 49)  # (indented)
        # The current match is drawn in its colour, on a line cut to the view.
        row = current.line + len(view.notes) - int(view.scroll_offset.y)
        strip = view.render_line(row)
        assert any(seg.style and seg.style.bold for seg in strip if seg.text == "y")
        await pilot.press("n")
        assert search_bar(app).status == "1 of 50+"


async def test_a_search_that_cannot_run_says_why_under_the_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script = "import sys; sys.stdin.buffer.read(); sys.exit('MemoryError: out of memory')"
    monkeypatch.setattr(search_process, "_command", lambda: [sys.executable, "-c", script])
    app = one_line_app(100)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", "alt+r")
        search_bar(app).input.value = "y+"
        await settle(pilot)
        assert search_bar(app).status == "The search stopped: MemoryError: out of memory"
        assert search_bar(app).query_one("#find-error").display
