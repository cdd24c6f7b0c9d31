"""``e`` explains the response and adds what httplint finds in it, as plain text."""

from __future__ import annotations

import httpx

from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.explain import ExplainDialog
from explorer.ui.widgets.lint_panel import LintPanel
from tests.explorer.ui.conftest import SIZE, AppFactory, settle


def crafted(request: httpx.Request) -> httpx.Response:
    """An answer with known defects, one of them carrying terminal escapes."""
    return httpx.Response(
        200,
        content=b'{"a": 1}',
        headers={
            "Content-Type": "application/json",
            "Cache-Control": "max-age=abc\x1b]0;pwned\x07",
            "ETag": "unquoted",
        },
    )


def crafted_app() -> RestwalkApp:
    return create_app("http://api.test/", client=Client(transport=httpx.MockTransport(crafted)))


async def test_explain_lists_the_linters_notes_with_their_levels() -> None:
    app = crafted_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ExplainDialog)
        await dialog.workers.wait_for_complete()
        await pilot.pause()
        report = dialog.report
        assert report is not None
        levels = {note.summary: note.level for note in report.notes}
        assert levels["The max-age cache directive's value is incorrect."] == "bad"
        assert levels["This response doesn't have a Date header."] == "warning"
        shown = str(dialog.query_one(LintPanel).render())
        assert " BAD  Caching: The max-age cache directive's value is incorrect." in shown
        assert "abc␛]0;pwned␇ was found" in shown  # the server's value, made visible
        assert "\x1b" not in shown
        await pilot.press("escape")
        assert app.screen is app.browser


async def test_explain_on_the_mock_finds_nothing_bad(make_app: AppFactory) -> None:
    app = make_app("http://mock/customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ExplainDialog)
        await dialog.workers.wait_for_complete()
        await pilot.pause()
        assert dialog.report is not None
        assert dialog.report.count("bad") == 0
        assert "This response is fresh for 60 seconds." in str(dialog.query_one(LintPanel).render())


async def test_a_lint_that_ends_after_its_dialog_closed_is_dropped() -> None:
    """The lint runs in a thread: its result (or its failure) may reach the UI thread
    after the person closed the explanation; it is dropped then (it raised NoMatches,
    and the worker's failure ended the app)."""
    app = crafted_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, ExplainDialog)
        await dialog.workers.wait_for_complete()
        report = dialog.report
        assert report is not None
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.browser
        dialog._linted(report)  # as call_from_thread runs them, the dialog gone
        dialog._lint_failed("httplint could not read this response")
        await settle(pilot)
        assert app.screen is app.browser
