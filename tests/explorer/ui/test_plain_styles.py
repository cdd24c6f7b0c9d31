"""PlainStylesCache: a view's lines, styled the short way, are what Textual's own styling
draws, segment for segment (text, style, cell length), whatever the view shows; a box
that is not plain is styled by Textual itself."""

from __future__ import annotations

import re

import pytest
import textual.content
from rich.text import Text
from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.filter import ANSIToTruecolor
from textual.geometry import Region, Spacing
from textual.strip import Strip
from textual.style import Style as TextualStyle
from textual.widgets import Static

from explorer.ui.widgets import plain_styles
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.breadcrumb import Breadcrumb
from explorer.ui.widgets.line_view import LineView
from explorer.ui.widgets.plain_styles import PlainStatic, PlainStylesCache, plain_box
from explorer.ui.widgets.row_table import RowTable
from explorer.ui.widgets.status_line import StatusLine
from tests.explorer.ui.conftest import settle, until

_BODY = (
    b'{"customers": ['
    + b",".join(
        b'{"id": %d, "name": "Customer %d", "note": "%s"}' % (n, n, b"x" * (n * 7 % 90))
        for n in range(40)
    )
    + b"]}"
)


class Views(App[None]):
    CSS = """
    #boxed { border: round red; padding: 0 1; height: 10; }
    BodyView, RowTable { height: 1fr; }
    """

    def compose(self) -> ComposeResult:
        yield BodyView(id="body")
        yield RowTable((("n", 4), ("name", 30)), id="table")
        yield RowTable((("n", 4), ("name", 30)), id="boxed")


def segments(strips: list[Strip]) -> list[tuple[list[tuple[str, object]], int]]:
    return [([(s.text, s.style) for s in strip], strip.cell_length) for strip in strips]


def both_ways(view: LineView, crop: Region | None = None) -> tuple[object, object]:
    """``view``'s lines styled by Textual's cache and by ours, each fresh (no line kept)."""
    crop = crop or view.size.region
    view._styles_cache = StylesCache()
    theirs = view.render_lines(crop)
    view._styles_cache = PlainStylesCache()
    ours = view.render_lines(crop)
    return segments(theirs), segments(ours)


async def test_a_view_s_lines_are_drawn_as_textual_draws_them() -> None:
    app = Views()
    async with app.run_test(size=(60, 40)) as pilot:
        body = app.query_one(BodyView)
        table = app.query_one("#table", RowTable)
        boxed = app.query_one("#boxed", RowTable)
        body.show(_BODY, "application/json")
        for rows in (table, boxed):
            rows.set_rows([(str(n), f"name {n} " * (n % 6)) for n in range(30)])
        await settle(pilot)
        await until(pilot, lambda: bool(body._highlighted), "the rows highlighted")
        views: list[LineView] = [body, table, boxed]
        for view in views:  # as first drawn, a part of it, focused, scrolled
            theirs, ours = both_ways(view)
            assert theirs == ours
            assert theirs
            theirs, ours = both_ways(view, Region(2, 1, 7, 3))
            assert theirs == ours
            assert theirs
            view.focus()
            await settle(pilot)
            theirs, ours = both_ways(view)
            assert theirs == ours
            view.scroll_to(5, 12, animate=False, immediate=True, force=True)
            await settle(pilot)
            theirs, ours = both_ways(view)
            assert theirs == ours
        body.search(re.compile("Customer 1"))
        body.cursor_line = 3
        await settle(pilot)
        theirs, ours = both_ways(body)
        assert theirs == ours


async def test_only_a_plain_box_is_styled_the_short_way() -> None:
    app = Views()
    async with app.run_test(size=(60, 40)):
        body = app.query_one(BodyView)
        boxed = app.query_one("#boxed", RowTable)
        assert plain_box(body.styles, body.styles.padding, 1.0)
        assert not plain_box(boxed.styles, boxed.styles.padding, 1.0)
        # Padding left and right keeps a box plain (the line padded); above or below not.
        assert plain_box(body.styles, Spacing(0, 1, 0, 2), 1.0)
        assert not plain_box(body.styles, Spacing(1, 0, 0, 0), 1.0)
        assert not plain_box(body.styles, Spacing(0, 0, 1, 0), 1.0)
        assert not plain_box(body.styles, body.styles.padding, 0.5)


class Lines(App[None]):
    """The padded one-line and few-line texts a followed page redraws."""

    CSS = """
    #wide { padding: 0 3 0 2; background: $primary 30%; }
    #tall { padding: 1 1; }
    """

    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")
        yield Breadcrumb(id="breadcrumb")
        yield PlainStatic("", id="wide")
        yield PlainStatic("above and below", id="tall")


def both_ways_static(widget: Static, crop: Region | None = None) -> tuple[object, object]:
    """``widget``'s lines styled by Textual's cache and by ours, each fresh."""
    crop = crop or widget.size.region
    widget._styles_cache = StylesCache()
    theirs = widget.render_lines(crop)
    widget._styles_cache = PlainStylesCache()
    ours = widget.render_lines(crop)
    return segments(theirs), segments(ours)


