"""The garbage collector rests from the key that follows a link until its page is
painted (the exchange and the frame make garbage-free objects by the thousand), and
comes back on after it, or after a second whatever happens."""

from __future__ import annotations

import asyncio
import gc

import pytest
from textual.geometry import Region
from textual.strip import Strip

from explorer.core import gc_pause
from explorer.ui import waits
from explorer.ui.waits import CollectionHold
from explorer.ui.widgets.body_view import BodyView
from tests.explorer.ui.conftest import SIZE, AppFactory, settle, until
from tests.explorer.ui.test_browse import follow
from tests.explorer.ui.test_one_frame import painted


async def test_the_collector_rests_from_the_key_to_the_paint(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await until(pilot, gc.isenabled, "collecting after start-up")
        view = app.browser.query_one(BodyView)
        draw = view.render_lines
        collecting: list[bool] = []

        def drawn(crop: Region) -> list[Strip]:
            collecting.append(gc.isenabled())
            return draw(crop)

        view.render_lines = drawn  # type: ignore[method-assign]
        await follow(pilot, "rw:customers")
        await until(pilot, lambda: painted(app, "/customers"), "customers painted")
        assert collecting
        assert collecting[0] is False  # the page's frame ran without it
        assert gc.isenabled()  # back on once painted
        assert gc_pause.pausing() == 0
    assert gc_pause.pausing() == 0


async def test_a_hold_ends_by_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer that never comes, a page shown in a tab not on screen: nothing paints
    it, and the hold ends after HOLD_LIMIT."""
    monkeypatch.setattr(waits, "HOLD_LIMIT", 0.05)
    released = asyncio.Event()

    class Hold(CollectionHold):
        def release(self) -> None:
            super().release()
            released.set()

    hold = Hold()
    hold.hold()
    hold.hold()  # (extended, still one pause)
    assert hold.holding
    assert gc_pause.pausing() == 1
    assert not gc.isenabled()
    await asyncio.wait_for(released.wait(), 5)
    assert not hold.holding
    assert gc_pause.pausing() == 0
    assert gc.isenabled()
    hold.release()  # (nothing to end)
    assert gc_pause.pausing() == 0


async def test_a_closed_tab_releases_its_hold(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser._collection.hold()
        assert gc_pause.pausing() == 1
    assert gc_pause.pausing() == 0
    assert gc.isenabled()
