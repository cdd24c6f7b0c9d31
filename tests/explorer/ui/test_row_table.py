"""RowTable: fixed columns, a cursor, a header that stays, keys and the mouse."""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from textual.app import App, ComposeResult
from textual.strip import Strip

from explorer.ui.widgets.row_table import RowTable

COLUMNS = (("#", 3), ("name", 6))


class Table(App[None]):
    def __init__(self, rows: int) -> None:
        super().__init__()
        self.rows = [(str(n), f"row-{n}-long-name") for n in range(rows)]
        self.events: list[tuple[str, int]] = []

    def compose(self) -> ComposeResult:
        yield RowTable(COLUMNS)

    def on_mount(self) -> None:
        self.query_one(RowTable).set_rows(self.rows)

    def on_row_table_highlighted(self, event: RowTable.Highlighted) -> None:
        self.events.append(("highlighted", event.row))

    def on_row_table_selected(self, event: RowTable.Selected) -> None:
        self.events.append(("selected", event.row))


def lines(app: Table) -> list[str]:
    table = app.query_one(RowTable)
    return [table.render_line(y).text for y in range(table.size.height)]


async def test_cells_are_cut_to_their_columns_under_a_header() -> None:
    app = Table(3)
    async with app.run_test(size=(20, 6)) as pilot:
        await pilot.pause()
        shown = lines(app)
        assert shown[0].rstrip() == " #    name"
        assert shown[1].rstrip() == " 0    row-0-"
        assert app.events == [("highlighted", 0)]


async def test_keys_move_the_cursor_and_the_header_stays() -> None:
    app = Table(50)
    async with app.run_test(size=(20, 6)) as pilot:
        table = app.query_one(RowTable)
        table.focus()
        await pilot.press("down", "down")
        assert table.cursor_row == 2
        await pilot.press("end")
        assert table.cursor_row == 49
        shown = lines(app)
        assert shown[0].startswith(" #")  # still the header
        assert shown[-1].startswith(" 49")  # the cursor's row in view
        await pilot.press("pageup")
        assert table.cursor_row == 49 - 5
        await pilot.press("home", "up")
        assert table.cursor_row == 0
        assert lines(app)[1].startswith(" 0 ")
        await pilot.press("enter")
        await pilot.pause()
        assert app.events[-1] == ("selected", 0)
        assert ("highlighted", 49) in app.events


async def test_a_click_selects_the_row_under_the_mouse() -> None:
    app = Table(10)
    async with app.run_test(size=(20, 6)) as pilot:
        await pilot.click(RowTable, offset=(2, 3))  # the header, then rows 0, 1, 2
        await pilot.pause()
        assert app.query_one(RowTable).cursor_row == 2
        assert app.events[-1] == ("selected", 2)
        await pilot.click(RowTable, offset=(2, 0))  # the header selects nothing
        await pilot.pause()
        assert app.events[-1] == ("selected", 2)


async def test_scrolling_sideways_shows_the_cut_columns() -> None:
    app = Table(3)
    async with app.run_test(size=(8, 6)) as pilot:
        table = app.query_one(RowTable)
        table.focus()
        await pilot.press("right", "right", "right", "right", "right")
        await pilot.pause()
        assert lines(app)[1].startswith(" row-0-")  # five cells in: past the "#" column


async def test_no_rows_is_a_header_and_nothing_to_select() -> None:
    app = Table(0)
    async with app.run_test(size=(20, 6)) as pilot:
        table = app.query_one(RowTable)
        table.focus()
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.events == []
        assert table.row_count == 0
        assert lines(app)[1].strip() == ""


def test_cells_are_fitted_to_their_width_in_cells() -> None:
    from explorer.ui.widgets.row_table import _fit

    assert _fit("abc", 5) == "abc  "
    assert _fit("abcdef", 3) == "abc"
    assert _fit("日本語", 4) == "日本"  # two cells a character
    assert _fit("a\nb\tc\x1b", 7) == "a␊b␉c␛ "  # control characters shown, never obeyed


def test_short_href_is_the_path_a_person_recognises() -> None:
    from explorer.ui.widgets.links_panel import short_href

    assert short_href("http://127.0.0.1:8000/orders?x=1") == "/orders?x=1"
    assert short_href("http://127.0.0.1:8000") == "/"
    # a link to another server keeps its name: the path alone would pass for the page's
    page = "http://127.0.0.1:8791"
    assert short_href("http://127.0.0.1:8791/api/authors/1/", page) == "/api/authors/1/"
    assert short_href("http://127.0.0.1:8791", page) == "/"
    assert short_href("http://127.0.0.1:8799/leguin", page) == "127.0.0.1:8799/leguin"
    assert short_href("https://127.0.0.1:8791/x", page) == "127.0.0.1:8791/x"
    assert short_href("http://127.0.0.1:87911/x", page) == "127.0.0.1:87911/x"


