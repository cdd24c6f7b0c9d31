"""BodyView: large bodies open at once, render lazily, and highlight off the UI thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import orjson
import pytest
from pygments.lexer import Lexer
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from explorer.core.bodies.display import format_text
from explorer.ui.widgets.body_view import INLINE_FORMAT_LIMIT, BodyView


class ReadyBodyView(BodyView):
    """A body view that notes its :class:`BodyView.Ready` messages (they stay with it)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ready: list[int] = []

    def on_body_view_ready(self, message: BodyView.Ready) -> None:
        self.ready.append(message.lines)


class BodyApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        #: Ready messages that came up to the app (none should: nothing above listens).
        self.bubbled: list[int] = []

    def compose(self) -> ComposeResult:
        yield ReadyBodyView(id="body")

    @property
    def ready(self) -> list[int]:
        return self.query_one(ReadyBodyView).ready

    def on_body_view_ready(self, message: BodyView.Ready) -> None:
        self.bubbled.append(message.lines)


async def until(pilot: Pilot[None], condition: Callable[[], object], seconds: float = 30) -> None:
    """Pause until ``condition()`` holds (a bounded wait: the test fails past it)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not condition():
        assert loop.time() < deadline, "the condition never held"
        await pilot.pause(0.01)


def _large_json() -> bytes:
    items = [{"id": n, "name": f"Customer {n}", "tags": ["a", "b"]} for n in range(20_000)]
    body = orjson.dumps({"_embedded": {"customers": items}})
    assert len(body) > INLINE_FORMAT_LIMIT
    return body


async def test_small_json_is_formatted_at_once_and_highlighted() -> None:
    app = BodyApp()
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(BodyView)
        view.show(b'{"a": 1}', "application/json")
        await pilot.pause()
        assert [view.row_text(n) for n in range(view.line_count)] == ["{", '  "a": 1', "}"]
        await until(pilot, lambda: 1 in view._highlighted)  # (when first drawn)
        # Shown at once, it says nothing: nothing listens, and the message woke the
        # view's message loop on every followed page's way to the screen.
        assert app.ready == []
        assert app.bubbled == []


async def test_large_json_shows_its_top_first_then_everything() -> None:
    body = _large_json()
    app = BodyApp()
    async with app.run_test(size=(80, 20)) as pilot:
        view = app.query_one(BodyView)
        view.show(body, "application/json")
        # Before the worker is done, the top of the document is already there.
        assert view.row_text(0).startswith("Formatting")
        assert view.row_text(1) == "{"
        # The formatting worker starts only after the top is painted (a refresh and a
        # short grace): wait for its result, not for the workers running now.
        await until(pilot, lambda: app.ready)
        expected = orjson.dumps(orjson.loads(body), option=orjson.OPT_INDENT_2).decode()
        lines = expected.split("\n")
        assert app.ready == [len(lines)]
        # It stays with the view: nothing on the way up to the app listens.
        assert app.bubbled == []
        assert view.notes == ()
        assert view.row_text(len(lines) - 1) == "}"
        await pilot.press("end")
        await pilot.pause()
        assert view.scroll_offset.y == view.max_scroll_y > 0


async def test_a_newer_body_wins_over_a_slow_one() -> None:
    app = BodyApp()
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(BodyView)
        view.show(_large_json(), "application/json")
        view.show_text("GET / HTTP/1.1\nHost: x", "http")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert view.row_text(0) == "GET / HTTP/1.1"
        assert view.line_count == 2


async def test_binary_and_empty_bodies() -> None:
    app = BodyApp()
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(BodyView)
        view.show(b"\x89PNG\r\n\x1a\n" + bytes(100), "image/png")
        await pilot.pause()
        assert view.row_text(0) == "[108 bytes of image/png: binary, not shown as text]"
        view.clear()
        await pilot.pause()
        assert view.line_count == 1
        assert view.row_text(0) == ""


async def test_a_new_body_is_shown_from_its_top() -> None:
    app = BodyApp()
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(BodyView)
        view.show(orjson.dumps({"items": list(range(200))}), "application/json")
        await pilot.pause()
        view.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        assert view.scroll_y > 100
        view.show(orjson.dumps({"other": list(range(200))}), "application/json")
        await pilot.pause()
        assert view.scroll_y == 0
        view.scroll_end(animate=False, immediate=True)
        view.show_text("plain text\n" * 100)
        await pilot.pause()
        assert view.scroll_y == 0


def _drawn(view: BodyView, y: int) -> tuple[str, list[object]]:
    strip = view.render_line(y)
    return strip.text, [segment.style for segment in strip]


async def test_a_line_kept_as_drawn_is_drawn_anew_when_anything_it_shows_changes() -> None:
    # Lines are kept as drawn (a scroll or a repaint costs nothing): never stale.
    import re

    from textual.theme import BUILTIN_THEMES

    body = orjson.dumps(
        {"items": [{"id": n, "name": f"Customer {n} " + "x" * 40} for n in range(60)]}
    )
    app = BodyApp()
    async with app.run_test(size=(40, 10)) as pilot:
        view = app.query_one(BodyView)
        view.show(body, "application/json")
        await until(pilot, lambda: 3 in view._highlighted)
        await pilot.pause()
        first = view.render_line(3)
        assert view.render_line(3) is first  # kept
        assert view._drawn

        # a resize: the line is drawn at the new width
        await pilot.resize_terminal(30, 10)
        await pilot.pause()
        assert view.render_line(3).cell_length == view.size.width == 30

        # a scroll down: row 3 shows another line; sideways: the line's other cells
        text = view.render_line(3).text
        view.scroll_to(0, 5, animate=False, immediate=True, force=True)
        await pilot.pause()
        width = view.size.width
        assert view.render_line(3).text.rstrip() == view.row_text(8)[:width].rstrip()
        view.scroll_to(4, 0, animate=False, immediate=True, force=True)
        await pilot.pause()
        assert view.render_line(3).text.rstrip() == view.row_text(3)[4 : 4 + width].rstrip()
        view.scroll_to(0, 0, animate=False, immediate=True, force=True)
        await pilot.pause()
        assert view.render_line(3).text == text

        # the cursor on the line, a search's marks, another theme: drawn with them
        plain = _drawn(view, 3)
        view.cursor_line = 3
        assert _drawn(view, 3) != plain
        view.cursor_line = None
        assert _drawn(view, 3) == plain
        unmarked = _drawn(view, 1)  # '  "items": ['
        view.search(re.compile("items"))
        await until(pilot, lambda: bool(view.matches))
        assert _drawn(view, 1) != unmarked
        view.search(None)
        await pilot.pause()
        view.cursor_line = None  # (the search put it on its match)
        assert _drawn(view, 1) == unmarked
        other = next(name for name in BUILTIN_THEMES if name != app.theme)
        app.theme = other
        await pilot.pause()
        assert _drawn(view, 3)[1] != plain[1]

        # a new body: its own lines
        view.show(b'{"other": true}', "application/json")
        await pilot.pause()
        assert view.render_line(1).text.startswith('  "other": true')


async def test_a_new_length_lays_nothing_out_unless_a_scrollbar_comes_or_goes() -> None:
    """A new text's length sizes the scrollbar's thumb and bounds the scroll at once; the
    screen is laid out again only for a scrollbar shown or hidden."""
    app = BodyApp()
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(BodyView)
        view.show(orjson.dumps({"items": list(range(200))}), "application/json")
        await pilot.pause()
        assert view.show_vertical_scrollbar
        view.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        layouts: list[object] = []
        app.screen.screen_layout_refresh_signal.subscribe(view, layouts.append, immediate=True)
        view.show(orjson.dumps({"items": list(range(50))}), "application/json")
        # Before any frame: the thumb is the new text's, and the scroll within it.
        assert view.vertical_scrollbar.window_virtual_size == view.virtual_size.height == 54
        assert view.vertical_scrollbar.window_size == view.scrollable_content_region.height
        assert view.scroll_y == 0
        await pilot.pause()
        assert layouts == []
        view.scroll_end(animate=False, immediate=True)
        await pilot.pause()
        assert view.scroll_y == view.max_scroll_y == 54 - view.scrollable_content_region.height
        assert view.render_lines(view.region.reset_offset)[-1].text.strip() == "}"
        view.show(b'{"a": 1}', "application/json")
        await pilot.pause()
        assert not view.show_vertical_scrollbar
        assert not view.vertical_scrollbar.display
        assert layouts  # (the bar went)
        # Resized, the view's bars are decided for its new size.
        view.show(orjson.dumps({"items": list(range(4))}), "application/json")  # 8 rows
        await pilot.pause()
        assert not view.show_vertical_scrollbar
        await pilot.resize_terminal(60, 6)
        await until(pilot, lambda: view.show_vertical_scrollbar)


async def test_a_line_highlighted_for_an_earlier_body_is_not_lexed_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page's structural lines, and a page followed back, are drawn from the lines kept:
    the next body of the same language is lexed by the same lexer, for which they are."""
    app = BodyApp()
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(BodyView)
        view.show(b'{"a": 1}', "application/json")
        await until(pilot, lambda: 1 in view._highlighted)
        lexer = view._lexer
        assert lexer is not None
        lexed: list[str] = []
        get_tokens = type(lexer).get_tokens

        def counted(self: Lexer, text: str, *args: object) -> object:
            lexed.append(text)
            return get_tokens(self, text, *args)

        monkeypatch.setattr(type(lexer), "get_tokens", counted)
        view.show(b'{"b": 2, "a": 1}', "application/json")
        await until(pilot, lambda: 3 in view._highlighted)
        assert view._lexer is lexer
        assert lexed == ['  "b": 2,']  # "{", '  "a": 1' and "}" were highlighted before


async def test_a_large_body_formatted_under_a_filter_says_ready_once_shown() -> None:
    body = _large_json()
    app = BodyApp()
    async with app.run_test(size=(80, 20)) as pilot:
        view = app.query_one(BodyView)
        view.show(body, "application/json")
        view.show_filtered(format_text("filtered", None))
        await until(pilot, lambda: not view._awaiting_format)  # formatted meanwhile
        await pilot.pause()
        assert app.ready == []  # (the filter's result is what is shown)
        view.unfilter()
        await until(pilot, lambda: app.ready)
        assert app.ready == [view.line_count]
        assert view.row_text(view.line_count - 1) == "}"


async def test_a_scroll_on_its_way_from_the_top_is_stopped_by_a_new_body() -> None:
    # At its top with an animated scroll just started: a new body still starts at its top.
    app = BodyApp()
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(BodyView)
        view.show(orjson.dumps({"items": list(range(200))}), "application/json")
        await pilot.pause()
        assert view.scroll_y == 0
        view.scroll_to(y=100, animate=True, duration=0.5)
        view.show(orjson.dumps({"other": list(range(200))}), "application/json")
        await pilot.pause(0.6)
        assert view.scroll_y == 0
