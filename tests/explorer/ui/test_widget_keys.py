"""Widgets own their keys: a key owner's keys work wherever the focus is on its screen,
the URL bar's Enter and Escape, the links panel's digits, each tested on its own."""

from __future__ import annotations

from typing import ClassVar

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from explorer.core.hypermedia.link import Link
from explorer.ui.page_keys import BindingChain, with_page_keys
from explorer.ui.widgets import links_panel
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.url_input import UrlBar, UrlInput


class Owner(Widget, can_focus=True):
    """A widget whose keys work from anywhere on its screen."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "shout", "Shout"),
        Binding("g", "grey", "Grey"),
    ]

    def __init__(self) -> None:
        super().__init__(id="owner")
        self.shouted = 0

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return None if action == "grey" else True

    def action_shout(self) -> None:
        self.shouted += 1


class Elsewhere(Widget, can_focus=True):
    """Something else to focus."""


class Page(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("s", "save", "Save")]

    def __init__(self) -> None:
        super().__init__()
        self.owner = Owner()

    def compose(self) -> ComposeResult:
        yield Input(id="field")
        yield Elsewhere(id="elsewhere")
        yield self.owner
        yield KeyBar()

    @property
    def _binding_chain(self) -> BindingChain:
        return with_page_keys(super()._binding_chain, self, (self.owner,))

    def action_save(self) -> None:
        pass


class PageApp(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "quit", "Quit")]

    def on_mount(self) -> None:
        self.push_screen(Page())


def bar_text(app: App[None]) -> str:
    return str(app.screen.query_one(KeyBar).render())


async def test_an_owners_keys_work_wherever_the_focus_is_and_show_after_the_screens() -> None:
    app = PageApp()
    async with app.run_test(size=(60, 8)) as pilot:
        screen = app.screen
        assert isinstance(screen, Page)
        screen.query_one("#elsewhere").focus()
        await pilot.press("u")
        assert screen.owner.shouted == 1
        assert bar_text(app).startswith(" s Save  u Shout  g Grey  q Quit ")
        screen.owner.focus()  # the focus in the owner: its keys keep their place
        await pilot.pause()
        assert bar_text(app).startswith(" s Save  u Shout  g Grey  q Quit ")
        screen.set_focus(None)
        await pilot.press("u")
        assert screen.owner.shouted == 2


async def test_a_field_types_the_keys_it_takes_and_check_action_greys_out() -> None:
    app = PageApp()
    async with app.run_test(size=(60, 8)) as pilot:
        screen = app.screen
        assert isinstance(screen, Page)
        field = screen.query_one("#field", Input)
        field.focus()
        await pilot.press("u")
        assert field.value == "u"
        assert screen.owner.shouted == 0
        assert "Shout" not in bar_text(app)
        screen.query_one("#elsewhere").focus()
        await pilot.pause()
        grey = screen.active_bindings["g"]  # the owner's check_action is asked
        assert grey.node is screen.owner
        assert not grey.enabled


class BarApp(App[None]):
    """The URL bar alone, with an Escape of the screen's behind it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "screen_escape", "Escape")]

    def __init__(self) -> None:
        super().__init__()
        self.got: list[Message] = []
        self.escapes = 0

    def compose(self) -> ComposeResult:
        yield UrlBar(id="url")

    def action_screen_escape(self) -> None:
        self.escapes += 1

    def on_url_bar_opened(self, event: UrlBar.Opened) -> None:
        self.got.append(event)

    def on_url_bar_left(self, event: UrlBar.Left) -> None:
        self.got.append(event)

    def on_url_input_curl_read(self, event: UrlInput.CurlRead) -> None:
        self.got.append(event)


async def test_the_url_bar_opens_what_it_holds_and_reads_a_curl_line() -> None:
    app = BarApp()
    async with app.run_test() as pilot:
        bar = app.query_one(UrlBar)
        bar.focus()
        await pilot.press("enter")  # empty: nothing
        bar.value = "/customers"
        await pilot.press("enter")
        bar.value = "curl -X POST http://x.test/"
        await pilot.press("enter")
        bar.value = "curl 'http://x.test/"  # never closed: stays, to be corrected
        await pilot.press("enter")
        await pilot.pause()
        opened, curl = app.got
        assert isinstance(opened, UrlBar.Opened)
        assert opened.text == "/customers"
        assert isinstance(curl, UrlInput.CurlRead)
        assert (curl.spec.method, curl.spec.url) == ("POST", "http://x.test/")
        assert bar.value == "curl 'http://x.test/"
        assert bar.has_focus


