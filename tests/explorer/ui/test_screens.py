"""Help, learning screen, explanations and the command palette."""

from __future__ import annotations

from textual.binding import Binding
from textual.command import CommandPalette
from textual.widgets import Input, Markdown, OptionList

from explorer.ui.dialogs.explain import ExplainDialog
from explorer.ui.screens.browser_keys import BROWSER_KEYS
from explorer.ui.screens.help import HelpScreen
from explorer.ui.screens.learn import LearnScreen, group_of, grouped_entries
from explorer.ui.screens.main import BrowserScreen
from explorer.ui.widgets.body_view import BodyView
from explorer.ui.widgets.headers_view import HeadersView
from explorer.ui.widgets.key_bar import KeyBar
from explorer.ui.widgets.row_table import RowTable
from explorer.ui.widgets.tab_bar import TabBar
from tests.explorer.ui.conftest import SIZE, AppFactory, markdown_shown, settle


def markdown_of(screen: object, selector: str) -> str:
    widget = screen.query_one(selector, Markdown)  # type: ignore[attr-defined]
    return str(widget.source)


async def test_help_lists_every_browser_key(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = markdown_of(app.screen, "#help-text")
        for binding in BROWSER_KEYS:  # the screen's and its widgets'
            assert isinstance(binding, Binding)
            described = binding.tooltip or binding.description
            assert described in text or binding.action.startswith("digit")
        assert "alt+left" in text
        assert "| ? / f1 |" in text  # as typed, not question_mark
        assert "question_mark" not in text
        assert "0 … 9" in text
        assert "press **a** to log in" in text
        await pilot.press("escape")
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_explain_status_and_header(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, ExplainDialog)
        text = markdown_shown(app.screen.query_one("#explanation", Markdown))
        assert text.startswith("# 200 OK for GET http://mock/")
        assert "REST in this response" in text
        assert "## 200 OK" in text
        await pilot.press("escape")
        await pilot.press("h")  # the headers tab
        await pilot.pause()
        table = app.browser.query_one(HeadersView).query_one("RowTable")
        assert table.has_focus  # h shows the headers and moves into them
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ExplainDialog)
        assert markdown_of(app.screen, "#explanation").startswith("# ")


async def test_learn_screen_lists_and_searches(make_app: AppFactory) -> None:
    groups = [group_of(entry) for entry in grouped_entries()]
    assert {"Status codes 4xx", "Headers", "Methods", "REST constraints"} <= set(groups)
    assert groups.index("Status codes 1xx") < groups.index("Status codes 5xx")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LearnScreen)
        await pilot.press("ctrl+f")
        screen.query_one("#learn-search", Input).value = "retry-after"
        await pilot.pause()
        titles = [entry.title for entry in screen.shown]
        assert titles[0] == "Retry-After"
        assert "429 Too Many Requests" in titles
        await pilot.press("enter", "down")
        await pilot.pause()
        assert screen.query_one("#learn-list", OptionList).has_focus
        assert markdown_of(screen, "#learn-text").startswith("# ")
        await pilot.press("ctrl+f", "down")  # down from the search box reaches the list too
        await pilot.pause()
        assert screen.query_one("#learn-list", OptionList).has_focus
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, BrowserScreen)


async def test_on_the_learn_screen_two_downs_typed_together_go_to_the_second_entry(
    make_app: AppFactory,
) -> None:
    """QA 6: the second Down, come with the first from the terminal, went to the search
    line the first was moving the focus away from: it was lost."""
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LearnScreen)
        await pilot.press("ctrl+f")
        screen.query_one("#learn-search", Input).value = "retry-after"
        await settle(pilot)
        listed = screen.query_one("#learn-list", OptionList)
        first = listed.highlighted
        for _ in range(2):  # (as a terminal's read hands them over: no frame between)
            app.post_message(events.Key("down", None))
        await settle(pilot)
        assert listed.has_focus
        assert listed.highlighted is not None
        assert first is not None
        assert listed.highlighted > first


async def test_on_the_learn_screen_typing_searches_and_q_is_a_letter(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LearnScreen)
        search = screen.query_one("#learn-search", Input)
        await pilot.press(*"request")
        await pilot.pause()
        assert search.value == "request"
        await pilot.press("down")  # to the results; a letter typed there searches on
        await pilot.pause()
        assert screen.query_one("#learn-list", OptionList).has_focus
        await pilot.press("q")
        await pilot.pause()
        assert app.is_running
        assert app.screen is screen
        assert search.value == "requestq"
        assert search.has_focus
        # Typing fast: a highlight of the list for "etag" arrives after the list for
        # "etagq" (empty) replaced it. It names the old list's entry and is dropped.
        results = screen.query_one("#learn-list", OptionList)
        screen.fill("etag")
        stale = results.get_option_at_index(0)
        screen.fill("etagq")
        assert screen.shown == []
        screen.post_message(OptionList.OptionHighlighted(results, stale, 0))
        await pilot.pause()
        assert app.is_running


async def test_palette_explains_a_code_and_a_header(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for topic, heading in (("429", "# 429 Too Many Requests"), ("etag", "# ETag")):
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
            await pilot.press(*f"explain {topic}")
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, ExplainDialog)
            assert markdown_of(app.screen, "#explanation").startswith(heading)
            await pilot.press("escape")
            await pilot.pause()


async def test_the_other_tabs_are_built_when_first_shown_and_follow_the_page(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.browser.query(HeadersView)  # the first screen shows only the body
        await pilot.click(TabBar, offset=(8, 0))  # a click on "Headers" builds that tab
        await settle(pilot)
        table = app.browser.query_one(HeadersView).query_one(RowTable)
        assert table.row_count > 0
        await pilot.press("w")  # raw, built from the page shown
        await settle(pilot)
        assert app.browser.query_one("#raw-view", BodyView).row_text(0) == "GET / HTTP/1.1"
        await pilot.press("f", "2", "enter")  # a new page (link 2): the tab shown shows it
        await settle(pilot)
        raw = app.browser.query_one("#raw-view", BodyView)
        assert raw.row_text(0) == "GET /products HTTP/1.1"
        page = app.browser.session.shown
        assert page is not None
        assert page.exchange is not None
        await pilot.press("h")  # a hidden tab is brought up to the page when shown
        await settle(pilot)
        shown_names = app.browser.query_one(HeadersView).names
        assert shown_names == tuple(name for name, _ in page.exchange.response.headers)
        assert table.row_count == len(shown_names)


async def test_the_key_bar_does_not_offer_the_screen_one_is_on(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LearnScreen)
        bar = str(app.screen.query_one(KeyBar).render())
        assert " Learn " not in bar
        assert " Help " in bar
        await pilot.press("f1")  # (? is typed into the learn screen's search)
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        bar = str(app.screen.query_one(KeyBar).render())
        assert " Help " not in bar


async def test_palette_offers_explain_while_its_word_is_typed(make_app: AppFactory) -> None:
    """``expl`` or ``explain`` alone (no topic yet) lists the common topics, not nothing."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for typed in ("expl", "explain"):
            await pilot.press("ctrl+p")
            await pilot.pause()
            assert isinstance(app.screen, CommandPalette)
            app.screen.query_one(Input).value = typed
            await settle(pilot)
            options = app.screen.query_one(OptionList)
            shown = [
                str(options.get_option_at_index(i).prompt) for i in range(options.option_count)
            ]
            assert any(prompt.startswith("explain 404") for prompt in shown), (typed, shown)
            await pilot.press("escape")
            await pilot.pause()
