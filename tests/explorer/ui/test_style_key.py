"""styles_key, StyleMemo, KeptStyles and ComponentStyles: a style worked out once is
worked out again whenever a style of the widget, of an ancestor or of a component class
changes (an inline style, a class's rule, focus), and is then what Textual works out."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import Static

from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.plain_styles import PlainStatic
from explorer.ui.widgets.row_table import RowTable
from explorer.ui.widgets.style_key import KeptStyles, StyleMemo, styles_key
from tests.explorer.ui.conftest import settle


class Nested(App[None]):
    CSS = """
    #outer.warm { background: darkred; }
    BodyView { height: 5; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="outer"):
            yield Static("x", id="leaf")
            yield BodyView()


async def test_the_key_changes_with_an_ancestors_styles_and_only_then() -> None:
    app = Nested()
    async with app.run_test(size=(40, 12)) as pilot:
        await settle(pilot)
        leaf = app.query_one("#leaf", Static)
        worked: list[object] = []

        def rich_style() -> object:
            worked.append(None)
            return leaf.rich_style

        memo = StyleMemo(rich_style)
        key = styles_key(leaf)
        assert memo.get(leaf) == leaf.rich_style
        await pilot.pause()
        assert styles_key(leaf) == key  # nothing changed: the same key, nothing worked out
        assert memo.get(leaf) == leaf.rich_style
        assert len(worked) == 1
        app.query_one("#outer").add_class("warm")  # a class's rule on an ancestor
        await settle(pilot)
        assert styles_key(leaf) != key
        assert memo.get(leaf) == leaf.rich_style
        assert len(worked) == 2
        key = styles_key(leaf)
        app.screen.styles.background = "navy"  # an inline style further up
        await settle(pilot)
        assert styles_key(leaf) != key
        assert memo.get(leaf) == leaf.rich_style
        assert len(worked) == 3


async def test_a_view_draws_in_its_style_after_focus_changes_it() -> None:
    app = Nested()
    async with app.run_test(size=(40, 12)) as pilot:
        view = app.query_one(BodyView)
        view.show_text("hello")
        app.set_focus(None)
        await settle(pilot)
        view.render_lines(view.size.region)  # (a pass, as a frame draws it: style kept)
        blurred = view.rich_style.bgcolor
        view.focus()  # BodyView:focus tints its background
        await settle(pilot)
        focused = view.rich_style.bgcolor
        assert focused != blurred
        lines = view.render_lines(view.size.region)
        assert lines[0].text.startswith("hello")
        assert {segment.style.bgcolor for segment in lines[0] if segment.style} == {focused}


class Table(App[None]):
    def compose(self) -> ComposeResult:
        yield RowTable((("n", 4), ("name", 12)))


async def test_a_tables_component_styles_are_worked_out_once_until_a_style_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = Table()
    async with app.run_test(size=(40, 12)) as pilot:
        table = app.query_one(RowTable)
        table.set_rows([(str(n), f"name {n}") for n in range(5)])
        app.set_focus(None)
        await settle(pilot)
        blurred = table.render_lines(table.size.region)[1]  # (the cursor's row)
        asked: list[str] = []
        ask = Widget.get_component_rich_style

        def noted(widget: Widget, *names: str, **kwargs: object) -> object:
            asked.extend(names)
            return ask(widget, *names, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Widget, "get_component_rich_style", noted)
        table.set_rows([(str(n), f"row {n}") for n in range(5)])  # new rows: a refresh
        await settle(pilot)
        table.render_lines(table.size.region)
        assert asked == []  # nothing changed in the styles: not asked again
        table.focus()  # RowTable:focus > .row-table--cursor: another cursor style
        await settle(pilot)
        focused = table.render_lines(table.size.region)[1]
        assert asked  # asked again, and drawn in it
        cursor = ask(table, "row-table--cursor")
        assert cursor.bgcolor in {segment.style.bgcolor for segment in focused if segment.style}
        assert [s.style for s in focused] != [s.style for s in blurred]


class Kept(App[None]):
    CSS = """
    #outer.warm { background: darkred; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="outer"):
            yield PlainStatic("x", id="kept")


async def test_kept_styles_are_textuals_and_worked_out_once_until_a_style_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = Kept()
    async with app.run_test(size=(40, 12)) as pilot:
        await settle(pilot)
        kept = app.query_one("#kept", PlainStatic)
        assert isinstance(kept, KeptStyles)
        textuals_style = DOMNode.rich_style.fget  # type: ignore[attr-defined]
        textuals_backgrounds = DOMNode.background_colors.fget  # type: ignore[attr-defined]
        worked: list[str] = []

        def style(node: DOMNode) -> object:
            worked.append("style")
            return textuals_style(node)

        def backgrounds(node: DOMNode) -> object:
            worked.append("backgrounds")
            return textuals_backgrounds(node)

        monkeypatch.setattr(DOMNode, "rich_style", property(style))
        monkeypatch.setattr(DOMNode, "background_colors", property(backgrounds))
        assert kept.rich_style == textuals_style(kept)
        assert kept.background_colors == textuals_backgrounds(kept)
        worked.clear()
        for _ in range(3):
            assert kept.rich_style == textuals_style(kept)
            assert kept.background_colors == textuals_backgrounds(kept)
        assert worked == []  # kept: not worked out again
        app.query_one("#outer").add_class("warm")
        await settle(pilot)  # (drawn again meanwhile)
        assert kept.rich_style == textuals_style(kept)
        assert kept.background_colors == textuals_backgrounds(kept)
        assert worked.count("style") == 1  # worked out again (the backgrounds as drawn)
        assert "backgrounds" in worked
        worked.clear()
        assert kept.rich_style == textuals_style(kept)
        assert kept.background_colors == textuals_backgrounds(kept)
        assert worked == []
        assert kept.background_colors[1] != textuals_backgrounds(app.screen)[1]