async def test_escape_undoes_an_edit_else_the_screens_escape_acts_too() -> None:
    app = BarApp()
    async with app.run_test() as pilot:
        bar = app.query_one(UrlBar)
        bar.show_url("http://x.test/a")
        bar.focus()
        await pilot.press("z", "escape")
        await pilot.pause()
        assert bar.value == "http://x.test/a"
        assert app.escapes == 0  # the edit undone is all it did
        bar.focus()
        await pilot.press("escape")
        await pilot.pause()
        assert app.escapes == 1  # nothing to undo: the Escape behind it acted
        assert [type(m) for m in app.got] == [UrlBar.Left, UrlBar.Left]


class PanelApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.followed: list[Link] = []

    def compose(self) -> ComposeResult:
        yield LinksPanel(id="links")

    def on_mount(self) -> None:
        links = tuple(Link(rel=f"r{n}", href=f"http://x.test/{n}") for n in range(1, 13))
        self.query_one(LinksPanel).show_links(links)
        self.query_one(LinksPanel).table.focus()

    def on_links_panel_follow(self, event: LinksPanel.Follow) -> None:
        self.followed.append(event.link)


async def test_the_links_panel_chooses_by_number_and_enter() -> None:
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(LinksPanel)
        await pilot.press("7")  # no link 70: followed at once
        await pilot.press("enter")  # the end of that gesture: nothing more
        await pilot.press("1")  # 1 or 10-12: waits
        assert panel.numbers.typed == "1"
        await pilot.press("2")
        await pilot.pause()
        assert [link.href for link in app.followed] == ["http://x.test/7", "http://x.test/12"]
        panel.awaiting = True  # a newer page on its way: its links are not chosen from
        await pilot.press("3", "enter")
        await pilot.pause()
        assert len(app.followed) == 2
        assert "The page is loading" in [str(n.message) for n in app._notifications][-1]


async def test_the_links_panel_shows_every_number_whole() -> None:
    # QA 3: on a page of 50,000 items, link 9976 was drawn "997", another link's number.
    app = PanelApp()
    async with app.run_test(size=(120, 30)) as pilot:
        panel = app.query_one(LinksPanel)
        many = tuple(Link(rel="item", href=f"http://x.test/{n}") for n in range(1, 12_346))
        panel.show_links(many)
        panel.highlight(9976)
        await pilot.pause()
        drawn = panel.table.render_line(1 + 9975 - round(panel.table.scroll_y)).text
        assert drawn.split()[:2] == ["9976", "item"]
        assert panel.table.render_line(0).text.index("rel") == drawn.index("item") == 8
        panel.highlight(12345)
        await pilot.pause()
        last = panel.table.render_line(1 + 12344 - round(panel.table.scroll_y)).text
        assert last.split()[:2] == ["12345", "item"]
        panel.show_links(many[:5])  # back to a few: the column is narrow again
        assert panel.table.render_line(1).text.index("item") == 6


async def test_the_links_panel_makes_only_the_rows_it_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A page's rows are made as the table draws them: a page of 2,000 links made the
    table's text of every link before its frame, which shows some twenty."""
    made: list[int] = []
    make = links_panel._row

    def counted(number: int, link: Link, rel: str, origin: str) -> tuple[str, ...]:
        made.append(number)
        return make(number, link, rel, origin)

    monkeypatch.setattr(links_panel, "_row", counted)
    app = PanelApp()
    async with app.run_test(size=(120, 30)) as pilot:
        panel = app.query_one(LinksPanel)
        many = tuple(Link(rel="item", href=f"http://x.test/{n}") for n in range(1, 2001))
        made.clear()
        panel.show_links(many)
        await pilot.pause()
        assert 0 < len(set(made)) <= 30
        assert panel.table.render_line(2).text.split()[:2] == ["2", "item"]
        assert panel.table.rows[1999][0] == "2000"
