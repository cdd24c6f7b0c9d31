"""QuickCompositor: the browser's frames are cut as Textual cuts them, cell for cell,
whole or in part, while what lies hidden behind other widgets is neither drawn nor cut;
an update is the terminal text Textual makes of it."""

from __future__ import annotations

import pytest
from rich.control import Control
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.quick_compositor import (
    QuickChopsUpdate,
    QuickCompositor,
    _divide_once,
)
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.url_input import UrlBar
from tests.explorer.ui.conftest import SIZE, AppFactory, settle

Chops = list[dict[int, tuple[str, tuple[object, ...]] | None]]


def painted(chops: object) -> Chops:
    """Each cut of each line: its text and its segments' styles (None: not in the update)."""
    return [
        {
            cut: None if strip is None else (strip.text, tuple(seg.style for seg in strip))
            for cut, strip in line.items()
        }
        for line in chops  # type: ignore[attr-defined]
    ]


def drawing(drawn: list[Widget]) -> tuple[object, object]:
    """Note each widget drawn in ``drawn`` (the patch, and what it replaced)."""
    draw = Widget.render_lines

    def noted(widget: Widget, crop: Region) -> list[Strip]:
        drawn.append(widget)
        return draw(widget, crop)

    return noted, draw


async def test_the_frames_are_cut_as_textual_cuts_them(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1")  # a page followed: a new page's frame
        await settle(pilot)
        compositor = app.screen._compositor
        assert isinstance(compositor, QuickCompositor)
        width, height = SIZE
        everything = Region(0, 0, width, height)
        some = {2, 3, 4, height // 2}  # (a partial update's lines)
        updates = ((everything, lambda y: True), (Region(0, 2, width, 20), some.__contains__))
        for crop, lines in updates:
            ours = painted(compositor._render_chops(crop, lines))
            textuals = painted(Compositor._render_chops(compositor, crop, lines))
            assert ours == textuals
            assert any(cut is not None for line in ours for cut in line.values())


async def test_what_is_hidden_is_not_drawn(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        drawn: list[Widget] = []
        noted, draw = drawing(drawn)
        Widget.render_lines = noted  # type: ignore[method-assign]
        try:
            compositor = app.screen._compositor
            compositor._render_chops(Region(0, 0, *SIZE), lambda y: True)
        finally:
            Widget.render_lines = draw  # type: ignore[method-assign]
        tabs = app.screen.query_one(ResponseTabs)
        assert app.screen.query_one(BodyView) in drawn  # what shows is drawn
        assert tabs not in drawn  # the tabs' box lies under its tab bar and its views
        assert app.screen not in drawn  # (and the screen under everything)


async def test_a_partial_update_is_the_terminal_text_textual_makes(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        compositor = app.screen._compositor
        width, _height = SIZE
        # Parts of lines, whole lines, a cut's middle, lines updated in two places: what a
        # page's frame updates.
        dirty = {
            Region(0, 1, width, 3),
            Region(5, 9, 30, 6),
            Region(width - 7, 12, 5, 9),
            Region(3, 0, 9, 1),
            Region(60, 20, 10, 4),
        }
        compositor._dirty_regions.update(dirty)
        ours = compositor.render_update()
        assert isinstance(ours, QuickChopsUpdate)
        compositor._dirty_regions.update(dirty)
        textuals = Compositor.render_partial_update(compositor)
        assert textuals is not None
        text = ours.render_segments(app.console)
        assert text == ChopsUpdate.render_segments(textuals, app.console)
        assert text == ChopsUpdate.render_segments(ours, app.console)
        assert text.count("\x1b[") > 10


async def test_a_partial_update_draws_only_what_it_writes(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        compositor = app.screen._compositor
        url_bar = app.screen.query_one(UrlBar)
        x, y, width, _height = compositor.visible_widgets[url_bar][0]
        drawn: list[Widget] = []
        noted, draw = drawing(drawn)
        Widget.render_lines = noted  # type: ignore[method-assign]
        try:
            # The URL bar's part of the top row: the method beside it and the badges after
            # it are on that row too, and are not written.
            compositor._dirty_regions.add(Region(x + 1, y, width - 2, 1))
            compositor.render_update()
        finally:
            Widget.render_lines = draw  # type: ignore[method-assign]
        assert drawn == [url_bar]


async def test_a_cut_an_update_only_touches_is_not_drawn(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        compositor = app.screen._compositor
        body = app.screen.query_one(BodyView)
        panel = app.screen.query_one(LinksPanel)
        x, y, _width, height = compositor.visible_widgets[body][0]
        edge = compositor.visible_widgets[panel][0].x
        # The body view's lines, to the panel's edge: Textual moves the cursor to the
        # panel's first cut of each line and writes nothing of it.
        dirty = Region(x, y, edge - x, height)
        drawn: list[Widget] = []
        noted, draw = drawing(drawn)
        Widget.render_lines = noted  # type: ignore[method-assign]
        try:
            compositor._dirty_regions.add(dirty)
            ours = compositor.render_update()
        finally:
            Widget.render_lines = draw  # type: ignore[method-assign]
        assert isinstance(ours, QuickChopsUpdate)
        compositor._dirty_regions.add(dirty)
        textuals = Compositor.render_partial_update(compositor)
        assert textuals is not None
        text = ours.render_segments(app.console)
        assert text == ChopsUpdate.render_segments(textuals, app.console)
        assert text == ChopsUpdate.render_segments(ours, app.console)
        assert Control.move_to(edge, y).segment.text in text
        assert body in drawn
        assert panel not in drawn


async def test_a_widget_is_drawn_only_on_the_lines_updated(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        compositor = app.screen._compositor
        panel = app.screen.query_one(LinksPanel)
        x, y, width, _height = compositor.visible_widgets[panel][0]
        crops: list[Region] = []
        draw = LinksPanel.render_lines

        def noted(widget: LinksPanel, crop: Region) -> list[Strip]:
            crops.append(crop)
            return draw(widget, crop)

        # The panel's border above its views (what a new page's title repaints).
        dirty = {Region(x, y, width, 1)}
        LinksPanel.render_lines = noted  # type: ignore[method-assign]
        try:
            compositor._dirty_regions.update(dirty)
            ours = compositor.render_update()
        finally:
            LinksPanel.render_lines = draw  # type: ignore[method-assign]
        assert crops == [Region(0, 0, width, 1)]
        assert isinstance(ours, QuickChopsUpdate)
        compositor._dirty_regions.update(dirty)
        textuals = Compositor.render_partial_update(compositor)
        assert textuals is not None
        assert ours.render_segments(app.console) == ChopsUpdate.render_segments(
            textuals, app.console
        )


def test_a_strip_is_divided_once_as_textual_divides_it() -> None:
    red, blue = Style(color="red"), Style(bgcolor="blue")
    lines = [
        [Segment("abc", red), Segment("", blue), Segment("de", blue), Segment("      ", red)],
        [Segment("界界", red), Segment("    ", blue)],  # (wide characters before the pad)
        [Segment("x" * 8, red)],  # no padding: Textual's own way
        [Segment("ab", red), Segment("  x ", blue)],  # (not blank)
        [Segment(" " * 8, blue)],  # padding alone
        [Segment("ab", red), Segment("\x1b[0m", None, [(1,)]), Segment("      ", blue)],
        [Segment("ab", red), Segment("", blue), Segment("cd", blue), Segment("  ", red)],
        [Segment("ab", red), Segment("\u200b", red), Segment("  ", blue)],  # (no width)
        [],
    ]
    for segments in lines:
        length = sum(segment.cell_length for segment in segments)
        for end in range(length + 2):
            ours = _divide_once(Strip(segments, length), end)
            textuals = Strip(segments, length).divide([end])
            assert [list(piece) for piece in ours] == [list(piece) for piece in textuals]
            assert [piece.cell_length for piece in ours] == [p.cell_length for p in textuals]
            strip = Strip(segments, length)  # (kept, divided again: the same)
            assert _divide_once(strip, end) == _divide_once(strip, end) == strip.divide([end])


def test_a_line_is_cut_in_its_padding_without_textuals_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def walked(strip: Strip, cuts: object) -> list[Strip]:
        raise AssertionError("Strip.divide walked the segments")

    red, blue = Style(color="red"), Style(bgcolor="blue")
    line = [Segment("name", red), Segment("", blue), Segment("42", blue), Segment("    ", red)]
    monkeypatch.setattr(Strip, "divide", walked)
    for end in (6, 7, 9):  # (where the padding begins, in it, before its last cell)
        (piece,) = _divide_once(Strip(line, 10), end)
        assert piece.cell_length == end
        assert piece.text == "name42"[:end] + " " * (end - 6)
