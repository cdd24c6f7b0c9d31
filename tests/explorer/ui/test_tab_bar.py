"""The tab bar: labels over an underline; a click or left/right picks a tab."""

from __future__ import annotations

from textual.app import App, ComposeResult

from explorer.ui.widgets.tab_bar import TabBar

TABS = (("one", "One"), ("two", "Two"), ("three", "Three"))


class Tabs(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.picked: list[str] = []

    def compose(self) -> ComposeResult:
        yield TabBar(TABS, active="one")

    def on_tab_bar_activated(self, event: TabBar.Activated) -> None:
        self.picked.append(event.tab)
        event.bar.active = event.tab


def lines(app: Tabs) -> list[str]:
    return str(app.query_one(TabBar).render()).splitlines()


async def test_the_active_tab_is_underlined() -> None:
    app = Tabs()
    async with app.run_test(size=(30, 4)) as pilot:
        await pilot.pause()
        labels, underline = lines(app)
        assert labels == " One  Two  Three "
        assert underline == "╸━━━╺" + "━" * 25  # the lit stretch is under "One"
        app.query_one(TabBar).active = "two"
        await pilot.pause()
        assert lines(app)[1].startswith("━━━━━╸━━━╺━")


async def test_a_click_on_a_label_picks_its_tab() -> None:
    app = Tabs()
    async with app.run_test(size=(30, 4)) as pilot:
        await pilot.click(TabBar, offset=(12, 0))  # "Three"
        await pilot.click(TabBar, offset=(25, 0))  # past the labels: nothing
        await pilot.click(TabBar, offset=(6, 1))  # the underline: nothing
        await pilot.pause()
        assert app.picked == ["three"]


async def test_left_and_right_move_between_tabs_and_wrap() -> None:
    app = Tabs()
    async with app.run_test(size=(30, 4)) as pilot:
        app.query_one(TabBar).focus()
        await pilot.press("right", "right", "right", "left")
        await pilot.pause()
        assert app.picked == ["two", "three", "one", "three"]


async def test_a_bar_narrower_than_its_labels_crops_them_and_keeps_its_underline() -> None:
    # QA: at 80x24 with the course open the body column is 24 cells: " Trip " wrapped
    # onto the underline's row, and the underline was not drawn.
    app = Tabs()
    async with app.run_test(size=(12, 4)) as pilot:
        await pilot.pause()
        bar = app.query_one(TabBar)
        assert bar.render_line(0).text == " One  Two  T"
        assert bar.render_line(1).text == "╸━━━╺" + "━" * 7
