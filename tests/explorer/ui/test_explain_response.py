"""`e` on a response: its advice and its caching follow the response (QA 1, item 14)."""

from __future__ import annotations

import httpx
from textual.widgets import Markdown

from explorer.core.http.client import Client
from explorer.ui.app import create_app
from tests.explorer.ui.conftest import ROOT, SIZE, AppFactory, markdown_shown, settle
from tests.explorer.ui.test_browse import status_text


async def explanation(make_app: AppFactory, url: str) -> tuple[str, str]:
    """The status line, and the Markdown `e` shows, for ``url`` on the mock."""
    app = make_app(url)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        status = status_text(app)
        await pilot.press("e")
        await pilot.pause()
        return status, markdown_shown(app.screen.query_one("#explanation", Markdown))


async def test_a_fresh_page_names_its_own_freshness_and_etag(make_app: AppFactory) -> None:
    status, text = await explanation(make_app, ROOT + "customers?limit=3")
    assert "→ Read the body and follow its links" in status  # still the first step
    assert "Reuse this copy for 60 s (1 min) without asking (Cache-Control: max-age=60)" in text
    assert "If-None-Match" in text
    assert "Note `ETag`" not in text
    assert "Check `Cache-Control`" not in text
    # The status's default, then what this response decides: no contradiction left bare.
    assert "This answer to GET: Cacheable for 60 s (1 min) because Cache-Control" in text


async def test_a_page_without_cache_headers_is_not_told_to_note_an_etag() -> None:
    def bare(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"name": "Ada"})

    app = create_app("http://bare/", client=Client(transport=httpx.MockTransport(bare)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await pilot.pause()
        text = markdown_shown(app.screen.query_one("#explanation", Markdown))
    advice = text.split("REST in this response:")[0]
    assert "Read the body: it links nowhere" in advice  # no link to follow (QA 3)
    assert "follow its links" not in advice
    assert "ETag" not in advice
    assert "Cache-Control" not in advice
    assert "Note `ETag`" not in text


async def test_a_no_store_stream_gets_no_validator_advice(make_app: AppFactory) -> None:
    _, text = await explanation(make_app, ROOT + "stream/2")
    advice = text.split("REST in this response:")[0]
    assert "If-None-Match" not in advice
    assert "This answer to GET: Not cacheable: Cache-Control: no-store" in text
