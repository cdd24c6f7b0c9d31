"""SVG snapshots of the main screens (pytest-textual-snapshot), on a fixed API.

Update them after a deliberate change of looks with
``pytest tests/explorer/ui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot

from explorer.core.http.client import Client
from explorer.ui.app import create_app
from tests.explorer.ui import canned
from tests.explorer.ui.conftest import ROOT, SIZE, settle
from tests.explorer.ui.test_trip_view import TripApp, redirected

SnapCompare = Callable[..., bool]


def app_at(url: str = ROOT) -> Any:
    return create_app(url, client=Client(transport=canned.transport()), mock_users=True)


def after(*keys: str) -> Callable[[Pilot[Any]], Awaitable[None]]:
    """Settle, press ``keys``, settle again."""

    async def run(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        if keys:
            await pilot.press(*keys)
            await settle(pilot)
        # A blinking cursor would make the picture depend on the moment it is taken.
        for widget in pilot.app.screen.query("Input, TextArea"):
            widget.cursor_blink = False  # type: ignore[attr-defined]
        await pilot.pause()

    return run


def test_browser_at_root(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_at(), terminal_size=SIZE, run_before=after())


def test_unauthorized_orders(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_at("http://mock/orders"), terminal_size=SIZE, run_before=after())


def test_composer_for_an_action(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_at("http://mock/customers"), terminal_size=SIZE, run_before=after("1"))


def test_help_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_at(), terminal_size=SIZE, run_before=after("question_mark"))


def test_learn_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(app_at(), terminal_size=SIZE, run_before=after("l"))


def test_small_terminal_with_a_search(snap_compare: SnapCompare) -> None:
    assert snap_compare(
        app_at(), terminal_size=(80, 24), run_before=after("slash", "h", "r", "e", "f")
    )


def test_trip_at_80_columns(snap_compare: SnapCompare) -> None:
    """The Trip tab in its half of an 80-column screen: notes under their figures, URLs cut
    in their middle, the wait's bar as wide as the pane (tall enough to show it all)."""
    assert snap_compare(TripApp(redirected()), terminal_size=(80, 56), run_before=after())


def test_trip_at_120_columns(snap_compare: SnapCompare) -> None:
    assert snap_compare(TripApp(redirected()), terminal_size=(120, 40), run_before=after())
