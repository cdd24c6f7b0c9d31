"""let_go: what a refresh drops is freed a moment later (past the frame), not at once;
outside an event loop, at once; a PlainStylesCache's dropped lines go that way, and the
body view's drawn lines when it shows a new body."""

from __future__ import annotations

import asyncio
import gc
import weakref

from textual.app import App, ComposeResult

from explorer.ui.let_go import LET_GO_AFTER, let_go
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.plain_styles import PlainStylesCache
from tests.explorer.ui.conftest import settle


class Lines:
    """Something dropped, that a weak reference can watch."""


async def test_what_is_let_go_is_freed_after_the_delay_not_at_once() -> None:
    gc.disable()  # (only the last reference going frees it: no collection by chance)
    try:
        dropped = Lines()
        watch = weakref.ref(dropped)
        let_go(dropped)
        del dropped
        await asyncio.sleep(0)
        assert watch() is not None  # kept, past this step and the loop's next
        await asyncio.sleep(LET_GO_AFTER * 2)
        assert watch() is None
    finally:
        gc.enable()


async def test_things_let_go_together_are_freed_together() -> None:
    first, second = Lines(), Lines()
    watches = [weakref.ref(first), weakref.ref(second)]
    let_go(first)
    await asyncio.sleep(LET_GO_AFTER / 2)
    let_go(second)  # (freed with the first: at most the delay after the first)
    del first, second
    await asyncio.sleep(LET_GO_AFTER * 0.5 + LET_GO_AFTER)
    assert [watch() for watch in watches] == [None, None]


def test_outside_a_loop_it_is_freed_at_once() -> None:
    dropped = Lines()
    watch = weakref.ref(dropped)
    let_go(dropped)
    del dropped
    assert watch() is None


async def test_a_plain_styles_cache_cleared_lets_its_lines_go_later() -> None:
    cache = PlainStylesCache()
    line = Lines()
    watch = weakref.ref(line)
    cache._cache[0] = line  # type: ignore[assignment]
    cache._dirty_lines.add(3)
    del line
    cache.clear()
    assert cache._cache == {}  # empty at once: every line is drawn again
    assert not cache._dirty_lines
    assert watch() is not None
    await asyncio.sleep(LET_GO_AFTER * 2)
    assert watch() is None


class OneBody(App[None]):
    def compose(self) -> ComposeResult:
        yield BodyView()


async def test_a_new_body_lets_the_last_one_s_drawn_lines_go_later() -> None:
    app = OneBody()
    async with app.run_test(size=(40, 10)) as pilot:
        view = app.query_one(BodyView)
        view.show(b'{"a": 1}', "application/json")
        await settle(pilot)
        line = Lines()
        watch = weakref.ref(line)
        view._drawn[999, 0] = ((), line)  # type: ignore[assignment]
        del line
        view.show(b'{"b": 2}', "application/json")
        assert (999, 0) not in view._drawn  # drawn anew
        assert watch() is not None
        await pilot.pause(LET_GO_AFTER * 2)
        assert watch() is None
