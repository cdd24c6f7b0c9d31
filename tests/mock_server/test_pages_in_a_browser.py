"""The mock as a person meets it in a web browser: its HTML pages, its JSON, its icon.

The OAuth pages (log in and consent, the device code's page, a refused request)
are read over HTTP first: a request refused where it stands is a page for a
browser (RFC 6749 section 4.1.2.1: "inform the resource owner") and JSON for a
program; every page fits a phone's screen. Then a headless Chromium walks them
(``interop``: a real browser, like restwalk serve's test): its console stays
empty (the Content-Security-Policy blocks nothing a page needs), no script from
the request runs, the forms submit and end where they should.
"""

from __future__ import annotations

import asyncio
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from mock_server import BackgroundServer
from tests.explorer.browser import Page, chromium, chromium_path, connect
from tests.mock_server.conftest import make_settings
from tests.mock_server.oauth_browser import read_page

FIREFOX = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'
#: Request input a page must show as text: any script it held would set ``window.pwned``.
HOSTILE = '"><script>window.pwned=1</script><img src=x onerror="window.pwned=2">'


@pytest.fixture(scope="module")
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(make_settings()) as running:
        yield running


def authorize_query(redirect_uri: str, **extra: str) -> str:
    return urlencode(
        {
            "response_type": "code",
            "client_id": "restwalk-cli",
            "redirect_uri": redirect_uri,
            "scope": "orders:read",
            "state": HOSTILE,
            "code_challenge": create_s256_code_challenge("v" * 43),
            "code_challenge_method": "S256",
            **extra,
        }
    )


# Over HTTP -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "query",
    [
        "",  # opened by hand: no client, no response type
        urlencode({"response_type": "code", "client_id": HOSTILE}),
        urlencode({"response_type": "code", "client_id": "restwalk-cli"}),  # no redirect URI
    ],
)
def test_a_refused_request_is_a_page_for_a_browser(server: BackgroundServer, query: str) -> None:
    answer = httpx.get(f"{server.url}/oauth/authorize?{query}", headers={"Accept": FIREFOX})
    assert answer.status_code == 400
    assert "location" not in answer.headers
    assert answer.headers["content-type"] == "text/html; charset=utf-8"
    assert "default-src 'none'" in answer.headers["content-security-policy"]
    page = read_page(answer)
    assert "Authorization refused" in page.text
    assert "start again" in page.text
    assert "<script>" not in answer.text
    assert '{"error"' not in answer.text


def test_a_refused_request_is_json_for_a_program(server: BackgroundServer) -> None:
    for accept in ("*/*", "application/json", None):
        headers = {"Accept": accept} if accept else {}
        answer = httpx.get(f"{server.url}/oauth/authorize", headers=headers)
        assert answer.status_code == 400
        assert answer.json()["error"] == "unsupported_response_type", accept


def test_a_redirected_error_is_still_a_redirect_for_a_browser(server: BackgroundServer) -> None:
    query = authorize_query("http://127.0.0.1:4321/callback", response_type="token")
    answer = httpx.get(f"{server.url}/oauth/authorize?{query}", headers={"Accept": FIREFOX})
    assert answer.status_code == 302
    assert "error=unsupported_response_type" in answer.headers["location"]


def test_the_browsers_icon_is_there(server: BackgroundServer) -> None:
    accept = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"  # Chrome's
    answer = httpx.get(server.url + "/favicon.ico", headers={"Accept": accept})
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "image/png"
    assert answer.content.startswith(b"\x89PNG\r\n\x1a\n")
    assert answer.content[16:24] == (16).to_bytes(4, "big") * 2  # 16 by 16
    assert "max-age" in answer.headers["cache-control"]


def test_every_page_fits_a_phone(server: BackgroundServer) -> None:
    consent = httpx.get(
        f"{server.url}/oauth/authorize?{authorize_query('http://127.0.0.1:4321/callback')}"
    )
    for answer in (
        consent,
        httpx.get(server.url + "/oauth/device"),
        httpx.get(server.url + "/oauth/device?user_code=NOPE-NOPE"),
        httpx.get(server.url + "/oauth/authorize", headers={"Accept": FIREFOX}),
    ):
        assert answer.headers["content-type"] == "text/html; charset=utf-8"
        assert VIEWPORT in answer.text


# In Chromium ---------------------------------------------------------------------------


class _Callback(http.server.BaseHTTPRequestHandler):
    """The client's redirect URI: says it was reached (and records where from)."""

    reached: list[str] = []

    def do_GET(self) -> None:
        _Callback.reached.append(self.path)
        body = b"the application got its answer"
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def callback() -> Iterator[str]:
    listener = http.server.HTTPServer(("127.0.0.1", 0), _Callback)
    thread = threading.Thread(target=listener.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.server_port}/callback"
    finally:
        listener.shutdown()
        listener.server_close()
        thread.join()


