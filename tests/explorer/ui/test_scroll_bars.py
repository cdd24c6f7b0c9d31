"""QuickScrollBar: the scroll views' bars look as Textual draws them, cell for cell (glyphs,
colours, click targets), and a bar (or a corner) that would draw the same is not drawn again."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.strip import Strip

from explorer.ui.widgets.row_table import RowTable
from explorer.ui.widgets.scroll_bars import QuickScrollBar, QuickScrollBarCorner, _filtered
from tests.explorer.ui.conftest import settle


class Table(App[None]):
    def compose(self) -> ComposeResult:
        yield RowTable((("n", 4), ("name", 30)))


def cells(strips: list[Strip]) -> list[list[tuple[str, object, object, bool, object]]]:
    """Each cell of ``strips``: its character, colours, reverse and click target."""
    return [
        [
            (char, style.color, style.bgcolor, bool(style.reverse), style.meta.get("@mouse.down"))
            for segment in strip
            for char in segment.text
            for style in [segment.style]
            if style is not None
        ]
        for strip in strips
    ]


async def test_the_bars_look_as_textual_draws_them() -> None:
    app = Table()
    async with app.run_test(size=(24, 12)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([(str(n), f"name {n}") for n in range(40)])
        for row in (0, 17, 39):  # the thumb at the top, in the middle, at the bottom
            table.move_cursor(row)
            await settle(pilot)
            for bar in (table.vertical_scrollbar, table.horizontal_scrollbar):
                assert isinstance(bar, QuickScrollBar)
                assert bar.display
                crop = Region(0, 0, *bar.size)
                assert cells(bar.render_lines(crop)) == cells(ScrollBar.render_lines(bar, crop))


async def test_a_bar_unchanged_is_not_drawn_again() -> None:
    app = Table()
    async with app.run_test(size=(24, 12)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([(str(n), f"name {n}") for n in range(40)])
        await settle(pilot)
        bar = table.vertical_scrollbar
        drawn: list[Region] = []
        draw = bar.render_lines

        def counted(crop: Region) -> list[Strip]:
            drawn.append(crop)
            return draw(crop)

        bar.render_lines = counted  # type: ignore[method-assign]
        styled: list[object] = []
        bar_style = bar._bar_style

        def noted() -> Style:
            styled.append(None)
            return bar_style()

        bar._bar_style = noted  # type: ignore[method-assign]
        bar.refresh()  # (what a scroll view does at each layout)
        await settle(pilot)
        await pilot.pause(0.1)  # (frames are at most 60 a second)
        assert drawn == []  # it would have drawn the same
        table.move_cursor(30)  # the thumb moves: drawn again
        bar.refresh()  # (the repaint a scroll view asks for as it moves its bar)
        await settle(pilot)
        await pilot.pause(0.1)
        assert drawn
        # Its colours are worked out once, not at each drawing: only when a style above
        # it changes (here the table's bar colour), and then it is drawn in them.
        assert styled == []
        drawn.clear()
        table.styles.scrollbar_color = "red"
        await settle(pilot)
        await pilot.pause(0.1)
        assert styled
        assert drawn
        crop = Region(0, 0, *bar.size)
        assert cells(bar.render_lines(crop)) == cells(ScrollBar.render_lines(bar, crop))


async def test_the_corner_is_drawn_again_only_when_it_would_change() -> None:
    app = Table()
    async with app.run_test(size=(24, 12)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([(str(n), f"name {n} " * 4) for n in range(40)])  # (both bars)
        await settle(pilot)
        corner = table.scrollbar_corner
        assert isinstance(corner, QuickScrollBarCorner)
        crop = Region(0, 0, *corner.size)
        drawn = corner.render_lines(crop)
        assert [list(strip) for strip in drawn] == [
            list(strip) for strip in ScrollBarCorner.render_lines(corner, crop)
        ]
        assert corner.render_lines(crop) is drawn  # (a page's repaint of its view)
        table.styles.scrollbar_corner_color = "red"
        await settle(pilot)
        again = corner.render_lines(crop)
        assert again is not drawn  # a style above it changed: drawn again
        assert [list(strip) for strip in again] == [
            list(strip) for strip in ScrollBarCorner.render_lines(corner, crop)
        ]


async def test_a_bar_is_filtered_only_when_the_filter_would_change_it() -> None:
    app = Table()
    async with app.run_test(size=(24, 12)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([(str(n), f"name {n}") for n in range(40)])
        await settle(pilot)
        bar = table.vertical_scrollbar
        assert isinstance(bar, QuickScrollBar)
        filters = tuple(bar.get_line_filters())
        background = bar.background_colors[1]
        crop = Region(0, 0, *bar.size)
        # In the theme's true colours, nothing dim: as drawn, not copied by the filter.
        drawn = bar._strips(bar._looks()[0])
        filtered = _filtered(drawn, filters, background)
        assert all(a is b for a, b in zip(filtered, drawn, strict=True))
        assert cells(bar.render_lines(crop)) == cells(ScrollBar.render_lines(bar, crop))
        table.styles.scrollbar_color = "ansi_red"  # a terminal's colour: the filter's work
        await settle(pilot)
        assert cells(bar.render_lines(crop)) == cells(ScrollBar.render_lines(bar, crop))


async def test_rows_as_many_as_before_leave_the_bars_alone() -> None:
    # A followed page with as many links as the last: its view's bars keep their sizes,
    # and are neither asked to draw again nor given the values they hold.
    app = Table()
    async with app.run_test(size=(24, 12)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([(str(n), f"name {n}") for n in range(40)])
        await settle(pilot)
        bar = table.vertical_scrollbar
        asked: list[str] = []
        refresh = bar.refresh

        def counted(*regions: Region, **kwargs: bool) -> ScrollBar:
            asked.append("refresh")
            return refresh(*regions, **kwargs)

        bar.refresh = counted  # type: ignore[method-assign]
        table.set_rows([(str(n), f"other {n}") for n in range(40)])
        assert asked == []
        assert (bar.window_virtual_size, bar.window_size) == (41, 11)
        table.set_rows([(str(n), f"more {n}") for n in range(60)])  # a longer page
        assert asked  # its thumb is drawn again, smaller
        assert (bar.window_virtual_size, bar.window_size) == (61, 11)


async def test_rows_given_to_a_table_at_its_top_leave_its_scroll_alone() -> None:
    app = Table()
    async with app.run_test(size=(24, 12)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([(str(n), f"name {n}") for n in range(40)])
        await settle(pilot)
        scrolls: list[object] = []
        scroll_to = table._scroll_to

        def counted(*args: Any, **kwargs: Any) -> bool:
            scrolls.append(args)
            return scroll_to(*args, **kwargs)

        table._scroll_to = counted  # type: ignore[method-assign]
        table.set_rows([(str(n), f"other {n}") for n in range(40)])  # at its top already
        assert scrolls == []
        table.move_cursor(30)  # scrolled down: the next rows are shown from the top
        await settle(pilot)
        assert table.scroll_y > 0
        table.set_rows([(str(n), f"more {n}") for n in range(40)])
        assert scrolls
        assert (table.scroll_x, table.scroll_y, table.scroll_target_y) == (0, 0, 0)
