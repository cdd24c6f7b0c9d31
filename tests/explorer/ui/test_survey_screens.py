"""The map screen (g), its audit tab, and the diff of two pages (D), with the Pilot."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, OptionList, Select, TabbedContent

from explorer.core.survey.compare import Comparison
from explorer.core.survey.crawl import CrawlLimits
from explorer.ui.dialogs.diff_pick import DiffPicker
from explorer.ui.dialogs.version import VersionDialog
from explorer.ui.screens import map_screen
from explorer.ui.screens.diff_screen import DiffScreen
from explorer.ui.screens.map_screen import MapScreen
from explorer.ui.widgets.diff_pane import DiffPane
from explorer.ui.widgets.map_tree import MapTree
from mock_server import Settings
from tests.explorer.ui.conftest import SIZE, AppFactory, settle

NO_LIMIT = Settings(host="127.0.0.1", port=0, rate_limit=None)


async def until_screen(pilot: Pilot[int], kind: type[Screen[object]]) -> Screen[object]:
    """Wait (by processing messages, never by time) until a screen of ``kind`` is on top.

    A worker that awaits a dialog is still running: settling would wait forever.
    """
    for _ in range(100):
        if isinstance(pilot.app.screen, kind):
            return pilot.app.screen
        await pilot.pause()
    raise AssertionError(f"no {kind.__name__} came up; on top: {pilot.app.screen!r}")


def tree_labels(tree: MapTree) -> list[str]:
    labels: list[str] = []
    stack = list(reversed(tree.root.children))
    while stack:
        node = stack.pop()
        labels.append(node.label.plain)  # type: ignore[union-attr]
        stack.extend(reversed(node.children))
    return labels


async def mapped(pilot: Pilot[int]) -> MapScreen:
    """The map screen (g), once its crawl (m) has ended."""
    await settle(pilot)
    await pilot.press("g")
    await settle(pilot)
    await pilot.press("m")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, MapScreen)
    return screen


async def test_g_shows_the_pages_visited_and_the_links_not_followed(make_app: AppFactory) -> None:
    app = make_app(settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.open_url("/customers")
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        assert isinstance(app.screen, MapScreen)
        labels = tree_labels(app.screen.query_one(MapTree))
        assert labels[0] == "Visited: 2 pages of 2 resources"
        assert any(label.startswith("/customers  200 · application/hal+json") for label in labels)
        assert any(label.startswith("Not followed yet: ") for label in labels)
        assert any(label.startswith("rw:products") for label in labels)  # from the root
        assert "/customers/2  Grace Hopper" in labels  # an embedded customer's self link
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.browser


async def test_enter_on_a_link_not_followed_opens_it_in_the_browser(make_app: AppFactory) -> None:
    app = make_app(settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        tree = app.screen.query_one(MapTree)
        products = next(
            node
            for node in tree.root.children[1].children
            if node.label.plain.startswith("rw:products")  # type: ignore[union-attr]
        )
        products.expand()
        await pilot.pause()
        tree.move_cursor(products.children[0])
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is app.browser
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.spec.url == "http://mock/products"
        assert shown.status == 200


async def test_m_maps_the_rest_and_the_tree_grows(
    make_app: AppFactory, monkeypatch: object
) -> None:
    monkeypatch.setattr(  # type: ignore[attr-defined]
        map_screen, "TUI_LIMITS", CrawlLimits(max_depth=1, delay=0, max_pages=30)
    )
    app = make_app(settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        screen = await mapped(pilot)
        labels = tree_labels(screen.query_one(MapTree))
        visited = int(labels[0].split()[1])
        assert visited > 10
        assert app.browser.session.map.visited_count == visited  # the session's own map
        status = str(screen.query_one("#survey-status").render())
        assert status.startswith("Mapped ")


async def test_a_audits_in_its_tab(make_app: AppFactory, monkeypatch: object) -> None:
    monkeypatch.setattr(  # type: ignore[attr-defined]
        map_screen, "TUI_LIMITS", CrawlLimits(max_depth=1, delay=0, max_pages=20)
    )
    app = make_app(settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MapScreen)
        assert screen.query_one(TabbedContent).active == "audit-tab"
        assert screen.audit is not None
        text = str(screen.query_one("#audit-text").render())
        assert text.startswith("REST audit of http://mock/: grade ")
        assert "Uniform interface: 100%" in text
        await pilot.press("t")
        assert screen.query_one(TabbedContent).active == "map-tab"


async def test_d_compares_two_pages_of_the_history_side_by_side(make_app: AppFactory) -> None:
    app = make_app(settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.open_url("/customers/1")
        await settle(pilot)
        app.browser.open_url("/v2/customers/1")
        await settle(pilot)
        await pilot.press("D")
        await until_screen(pilot, DiffPicker)
        await pilot.press("enter")  # the page before this one
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DiffScreen)
        comparison = screen.comparison
        assert comparison.left_url == "http://mock/customers/1"
        assert comparison.right_url == "http://mock/v2/customers/1"
        title = str(screen.query_one("#diff-title").render())
        assert "\n1 change breaks a client of the left side" in title  # QA 1, item 14
        changes = screen.query_one("#diff-changes", OptionList)
        first = changes.get_option_at_index(0).prompt
        assert str(first).startswith("✗ restructured address: string")  # (QA pass 2, 8)
        left = screen.query_one("#diff-left", DiffPane)
        right = screen.query_one("#diff-right", DiffPane)
        assert (
            '  "address": "12 St James\'s Square, London, LDN SW1Y 4JH",',
            "breaking",
        ) in left.lines
        assert ('  "address": {', "breaking") in right.lines
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.browser


async def test_d_compares_this_page_with_another_api_version(make_app: AppFactory) -> None:
    app = make_app(settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.open_url("/products/1")
        await settle(pilot)
        await pilot.press("D")
        picker = await until_screen(pilot, DiffPicker)
        picker.query_one(OptionList).highlighted = 0  # this page in another version
        await pilot.press("enter")
        dialog = await until_screen(pilot, VersionDialog)
        dialog.query_one("#version", Input).value = "2"
        dialog.query_one("#style", Select).value = "query"
        await pilot.press("ctrl+s")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DiffScreen)
        assert screen.comparison.right_url == "http://mock/products/1?version=2  [v2 (query)]"
        assert screen.comparison.breaking == ()
        kinds = [c.kind for c in screen.comparison.changes or ()]
        assert "added" in kinds
        assert len(app.browser.trail.pages) == 2  # the other version is no page of the walk


async def test_no_answer_from_the_entry_is_said_not_graded() -> None:
    import httpx

    from explorer.core.http.client import Client
    from explorer.ui.app import create_app

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("Connection refused", request=request)

    app = create_app("http://api.test/", client=Client(transport=httpx.MockTransport(refuse)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MapScreen)
        await pilot.press("m")
        await settle(pilot)
        status = str(screen.query_one("#survey-status").render())
        assert status.startswith("No answer from http://api.test/: ")
        await pilot.press("a")
        await settle(pilot)
        assert str(screen.query_one("#audit-text").render()).startswith("No answer from")
        await pilot.press("escape", "D")
        await settle(pilot)
        assert app.screen is app.browser  # nothing to compare: a notification, no picker


def entry_line(screen: Screen[object]) -> str:
    return str(screen.query_one("#survey-entry").render())


async def test_the_audit_starts_from_the_page_shown_not_the_first_of_the_origin(
    make_app: AppFactory, monkeypatch: object
) -> None:
    # QA 1, item 7: /delay/3, then /, then g and a audited /delay/3.
    monkeypatch.setattr(  # type: ignore[attr-defined]
        map_screen, "TUI_LIMITS", CrawlLimits(max_depth=1, delay=0, max_pages=20)
    )
    app = make_app(url="http://mock/delay/0", settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.open_url("/")
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MapScreen)
        assert entry_line(screen).startswith("From http://mock/ (the page shown: the API's root)")
        await pilot.press("a")
        await settle(pilot)
        assert screen.audit is not None
        assert screen.audit.entry == "http://mock/"


async def test_the_root_is_the_default_entry_and_e_switches_to_the_page_shown(
    make_app: AppFactory, monkeypatch: object
) -> None:
    monkeypatch.setattr(  # type: ignore[attr-defined]
        map_screen, "TUI_LIMITS", CrawlLimits(max_depth=1, delay=0, max_pages=5)
    )
    app = make_app(url="http://mock/delay/0", settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)  # the origin's / is asked whether it answers with links
        screen = app.screen
        assert isinstance(screen, MapScreen)
        assert screen.entry == "http://mock/"
        line = entry_line(screen)
        assert line.startswith("From http://mock/ (the API's root: the origin's / answers")
        assert "e: from the page shown, http://mock/delay/0" in line
        await pilot.press("e")
        assert screen.entry == "http://mock/delay/0"
        assert entry_line(screen).startswith("From http://mock/delay/0 (the page shown)")
        await pilot.press("a")
        await settle(pilot)
        assert screen.audit is not None
        assert screen.audit.entry == "http://mock/delay/0"
        await pilot.press("e", "m")
        await settle(pilot)
        assert screen.entry == "http://mock/"
        assert screen.session.map.entry == "http://mock/"
        assert len(app.browser.trail.pages) == 1  # asking / made no page of the walk


async def test_the_pages_to_compare_with_name_their_server_when_there_are_several(
    make_app: AppFactory,
) -> None:
    # QA 1, item 20: with three servers in one session, two /customers/1 rows looked alike.
    app = make_app(url="http://mock/customers/1", settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.open_url("http://other.test:8080/customers/1")
        await settle(pilot)
        app.browser.open_url("http://mock/customers")
        await settle(pilot)
        await pilot.press("D")
        picker = await until_screen(pilot, DiffPicker)
        menu = picker.query_one(OptionList)
        rows = [str(menu.get_option_at_index(n).prompt) for n in range(menu.option_count)]
        assert rows[1:] == [
            "   200  other.test:8080/customers/1  (1 back)",
            "   200  mock/customers/1  (2 back)",
        ]
        await pilot.press("escape")


async def test_the_pages_to_compare_with_are_paths_on_one_server(make_app: AppFactory) -> None:
    app = make_app(url="http://mock/customers/1", settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.open_url("/customers")
        await settle(pilot)
        await pilot.press("D")
        picker = await until_screen(pilot, DiffPicker)
        menu = picker.query_one(OptionList)
        assert str(menu.get_option_at_index(1).prompt) == "   200  /customers/1  (1 back)"
        await pilot.press("escape")


async def test_m_shows_each_link_that_got_no_answer_with_why_and_those_not_http(
    monkeypatch: object,
) -> None:
    # QA 3, 3: "every safe link followed" over failed links listed as "Not followed yet".
    from explorer.ui.app import create_app
    from tests.explorer.survey.fakes import TROUBLED, handler_client, troubled_api

    monkeypatch.setattr(  # type: ignore[attr-defined]
        map_screen, "TUI_LIMITS", CrawlLimits(delay=0, request_timeout=5)
    )
    app = create_app(TROUBLED, client=handler_client(troubled_api))
    async with app.run_test(size=SIZE) as pilot:
        screen = await mapped(pilot)
        status = str(screen.query_one("#survey-status").render())
        assert status.startswith("Mapped 2 pages in ")
        assert status.endswith(
            ": every safe link within the bounds was asked for; 2 requests got no answer. "
            "Not followed: 2 (not http(s))."
        )
        labels = tree_labels(screen.query_one(MapTree))
        failed = labels.index("No answer: 2 links  asked, and failed")
        assert labels[failed + 1] == (
            "/badgzip  ← gzip  The body could not be decoded: its Content-Encoding does not "
            "match the bytes. (Error -3 while decompressing data: incorrect header check)"
        )
        # The reason quotes the server's bytes: shown as symbols, never obeyed.
        assert labels[failed + 2] == (
            "/broken  ← broken  The server sent a header value HTTP does not allow: "
            "␛[2J␛]52;c;cHduZWQ=␇."
        )
        assert labels[failed + 3] == "Not followed yet: 0 links, by relation"
        assert labels[failed + 4 :] == [
            "Not http(s): 2 links  restwalk follows http and https only",
            "javascript:alert(1)  ← js",
            "file:///etc/passwd  ← file",
        ]
        assert not any("alert" in label for label in labels[:failed])  # no resource
        tree = screen.query_one(MapTree)
        javascript = tree.root.children[-1].children[0]
        tree.move_cursor(javascript)
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is screen  # not followed, and said why
        notes = [str(n.message) for n in app._notifications]  # type: ignore[attr-defined]
        assert notes[-1] == (
            "javascript:alert(1) is not an http(s) link: restwalk does not follow it."
        )
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("g")  # opened again: the groups are the session map's
        await settle(pilot)
        labels = tree_labels(app.screen.query_one(MapTree))
        assert "No answer: 2 links  asked, and failed" in labels
        status = str(app.screen.query_one("#survey-status").render())
        assert status.startswith(
            "2 pages visited, 0 links not followed yet, 2 with no answer, 2 not http(s). "
        )


async def test_a_link_the_browser_followed_and_got_no_answer_is_no_answer_on_the_map() -> None:
    from explorer.ui.app import create_app
    from tests.explorer.survey.fakes import TROUBLED, handler_client, troubled_api

    app = create_app(TROUBLED, client=handler_client(troubled_api))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.open_url("/badgzip")
        await settle(pilot)
        await pilot.press("g")
        await settle(pilot)
        labels = tree_labels(app.screen.query_one(MapTree))
        failed = labels.index("No answer: 1 link  asked, and failed")
        assert labels[failed + 1].startswith("/badgzip  ← gzip  The body could not be decoded")
        assert "gzip  1" not in labels  # no longer among the links not followed yet


async def test_the_diff_titles_are_the_urls_as_text_never_markup(make_app: AppFactory) -> None:
    left, right = "http://h/[b]x[/b]", "http://h/[@click=app.quit]y[/]"
    app = make_app(settings=NO_LIMIT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.push_screen(DiffScreen(Comparison(left, right, (), ())))
        await settle(pilot)
        for pane, url in (("#diff-left", left), ("#diff-right", right)):
            title = app.screen.query_one(pane, DiffPane)._border_title
            assert title is not None
            assert title.plain == url