async def test_padded_texts_are_drawn_as_textual_draws_them() -> None:
    app = Lines()
    async with app.run_test(size=(50, 20)) as pilot:
        status = app.query_one(StatusLine)
        status.show_message("GET http://127.0.0.1:8000/customers?page=1 " * 3)
        wide = app.query_one("#wide", PlainStatic)
        wide.update(Text.assemble(("bold", "bold"), " and a long line that wraps " * 3))
        tall = app.query_one("#tall", PlainStatic)
        await settle(pilot)
        assert plain_box(status.styles, status.styles.padding, 1.0)
        assert plain_box(wide.styles, wide.styles.padding, 1.0)
        assert not plain_box(tall.styles, tall.styles.padding, 1.0)
        for widget in (status, app.query_one(Breadcrumb), wide, tall):
            theirs, ours = both_ways_static(widget)
            assert theirs == ours
            assert theirs
            theirs, ours = both_ways_static(widget, Region(1, 0, 9, 2))
            assert theirs == ours


async def test_a_line_in_true_colours_is_not_copied_through_the_filter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The app's filter (ANSI colours to true ones) leaves a line in true colours, nothing
    dim, as it is: such a line is drawn as the view made it; a line in the terminal's
    palette (the status line's badge) still goes through it, and both are what Textual
    draws (see the tests above)."""
    app = Lines()
    async with app.run_test(size=(50, 20)) as pilot:
        status = app.query_one(StatusLine)
        status.update(Text.assemble((" 200 OK ", "bold black on green"), " fine"))
        wide = app.query_one("#wide", PlainStatic)
        wide.update("true colours only")
        await settle(pilot)
        filtered: list[Strip] = []
        apply_filter = Strip.apply_filter

        def noted(strip: Strip, *args: object) -> Strip:
            filtered.append(strip)
            return apply_filter(strip, *args)  # type: ignore[arg-type]

        truecolor_strip = plain_styles.truecolor_strip

        def noted_truecolor(line_filter: object, strip: Strip, *args: object) -> Strip:
            filtered.append(strip)
            return truecolor_strip(line_filter, strip, *args)  # type: ignore[arg-type]

        monkeypatch.setattr(Strip, "apply_filter", noted)
        monkeypatch.setattr(plain_styles, "truecolor_strip", noted_truecolor)
        wide.refresh()
        lines = wide.render_lines(wide.outer_size.region)
        assert lines[0].text.strip() == "true colours only"
        assert filtered == []
        assert lines[0] is wide._styles_cache._cache[0]  # (the line as drawn)
        status.refresh()
        status.render_lines(status.outer_size.region)
        assert filtered  # (its badge's black on green: the terminal's palette)


async def test_a_plain_text_is_not_copied_for_links_it_does_not_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = Lines()
    async with app.run_test(size=(50, 20)) as pilot:
        status = app.query_one(StatusLine)
        status.show_message("GET http://127.0.0.1:8000/customers")
        await settle(pilot)
        styled: list[Strip] = []
        apply_link_style = Strip._apply_link_style

        def noted(strip: Strip, *args: object) -> Strip:
            styled.append(strip)
            return apply_link_style(strip, *args)  # type: ignore[arg-type]

        monkeypatch.setattr(Strip, "_apply_link_style", noted)
        for widget in (status, app.query_one(Breadcrumb), app.query_one("#wide", PlainStatic)):
            assert not widget.auto_links
            widget.refresh()
            widget.render_lines(widget.outer_size.region)
        assert styled == []


class Texts(App[None]):
    """Texts laid out every way a PlainStatic may be styled to lay them out."""

    CSS = """
    PlainStatic { height: 4; padding: 0 1; }
    #center { text-align: center; }
    #right { text-align: right; }
    #nowrap { text-wrap: nowrap; text-overflow: ellipsis; }
    #clip { text-wrap: nowrap; text-overflow: clip; }
    #fold-ellipsis { text-overflow: ellipsis; }
    #line-pad { line-pad: 1; }
    #justify { text-align: justify; }
    """

    def compose(self) -> ComposeResult:
        yield PlainStatic(id="left")
        for name in (
            "center",
            "right",
            "nowrap",
            "clip",
            "fold-ellipsis",
            "line-pad",
            "justify",
        ):
            yield PlainStatic(id=name)


#: Lines that fit the 20 cells, just fit, do not fit, and fit in cells but not in
#: characters (combining marks) or in characters but not in cells (wide ones).
_TEXTS = (
    "",
    "short",
    "twenty cells exactly",
    "twenty cells exactly\nand a second line\n",
    "one line that is longer than twenty cells",
    "  leading and trailing spaces  ",
    "spaces past the width          ",
    "e\u0301" * 12,
    "e\u0301" * 10 + "     ",
    "漢字" * 5 + "\n" + "漢字" * 6,
    "a\ttab",
    "\n\nblank lines\n",
    "fits\na line too long to fit it\n\nfits too\n" + "漢字" * 11 + "\nend",
)


async def test_a_text_that_fits_is_laid_out_as_textual_wraps_it() -> None:
    """A text whose lines fit is laid out without the wrapping: the lines are the ones
    Textual's wrapping makes, segment for segment (offsets in the styles' meta too),
    however the widget aligns, wraps, cuts or pads its lines."""
    app = Texts()
    async with app.run_test(size=(22, 40)) as pilot:
        widgets = list(app.query(PlainStatic))
        for plain in _TEXTS:
            styled = Text.assemble(("bold", "bold"), " ", plain, (" dim", "dim"))
            for text in (Text(plain), styled):
                for widget in widgets:
                    widget.update(text)
                await settle(pilot)
                for widget in widgets:
                    widget.refresh()
                    ours = segments(widget.render_lines(widget.outer_size.region))
                    Static._render_content(widget)  # Textual's own, wrapping every line
                    widget._styles_cache.clear()
                    theirs = segments(widget.render_lines(widget.outer_size.region))
                    assert ours == theirs, (widget.id, text)
                    assert ours


async def test_a_text_that_fits_is_not_cut_into_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Textual's wrapping measures every word of every line (``divide_line``): a text
    whose lines fit is drawn without it; one with a line too long still wraps."""
    divided: list[str] = []
    divide_line = textual.content.divide_line

    def noted(text: str, *args: object, **kwargs: object) -> list[int]:
        divided.append(text)
        return divide_line(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(textual.content, "divide_line", noted)
    app = Lines()
    async with app.run_test(size=(50, 20)) as pilot:
        status = app.query_one(StatusLine)
        status.show_message("GET http://127.0.0.1:8000/customers")
        await settle(pilot)
        divided.clear()
        status.refresh()
        lines = status.render_lines(status.outer_size.region)
        assert lines[0].text.strip() == "GET http://127.0.0.1:8000/customers"
        assert divided == []
        status.show_message("GET http://127.0.0.1:8000/customers?page=1 " * 2)
        await settle(pilot)
        status.refresh()
        status.render_lines(status.outer_size.region)
        assert divided
        long = "GET http://127.0.0.1:8000/customers?page=1 " * 2
        status.update(Text.assemble(("200 OK", "bold"), "\n", long, "\n", ("next", "dim")))
        await settle(pilot)
        divided.clear()
        status.refresh()
        status.render_lines(status.outer_size.region)
        assert divided == [long]  # (the lines that fit are not cut)


async def test_a_short_line_is_padded_in_one_strip(monkeypatch: pytest.MonkeyPatch) -> None:
    """A padded line shorter than its width is widened and padded as one strip made (not
    adjusted to its width first): what Textual's styling draws."""
    adjusted: list[int] = []
    adjust_cell_length = Strip.adjust_cell_length

    def noted(strip: Strip, *args: object) -> Strip:
        adjusted.append(strip.cell_length)
        return adjust_cell_length(strip, *args)  # type: ignore[arg-type]

    app = Lines()
    async with app.run_test(size=(50, 20)) as pilot:
        status = app.query_one(StatusLine)
        status.show_message("GET http://127.0.0.1:8000/customers")
        await settle(pilot)
        monkeypatch.setattr(Strip, "adjust_cell_length", noted)
        status.refresh()
        status._styles_cache.clear()
        ours = segments(status.render_lines(status.outer_size.region))
        assert adjusted == []
        monkeypatch.undo()
        theirs, _ = both_ways_static(status, status.outer_size.region)
        assert ours == theirs


async def test_a_page_s_styles_are_worked_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The status line drawn again for a new page makes none of its runs' Rich styles
    from Textual's anew, nor filters them anew (its styles are the last page's, at other
    offsets): what it draws is Textual's."""
    made: list[tuple[int, int]] = []
    rich_style_with_offset = TextualStyle.rich_style_with_offset

    def noted(style: TextualStyle, x: int, y: int) -> object:
        made.append((x, y))
        return rich_style_with_offset(style, x, y)

    app = Lines()
    async with app.run_test(size=(50, 20)) as pilot:
        status = app.query_one(StatusLine)
        status.update(Text.assemble((" 200 OK ", "bold black on green"), "  ", ("/a", "dim")))
        await settle(pilot)
        status.update(Text.assemble((" 201 Created ", "bold black on green"), "  ", ("/b", "dim")))
        monkeypatch.setattr(TextualStyle, "rich_style_with_offset", noted)
        truecolor = ANSIToTruecolor.truecolor_style
        misses = truecolor.cache_info().misses
        status.refresh()
        ours = segments(status.render_lines(status.outer_size.region))
        assert made == []
        assert truecolor.cache_info().misses == misses  # (its dim run filtered as before)
        monkeypatch.undo()
        Static._render_content(status)
        status._styles_cache.clear()
        assert ours == segments(status.render_lines(status.outer_size.region))
        theirs, ours = both_ways_static(status, status.outer_size.region)  # (dim: filtered)
        assert theirs == ours
