"""The status line keeps its rows: a new page's news takes the rows the last one took,
so nothing under it moves (the screen is not laid out again for it); longer news
grows it, and news longer still is cut with a "…", its status always on the first
row. A page drawn without a layout still ends the person's wait."""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from explorer.ui.app import RestwalkApp
from explorer.ui.widgets.status_line import (
    MAX_ROWS,
    ROWS,
    StatusLine,
    _unwrapped_rows,
    _wrapped_rows,
)
from tests.explorer.ui.conftest import SIZE, AppFactory, settle, until
from tests.explorer.ui.test_browse import follow


def rows(app: RestwalkApp) -> list[str]:
    """The status line's lines (its text is cut into rows only when too long)."""
    return str(app.browser.query_one(StatusLine).render()).splitlines()


def rows_needed(app: RestwalkApp) -> int:
    """The rows the status line's news takes, wrapped at its width."""
    status = app.browser.query_one(StatusLine)
    width = status.content_size.width
    return status.get_content_height(status.content_size, app.size, width)


async def test_a_new_page_moves_nothing_under_the_status_line(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        status = app.browser.query_one(StatusLine)
        panes = app.browser.query_one("#panes").region
        assert status.size.height == ROWS
        assert rows_needed(app) == ROWS - 1  # the root's news: a row to spare
        await follow(pilot, "rw:customers")
        await settle(pilot)
        assert app.browser.session.shown is not None
        assert app.browser.session.shown.spec.url.endswith("/customers")
        assert rows_needed(app) == ROWS  # its news: a row more than the root's
        assert status.size.height == ROWS
        assert app.browser.query_one("#panes").region == panes


async def test_longer_news_grows_it_then_is_cut_with_an_ellipsis(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        status = app.browser.query_one(StatusLine)
        page = app.browser.session.shown
        assert page is not None
        status.show_page(page, "a key hint " * 60)  # about six rows of it at 120 columns
        await settle(pilot)
        assert status.size.height == MAX_ROWS
        shown = rows(app)
        assert len(shown) == MAX_ROWS
        assert "200 OK" in shown[0]
        assert shown[-1].endswith("…")
        assert all(len(row) <= status.content_size.width for row in shown)
        status.show_page(page, "a short hint")
        await settle(pilot)
        assert status.size.height == ROWS
        assert rows(app)[-1] == "a short hint"


async def test_a_page_drawn_without_a_layout_ends_the_wait(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        layouts: list[object] = []
        detail = app.browser.query_one("#link-detail", Static)
        app.browser.screen_layout_refresh_signal.subscribe(detail, layouts.append, immediate=True)
        before = app.browser.session.shown
        await pilot.press("r")  # the same page again: nothing on screen changes size
        await until(
            pilot,
            lambda: (
                (page := app.browser.session.shown) is not before
                and page is not None
                and page.wait is not None
                and page.wait.shown_at is not None
            ),
            "the reloaded page's wait ended",
        )
        assert layouts == []  # (so the frame that ended it was drawn without a layout)


async def test_news_that_does_not_wrap_is_counted_as_textual_measures_it() -> None:
    """Lines that fit the width are counted without Textual's wrapping, to the same rows;
    a line that wraps (or a tab) leaves the count to Textual."""

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield StatusLine(id="status")

    app = One()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        status = app.query_one(StatusLine)
        width = status.content_size.width
        for plain in ("a", "a\nb", "a\n", "x" * width, "é" * 10 + "\n" + "中" * (width // 2), ""):
            status.update(Text(plain), layout=False)
            measured = status.get_content_height(status.content_size, app.size, width)
            assert _unwrapped_rows(Text(plain), width) == measured, plain
        for plain in ("x" * (width + 1), "中" * (width // 2 + 1), "a\tb"):
            assert _unwrapped_rows(Text(plain), width) is None


async def test_news_that_wraps_is_counted_as_textual_measures_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A line that wraps is counted where Textual's wrapping cuts it, to the rows Textual
    measures, without Textual's measure (which makes every line); a tab is left to it."""

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield StatusLine(id="status")

    app = One()
    async with app.run_test(size=(40, 12)) as pilot:
        await pilot.pause()
        status = app.query_one(StatusLine)
        width = status.content_size.width
        texts = (
            "x" * (width + 1),
            "中" * (width // 2 + 1),
            "words that wrap " * 5,
            "a" * (width * 2 + 3) + "\n\nb",
            ("é" * (width - 1) + " ") * 2,
            "spaces past the end" + " " * width + "\n",
            "e\u0301" * (width + 2),
        )
        for plain in texts:
            status.update(Text(plain), layout=False)
            status.clear_cached_dimensions()
            measured = status.get_content_height(status.content_size, app.size, width)
            assert _wrapped_rows(status.visual, status.styles, width) == measured, plain
            assert measured > 1
        status.update(Text("a\tb " * 20), layout=False)
        assert _wrapped_rows(status.visual, status.styles, width) is None

        measures: list[int] = []
        get_content_height = StatusLine.get_content_height

        def noted(widget: StatusLine, *args: Any) -> int:
            measures.append(args[-1])
            return get_content_height(widget, *args)

        monkeypatch.setattr(StatusLine, "get_content_height", noted)
        status.show_message("words that wrap " * 5)
        assert measures == []


async def test_the_same_news_again_is_not_drawn_again(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        status = app.browser.query_one(StatusLine)
        page = app.browser.session.shown
        assert page is not None
        said = str(status.render())
        updates: list[object] = []
        update = status.update

        def counted(*args: Any, **kwargs: Any) -> None:
            updates.append(args)
            update(*args, **kwargs)

        status.update = counted  # type: ignore[method-assign]
        app.browser.show_reading(page)  # the page's news, said again
        assert updates == []
        assert str(status.render()) == said
        status.show_message("Something else.")  # other news is shown
        assert len(updates) == 1
        await settle(pilot)
        assert str(status.render()) == "Something else."
