"""The TUI follows links by the tab's one rule: an OPTIONS action is sent, a DELETE composed.

The rule itself is tested in ``tests/explorer/core/test_tab.py``; here, that the
screen does what the tab decides (it decided with ``GET`` and ``HEAD`` alone before).
"""

from __future__ import annotations

import httpx

from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.composer import ComposerScreen
from tests.explorer.ui.conftest import SIZE, settle

API = "http://api.test"
SIREN = {
    "links": [{"rel": ["self"], "href": "/"}],
    "actions": [
        {"name": "methods", "method": "OPTIONS", "href": "/things"},
        {"name": "remove", "method": "DELETE", "href": "/things/1"},
    ],
}


def siren_app(seen: list[str]) -> RestwalkApp:
    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(f"{request.method} {request.url.path}")
        if request.url.path == "/":
            return httpx.Response(
                200, json=SIREN, headers={"content-type": "application/vnd.siren+json"}
            )
        return httpx.Response(204, headers={"allow": "GET, OPTIONS"})

    transport = httpx.MockTransport(answer)
    return create_app(f"{API}/", client=Client(transport=transport))


async def test_an_options_action_is_sent_and_a_delete_opens_the_composer() -> None:
    seen: list[str] = []
    app = siren_app(seen)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        links = app.browser.session.shown.links  # type: ignore[union-attr]
        number = {link.name: n for n, link in enumerate(links, start=1)}
        await pilot.press(str(number["methods"]))
        await settle(pilot)
        assert app.screen is app.browser  # sent, no composer
        assert seen[-1] == "OPTIONS /things"
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.status == 204
        await pilot.press("alt+left")
        await settle(pilot)
        await pilot.press(str(number["remove"]))
        await settle(pilot)
        assert isinstance(app.screen, ComposerScreen)
        assert seen[-1] == "OPTIONS /things"  # nothing more was sent
