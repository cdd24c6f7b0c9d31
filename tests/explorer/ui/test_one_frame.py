"""A followed page is drawn whole in the frame that ends the person's wait: its body
highlighted, its first link described, the links table's scrollbar drawn for its
rows, with no frame after it to finish the picture (each took a layout of the screen
and several milliseconds). The link detail keeps its height from page to page, and the
links table its scrollbar's place: a page whose links fit and one whose links scroll
are drawn without a layout of the screen."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widgets import Input

from explorer.core.hypermedia.link import Link
from explorer.ui.app import RestwalkApp
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.links_panel import LinksPanel, describe_link
from explorer.ui.widgets.row_table import RowTable
from explorer.ui.widgets.url_input import UrlBar
from tests.explorer.ui.conftest import SIZE, AppFactory, settle, until
from tests.explorer.ui.test_body_view import BodyApp
from tests.explorer.ui.test_body_view import until as body_until
from tests.explorer.ui.test_browse import follow

#: Root to customers and back, twice: (round, the page's path, whether its links scroll).
ROUNDS = ((1, "/customers", True), (1, "/", False), (2, "/customers", True), (2, "/", False))


def painted(app: RestwalkApp, path: str) -> bool:
    """The page at ``path`` is shown and its wait ended: its frame is drawn."""
    page = app.browser.session.shown
    return (
        page is not None
        and page.spec.url.endswith(path)
        and page.wait is not None
        and page.wait.shown_at is not None
    )


class Draws:
    """Counts the layouts of the screen, and the times the body view is drawn."""

    def __init__(self, app: RestwalkApp) -> None:
        self.layouts = 0
        self.body = 0
        view = app.browser.query_one(BodyView)
        draw = view.render_lines

        def counted(crop: Region) -> list[Strip]:
            self.body += 1
            return draw(crop)

        view.render_lines = counted  # type: ignore[method-assign]
        detail = app.browser.query_one("#link-detail")
        app.browser.screen_layout_refresh_signal.subscribe(detail, self._laid_out, immediate=True)

    def _laid_out(self, screen: Any) -> None:
        self.layouts += 1


async def test_a_followed_page_needs_no_frame_after_its_own(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        table = panel.table
        detail = panel.query_one("#link-detail")
        height = detail.size.height
        assert table.vertical_scrollbar.idle  # the root's links fit: an empty gutter
        # (The first follow is counted in the second round: a first frame of anything may
        # lay out what it shows for the first time.)
        for round, path, scrolls in ROUNDS:
            draws = Draws(app)
            await follow(pilot, "rw:customers" if path == "/customers" else "up")
            await until(pilot, lambda path=path: painted(app, path), f"{path} painted")
            at_paint = (draws.layouts, draws.body)
            await settle(pilot)
            await pilot.pause(0.1)  # (frames are at most 60 a second)
            if round == 2:
                assert (draws.layouts, draws.body) == at_paint  # nothing drawn after
                assert draws.layouts == 0  # the bar kept its place: nothing moved
            bar = table.vertical_scrollbar
            assert table.show_vertical_scrollbar
            assert bar.display
            assert bar.idle is not scrolls
            drawn = bar.render_lines(Region(0, 0, *bar.size))
            assert (drawn == [Strip.blank(bar.size.width, bar.rich_style)] * len(drawn)) is (
                not scrolls
            )
            assert detail.size.height == height
            page = app.browser.session.shown
            assert page is not None
            assert detail.content == describe_link(page.links[0])  # type: ignore[attr-defined]
            # The border's title says the new count, on the screen (only its rows repainted).
            title = f"Links ({len(page.links)})"
            assert panel.border_title == title
            screen = app.browser._compositor.render_strips()
            assert title in screen[panel.region.y].text


async def test_the_body_is_highlighted_when_first_drawn(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        view = app.browser.query_one(BodyView)
        highlighting: list[object] = []
        rows = view._highlight_rows

        def in_a_thread(*args: Any) -> None:
            highlighting.append(args)
            rows(*args)

        view._highlight_rows = in_a_thread  # type: ignore[method-assign]
        await follow(pilot, "rw:customers")
        await until(pilot, lambda: painted(app, "/customers"), "customers painted")
        # (the rows that show: the last of its box lies under its horizontal scrollbar)
        shown = range(min(view.scrollable_content_region.height, view.line_count))
        assert all(row in view._highlighted for row in shown)
        await settle(pilot)
        assert highlighting == []  # (no short row waited for a worker)


async def test_a_long_row_is_highlighted_in_a_worker() -> None:
    app = BodyApp()
    async with app.run_test(size=(60, 10)) as pilot:
        view = app.query_one(BodyView)
        view.show(b'{"a": "' + b"x" * 500 + b'", "b": 1}', "application/json")
        await body_until(pilot, lambda: 1 in view._highlighted and 2 in view._highlighted)
        assert view._highlighted[1].text.startswith('  "a": "xxx')


async def test_the_table_scrollbar_is_decided_with_its_rows() -> None:
    class Table(App[None]):
        def compose(self) -> ComposeResult:
            yield RowTable((("n", 4),))

    app = Table()
    async with app.run_test(size=(20, 10)) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        table.set_rows([(str(n),) for n in range(50)])
        assert table.show_vertical_scrollbar  # before any frame lays it out
        table.set_rows([("1",)])
        assert not table.show_vertical_scrollbar


async def test_the_links_table_scrollbar_is_sized_with_its_rows() -> None:
    """The links table keeps its bar's place: its rows decide, before any frame, whether
    the bar has a thumb or is an empty gutter."""

    class Panel(App[None]):
        def compose(self) -> ComposeResult:
            yield LinksPanel()

    app = Panel()
    async with app.run_test(size=(60, 12)) as pilot:
        panel = app.query_one(LinksPanel)
        await pilot.pause()
        bar = panel.table.vertical_scrollbar
        links = tuple(Link(href=f"/{n}", rel=f"item-{n}") for n in range(50))
        panel.show_links(links)
        assert panel.table.show_vertical_scrollbar
        assert not bar.idle
        panel.show_links(links[:1])
        assert panel.table.show_vertical_scrollbar
        assert bar.idle


async def test_the_page_url_in_the_bar_tells_nobody(make_app: AppFactory) -> None:
    """The URL bar given the page's URL posts no Input.Changed (it went up four widgets, to
    no handler, on every page); a URL typed there still does."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        changed: list[Message] = []
        post = app.browser.post_message

        def spy(message: Message) -> bool:
            if isinstance(message, Input.Changed):
                changed.append(message)
            return post(message)

        app.browser.post_message = spy  # type: ignore[method-assign]
        await follow(pilot, "rw:customers")
        await until(pilot, lambda: painted(app, "/customers"), "customers painted")
        await settle(pilot)
        assert app.browser.query_one(UrlBar).value.endswith("/customers")
        assert changed == []
        await pilot.press("ctrl+l", "x")
        await settle(pilot)
        assert changed


