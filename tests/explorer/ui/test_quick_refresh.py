"""QuickRefresh: a widget's refresh reaches its screen from one event loop callback, not by
waking the widget's own message loop, and is drawn as Textual's own way draws it: asked
for several times in a step, once; with messages waiting, after them; ``call_next`` and a
refresh asked from a thread still work."""

from __future__ import annotations

import asyncio
from typing import Any

from textual import messages
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from explorer.ui.widgets.plain_styles import PlainStatic
from explorer.ui.widgets.quick_refresh import QuickRefresh
from tests.explorer.ui.conftest import settle


class Quick(QuickRefresh, Static):
    """A plain Static that refreshes the quick way."""


class Two(App[None]):
    def compose(self) -> ComposeResult:
        yield Quick("before", id="quick")
        yield Static("slow", id="slow")


class Frames:
    """The text of every frame the app hands to its terminal."""

    def __init__(self, app: App[Any]) -> None:
        self.texts: list[str] = []
        display = app._display

        def keep(screen: Screen[Any], renderable: Any) -> None:
            display(screen, renderable)
            if renderable is not None and hasattr(renderable, "render_segments"):
                self.texts.append(renderable.render_segments(app.console))

        app._display = keep  # type: ignore[method-assign]


async def test_a_refresh_wakes_no_message_loop_of_the_widget_and_is_drawn() -> None:
    app = Two()
    async with app.run_test(size=(30, 5)) as pilot:
        await settle(pilot)
        frames = Frames(app)
        quick = app.query_one(Quick)
        quick.update("after")
        # Textual's way posts the widget a Prompt; this one puts nothing in its queue ...
        assert quick._message_queue.empty()
        await asyncio.sleep(0)  # ... and tells the screen in the loop's next callback,
        screen = app.screen  # its repaint put with the screen's dirty widgets, no Update
        assert quick in screen._dirty_widgets
        assert not any(isinstance(m, messages.Update) for m in screen._message_queue.values)
        await settle(pilot)
        assert any("after" in text for text in frames.texts)
        assert not screen._dirty_widgets


async def test_textual_widgets_beside_it_refresh_as_ever() -> None:
    app = Two()
    async with app.run_test(size=(30, 5)) as pilot:
        await settle(pilot)
        frames = Frames(app)
        slow = app.query_one("#slow", Static)
        slow.update("changed")
        assert not slow._message_queue.empty()  # (Textual's own Prompt)
        await settle(pilot)
        assert any("changed" in text for text in frames.texts)


async def test_refreshes_asked_in_one_step_reach_the_screen_once() -> None:
    app = Two()
    async with app.run_test(size=(30, 5)) as pilot:
        await settle(pilot)
        frames = Frames(app)
        quick = app.query_one(Quick)
        told: list[None] = []
        refresh_now = quick._refresh_now

        def counted() -> None:
            told.append(None)
            refresh_now()

        quick._refresh_now = counted  # type: ignore[method-assign]
        quick.refresh()
        quick.update("again")
        quick.refresh()
        await settle(pilot)
        assert len(told) == 1
        assert any("again" in text for text in frames.texts)


async def test_a_widget_hidden_is_not_drawn_and_layouts_go_textual_s_way() -> None:
    app = Two()
    async with app.run_test(size=(30, 5)) as pilot:
        await settle(pilot)
        quick = app.query_one(Quick)
        screen = app.screen
        quick.display = False  # (a layout: the screen's own message)
        quick.update("hidden")
        await asyncio.sleep(0)
        assert quick not in screen._dirty_widgets
        await settle(pilot)
        assert quick.region.height == 0
        quick.display = True
        await settle(pilot)
        assert quick.region.height == 1


async def test_a_widget_with_messages_waiting_goes_idle_after_them() -> None:
    app = Two()
    async with app.run_test(size=(30, 5)) as pilot:
        await settle(pilot)
        frames = Frames(app)
        quick = app.query_one(Quick)
        order: list[str] = []
        quick.call_later(order.append, "message")
        quick.update("after")  # (queued behind the message: its idle comes after it)
        check = quick._check_refresh

        def noted() -> None:
            order.append("idle")
            check()

        quick._check_refresh = noted  # type: ignore[method-assign]
        await settle(pilot)
        assert order[:2] == ["message", "idle"]
        assert any("after" in text for text in frames.texts)


async def test_call_next_still_runs() -> None:
    app = Two()
    async with app.run_test(size=(30, 5)) as pilot:
        await settle(pilot)
        quick = app.query_one(Quick)
        called: list[str] = []
        quick.call_next(called.append, "next")
        await settle(pilot)
        assert called == ["next"]


async def test_a_refresh_asked_from_a_thread_is_drawn() -> None:
    app = Two()
    async with app.run_test(size=(30, 5)) as pilot:
        await settle(pilot)
        frames = Frames(app)
        quick = app.query_one(Quick)
        await asyncio.to_thread(quick.update, "threaded")
        await settle(pilot)
        assert any("threaded" in text for text in frames.texts)


def test_the_page_s_widgets_refresh_the_quick_way() -> None:
    from explorer.ui.widgets.line_view import LineView
    from explorer.ui.widgets.links_panel import LinksPanel
    from explorer.ui.widgets.scroll_bars import QuickScrollBar
    from explorer.ui.widgets.url_input import UrlBar

    for kind in (LineView, PlainStatic, LinksPanel, UrlBar, QuickScrollBar):
        assert issubclass(kind, QuickRefresh), kind