def _cells(strip: Strip) -> list[tuple[str, object]]:
    return [(char, segment.style) for segment in strip for char in segment.text]


async def test_a_line_cut_to_the_view_is_the_whole_line_cropped_cell_for_cell() -> None:
    # A line of one cell a character is cut as a string (one strip made): the same cells
    # as the whole line made a strip and cropped, wherever the view is scrolled to; then
    # padded to the table's whole width (what lies under a scrollbar).
    app = Table(0)
    async with app.run_test(size=(12, 8)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([("1", "ascii-name"), ("2", "naïve wide 表"), ("3", "")])
        await pilot.pause()
        for scroll_x in range(table._width + 2):
            table._view = (scroll_x, 0, 8)
            base = table.base_style
            for y in range(5):
                row = y - 1
                if y == 0:
                    text, style = (
                        table._header,
                        base + table.get_component_rich_style("row-table--header"),
                    )
                elif row < table.row_count:
                    text, style = table._text(row), base + table._row_style(row)
                else:
                    continue
                padding = max(scroll_x + 8 - cell_len(text), 0)
                whole = Strip([Segment(text, style), Segment(" " * padding, base)])
                drawn = table.render_line(y)
                full = table.size.width
                cropped = whole.crop(scroll_x, scroll_x + 8).extend_cell_length(full, base)
                assert _cells(drawn) == _cells(cropped)
                if not text.isascii():  # (the segments too: made as the crop makes them)
                    made = [Segment(text, style)] + ([Segment(" " * padding, base)] * bool(padding))
                    crop = Strip(made).crop(scroll_x, scroll_x + 8)
                    assert list(drawn) == list(crop.extend_cell_length(full, base))
                assert drawn.cell_length == full
        table._view = None


async def test_rows_cut_in_place_keep_the_scroll_within_them() -> None:
    """A table scrolled down whose rows shrink in place (a stream's) to fewer than fit:
    its bar goes and its scroll is back within the rows, before any frame."""

    class Table(App[None]):
        def compose(self) -> ComposeResult:
            yield RowTable((("n", 4),))

    app = Table()
    async with app.run_test(size=(20, 10)) as pilot:
        table = app.query_one(RowTable)
        rows = [(str(n),) for n in range(50)]
        table.set_rows(rows)
        await pilot.pause()
        table.scroll_to(y=30, animate=False, immediate=True)
        await pilot.pause()
        assert table.scroll_y == 30
        del rows[3:]
        table.rows_changed()
        assert not table.show_vertical_scrollbar
        assert table.scroll_y == 0
        rows.extend((str(n),) for n in range(3, 60))
        table.rows_changed()
        assert table.show_vertical_scrollbar
        await pilot.pause()
        assert table.vertical_scrollbar.window_virtual_size == 61
        assert table.vertical_scrollbar.display


def foreground(table: RowTable, y: int) -> object:
    """The colour row line ``y`` (0: the header) is drawn in."""
    segment = next(iter(table.render_line(y)))
    assert segment.style is not None
    return segment.style.color


async def test_rows_said_muted_are_drawn_muted_except_under_the_cursor() -> None:
    app = Table(0)
    async with app.run_test(size=(20, 6)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([("0", "a"), ("1", "b"), ("2", "c"), ("3", "d")], lambda row: row >= 2)
        await pilot.pause()
        muted = table.get_component_rich_style("row-table--muted").color
        assert muted is not None
        assert foreground(table, 3) == muted  # row 2
        assert foreground(table, 4) == muted  # row 3 (an even row's background too)
        assert foreground(table, 2) != muted  # row 1: not muted
        table.move_cursor(2)
        await pilot.pause()
        assert foreground(table, 3) != muted  # the cursor's colours, readable
        table.set_rows([("0", "a"), ("1", "b"), ("2", "c")])
        await pilot.pause()
        assert foreground(table, 3) != muted  # new rows: none muted


async def test_new_rows_announce_the_first_unless_told_not_to() -> None:
    """set_rows posts Highlighted for the first row (the headers view describes it then);
    the links panel, which has described it already, asks for none."""
    heard: list[int] = []

    class Listening(App[None]):
        def compose(self) -> ComposeResult:
            yield RowTable((("n", 4),))

        def on_row_table_highlighted(self, event: RowTable.Highlighted) -> None:
            heard.append(event.row)

    app = Listening()
    async with app.run_test(size=(20, 8)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([("1",), ("2",)])
        await pilot.pause()
        assert heard == [0]
        table.set_rows([("3",)], announce=False)
        await pilot.pause()
        assert heard == [0]
        assert table.cursor_row == 0