async def _shows(page: Page, url_start: str, text: str) -> str:
    """Wait until the page is a document from ``url_start``, loaded, showing ``text``;
    its text."""
    seen = {"now": ""}

    async def poll() -> str:
        while True:
            found = await page.evaluate(
                "[location.href, document.readyState, document.body ? document.body.innerText : '']"
            )
            href, ready, shown = found if isinstance(found, list) else ("", "", "")
            seen["now"] = f"{href} ({ready}): {shown[:300]!r}"
            if str(href).startswith(url_start) and ready == "complete" and text in shown:
                return str(shown)
            await asyncio.sleep(0.05)

    try:
        return await asyncio.wait_for(poll(), 60)
    except TimeoutError:
        raise AssertionError(f"waited for {text!r} at {url_start}; saw {seen['now']}") from None


async def _submit(page: Page, username: str, password: str, decision: str) -> None:
    await page.evaluate(
        "(() => { const form = document.querySelector('form');"
        f" form.username.value = {json.dumps(username)};"
        f" form.password.value = {json.dumps(password)};"
        f" form.querySelector('button[value={decision}]').click(); }})()"
    )


def _page_problems(page: Page) -> list[str]:
    """What the console said, but a page's own 4xx status (a refused request)."""
    return [line for line in page.log if "the server responded with a status of 4" not in line]


async def _walk(base: str, redirect_uri: str, devtools: str) -> None:
    async with connect(devtools) as browser, httpx.AsyncClient(base_url=base) as client:
        page = await browser.new_page((1000, 700))
        statuses: dict[str, int] = {}  # each URL's last answer, as the browser got it

        def answered(event: dict[str, Any]) -> None:
            if event.get("method") == "Network.responseReceived":
                response = event["params"]["response"]
                statuses[response["url"]] = response["status"]

        browser.listen(answered)

        # The first page a person opens: JSON to read (not XML), and nothing in the
        # console (the browser's icon is there: no 404).
        await page.open(f"{base}/customers?name={HOSTILE}")
        shown = await _shows(page, f"{base}/customers", '"_embedded"')
        assert shown.startswith("{")
        await page.until(lambda: f"{base}/favicon.ico" in statuses, "the icon's answer")
        assert statuses[f"{base}/favicon.ico"] == 200
        await page.open(f"{base}/")
        await _shows(page, f"{base}/", '"rw:customers"')
        assert page.log == []
        assert await page.evaluate("window.pwned === undefined")

        # The consent page: the hostile state is text; a wrong password is said; then in.
        await page.open(f"{base}/oauth/authorize?{authorize_query(redirect_uri)}")
        await _shows(page, f"{base}/oauth/authorize", "asks to act on your behalf")
        await _submit(page, "alice", "not her password", "approve")
        await _shows(page, f"{base}/oauth/authorize", "The user name or password is wrong.")
        await _submit(page, "alice", "wonderland", "approve")
        await _shows(page, redirect_uri, "the application got its answer")
        (reached,) = [path for path in _Callback.reached if path.startswith("/callback?")]
        assert "code=" in reached
        assert "state=%22%3E%3Cscript%3E" in reached  # the state, back unchanged
        assert await page.evaluate("window.pwned === undefined")

        # A request refused where it stands: a page saying so, not JSON.
        await page.open(f"{base}/oauth/authorize?client_id={HOSTILE}&response_type=code")
        await _shows(page, f"{base}/oauth/authorize", "Authorization refused")
        assert "invalid_client" in await page.evaluate("document.body.innerText")
        assert await page.evaluate("window.pwned === undefined")

        # The device flow, on a phone's screen: the code typed as people type it.
        device = await client.post(
            "/oauth/device_authorization",
            data={"client_id": "restwalk-cli", "scope": "orders:read"},
        )
        started = device.json()
        await page.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": 375, "height": 667, "deviceScaleFactor": 2, "mobile": True},
        )
        await page.open(f"{base}/oauth/device?user_code={HOSTILE}")
        await _shows(page, f"{base}/oauth/device", "This code is unknown")
        assert await page.evaluate("window.innerWidth") == 375  # the viewport, not 980
        assert await page.evaluate("window.pwned === undefined")
        typed = started["user_code"].lower().replace("-", " ")
        await page.evaluate(
            f"document.forms[0].user_code.value = {json.dumps(typed)};"
            "document.forms[0].querySelector('button').click()"
        )
        await _shows(page, f"{base}/oauth/device?user_code=", started["user_code"])
        await _submit(page, "bob", "builder", "approve")
        await _shows(page, f"{base}/oauth/device", "Approved")
        token = await client.post(
            "/oauth/token",
            data={
                "grant_type": "urn:ietf:params:oauth:grant-type:device_code",
                "device_code": started["device_code"],
                "client_id": "restwalk-cli",
            },
        )
        assert token.status_code == 200, token.text

        assert _page_problems(page) == [], page.log


@pytest.mark.interop
def test_the_pages_work_in_chromium(
    server: BackgroundServer, callback: str, tmp_path: Path
) -> None:
    assert chromium_path() is not None, "make test installs Debian's chromium"
    _Callback.reached.clear()
    with chromium(tmp_path / "profile") as devtools:
        asyncio.run(_walk(server.url, callback, devtools))
