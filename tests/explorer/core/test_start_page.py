"""The start page, asked for before its screen is shown (no Textual, no network)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import pytest

from explorer.core.http.progress import BodyProgress
from explorer.core.http.request import RequestSpec
from explorer.core.session import Page
from explorer.core.session.start_page import StartPage

if TYPE_CHECKING:
    from explorer.core.session.tab import Tab

URL = "http://mock/"


class _Tab:
    """A tab whose pages come when the test says so."""

    def __init__(self) -> None:
        self.client = SimpleNamespace(clock=time.monotonic)
        self.answer = asyncio.Event()
        self.opened = asyncio.Event()
        self.asked: list[tuple[RequestSpec, BodyProgress | None]] = []

    async def open(self, spec: RequestSpec, *, progress: BodyProgress | None = None) -> Page:
        self.asked.append((spec, progress))
        self.opened.set()
        await self.answer.wait()
        return Page(spec)


def _start() -> tuple[_Tab, StartPage]:
    tab = _Tab()
    return tab, StartPage(cast("Tab", tab), URL)


async def test_a_quick_start_page_is_taken_come_and_counted_in_its_own_progress() -> None:
    tab, start = _start()
    tab.answer.set()
    await start.prefetch(5.0)
    assert tab.asked == [(RequestSpec(url=URL), start.progress)]
    page = start.take()
    assert page is not None
    assert page.done()
    assert page.result().spec.url == URL
    assert start.take() is None  # taken once


async def test_a_slow_start_page_is_waited_for_no_longer_than_the_hold_and_goes_on() -> None:
    tab, start = _start()
    await start.prefetch(0.01)  # returns though the answer has not come
    page = start.take()
    assert page is not None
    assert not page.done()
    tab.answer.set()
    assert (await page).spec.url == URL  # the wait's end did not cancel it


async def test_a_start_page_cancelled_with_the_app_is_asked_again() -> None:
    tab, start = _start()
    prefetch = asyncio.ensure_future(start.prefetch(5.0))
    await tab.opened.wait()  # the start page on its way
    prefetch.cancel()
    with pytest.raises(asyncio.CancelledError):
        await prefetch
    await asyncio.sleep(0)  # (the start page's own task takes its cancellation in)
    assert start.take() is None  # the screen sends it itself


def test_nothing_is_taken_before_it_was_asked_for() -> None:
    assert StartPage(cast("Tab", _Tab()), URL).take() is None
