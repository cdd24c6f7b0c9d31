"""The key bar: the shown bindings on one line, kept current, clickable."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from explorer.ui.widgets.key_bar import KeyBar


class Keys(App[None]):
    """Two keys for one action, a hidden key and a greyed-out key."""

    BINDINGS = [
        Binding("s", "save", "Save", tooltip="Save the thing"),
        Binding("ctrl+s", "save", "Save again"),
        Binding("x", "hidden", "Hidden", show=False),
        Binding("g", "grey", "Grey"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.done: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("keys")
        yield KeyBar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "grey" else True

    def action_save(self) -> None:
        self.done.append("save")

    def action_grey(self) -> None:
        self.done.append("grey")

    def action_hidden(self) -> None:
        self.done.append("hidden")


def bar_text(app: App[None]) -> str:
    return str(app.query_one(KeyBar).render())


async def test_shows_each_action_once_hides_unshown_and_puts_the_palette_right() -> None:
    app = Keys()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        text = bar_text(app)
        assert text.startswith(" s Save  g Grey ")
        assert "Save again" not in text
        assert "Hidden" not in text
        assert text.endswith("▏^p palette ")
        assert len(text) == 60


async def test_a_greyed_out_key_is_dim_and_a_click_on_it_rings_the_bell() -> None:
    app = Keys()
    rang: list[bool] = []
    app.bell = lambda: rang.append(True)  # type: ignore[method-assign]
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        line = app.query_one(KeyBar).render()
        assert not isinstance(line, str)
        grey = str(line).index("Grey")
        styles = [str(span.style) for span in line.spans if span.start <= grey < span.end]
        assert any("dim" in style for style in styles)
        await pilot.click(KeyBar, offset=(grey, 0))
        assert rang == [True]
        assert app.done == []


async def test_a_click_presses_the_key() -> None:
    app = Keys()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        await pilot.click(KeyBar, offset=(bar_text(app).index("Save"), 0))
        await pilot.pause()
        assert app.done == ["save"]


async def test_hovering_a_key_shows_its_tooltip() -> None:
    app = Keys()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        bar = app.query_one(KeyBar)
        await pilot.hover(KeyBar, offset=(bar_text(app).index("Save"), 0))
        assert bar.tooltip == "Save the thing"
        await pilot.hover(KeyBar, offset=(bar_text(app).index("Grey"), 0))
        assert bar.tooltip == "Grey"  # no tooltip: the description
        await pilot.hover(KeyBar, offset=(30, 0))
        assert bar.tooltip is None


async def test_the_bar_follows_the_focus() -> None:
    """A focused widget's own shown bindings join the bar, and leave with the focus."""

    class Quiet(Widget, can_focus=True):
        pass

    class Loud(Widget, can_focus=True):
        BINDINGS = [Binding("u", "shout", "Shout")]

    class WithLoud(Keys):
        def compose(self) -> ComposeResult:
            yield Quiet(id="quiet")
            yield Loud(id="loud")
            yield KeyBar()

    app = WithLoud()
    async with app.run_test(size=(60, 5)) as pilot:
        app.query_one("#quiet").focus()
        await pilot.pause()
        assert "Shout" not in bar_text(app)
        app.query_one("#loud").focus()
        await pilot.pause()
        assert bar_text(app).startswith(" u Shout  s Save ")
        app.query_one("#quiet").focus()
        await pilot.pause()
        assert "Shout" not in bar_text(app)


async def test_a_narrow_bar_drops_the_padding_then_cuts_keeping_the_palette() -> None:
    app = Keys()
    async with app.run_test(size=(28, 5)) as pilot:
        await pilot.pause()
        text = bar_text(app)
        assert text.startswith("s Save g Grey ")  # compact
        assert text.endswith("▏^p palette ")
    app = Keys()
    async with app.run_test(size=(20, 5)) as pilot:
        await pilot.pause()
        text = bar_text(app)
        assert text.endswith("▏^p palette ")
        assert "…" in text
        assert len(text) == 20