async def test_a_page_whose_scrollbars_stay_is_drawn_without_a_layout(
    make_app: AppFactory,
) -> None:
    """Tall enough for the customers' links to fit too, root and customers differ only in
    what the views hold (their virtual sizes, the URL's length): no layout of the screen,
    and the views' bars and bounds are the new page's."""
    app = make_app()
    async with app.run_test(size=(120, 100)) as pilot:
        await settle(pilot)
        view = app.browser.query_one(BodyView)
        bar = app.browser.query_one(UrlBar)
        table = app.browser.query_one(LinksPanel).table
        for path in ("/customers", "/", "/customers", "/"):
            draws = Draws(app)
            await follow(pilot, "rw:customers" if path == "/customers" else "up")
            await until(pilot, lambda path=path: painted(app, path), f"{path} painted")
            await settle(pilot)
            assert draws.layouts == 0
            assert table.vertical_scrollbar.idle
            assert bar.value.endswith(path)
            assert bar.render_line(0).text.strip().endswith(path)
            assert view.virtual_size.height == view.line_count
            assert view.show_vertical_scrollbar is (view.line_count > view.size.height)
            if view.show_vertical_scrollbar:
                assert view.vertical_scrollbar.window_virtual_size == view.line_count
            view.scroll_end(animate=False, immediate=True)
            await pilot.pause()
            assert view.scroll_y == max(0, view.line_count - view.scrollable_content_region.height)
            view.scroll_home(animate=False, immediate=True)


async def test_a_followed_page_is_mapped_once_it_is_painted(make_app: AppFactory) -> None:
    """Nothing on a page's screen reads the tab's map: a followed page's links go into it
    after the page is painted, not between the key and the paint."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        session = app.browser.session
        api_map = session.map
        take = api_map.take_page
        painted_when_taken: list[bool] = []

        def noted(page: Any) -> bool:
            if page.wait is not None:
                painted_when_taken.append(page.wait.shown_at is not None)
            return take(page)

        api_map.take_page = noted  # type: ignore[method-assign]
        await follow(pilot, "rw:customers")
        await until(pilot, lambda: painted(app, "/customers"), "/customers painted")
        await settle(pilot)
        assert painted_when_taken == [True]
        assert api_map.urls[session.shown.url].visited  # type: ignore[union-attr]


async def test_the_key_bar_looks_at_the_keys_once_the_page_is_painted(
    make_app: AppFactory,
) -> None:
    """A followed page refreshes the screen's bindings: the key bar asks which keys are
    active after the page's frame, not on the page's way to the screen."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        bar = app.browser.query_one(KeyBar)
        shown_keys = bar._shown_keys
        painted_when_asked: list[bool] = []

        def noted() -> Any:
            page = app.browser.session.shown
            if page is not None and page.spec.url.endswith("/customers"):
                painted_when_asked.append(painted(app, "/customers"))
            return shown_keys()

        bar._shown_keys = noted  # type: ignore[method-assign]
        await follow(pilot, "rw:customers")
        await until(pilot, lambda: painted(app, "/customers"), "/customers painted")
        await settle(pilot)
        assert painted_when_asked
        assert all(painted_when_asked)


async def test_a_followed_pages_bindings_are_refreshed_once_it_is_painted(
    make_app: AppFactory,
) -> None:
    """The screen's bindings are refreshed for a followed page after its frame: told on the
    page's way to the screen, the key bar's subscription took two messages before the
    frame, to look at the keys after it anyway."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.browser
        refresh = screen.refresh_bindings
        painted_when_refreshed: list[bool] = []

        def noted() -> None:
            page = screen.session.shown
            if page is not None and page.spec.url.endswith("/customers"):
                painted_when_refreshed.append(painted(app, "/customers"))
            refresh()

        screen.refresh_bindings = noted  # type: ignore[method-assign]
        await follow(pilot, "rw:customers")
        await until(pilot, lambda: painted(app, "/customers"), "/customers painted")
        await settle(pilot)
        assert painted_when_refreshed
        assert all(painted_when_refreshed)
        assert screen.check_action("back", ()) is True
        assert any(
            binding.action == "back" and enabled
            for _node, binding, enabled, _tip in screen.active_bindings.values()
        )
