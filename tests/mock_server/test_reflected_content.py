"""Echo endpoints never serve request input as a type a browser runs.

``/response-headers?Content-Type=text/html&x=<script>...`` answered the script as
an HTML page of the mock's origin. Over a real socket, as a browser would ask.
"""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlencode

import pytest

from mock_server import BackgroundServer
from mock_server.http.active_content import active_kind, essence
from tests.mock_server.conftest import make_settings
from tests.mock_server.rawhttp import exchange, request

SCRIPT = "<script>fetch('/_journal')</script>"


@pytest.fixture(scope="module")
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(make_settings()) as served:
        yield served


def echo(server: BackgroundServer, content_type: str) -> tuple[int, str, bytes]:
    """``GET /response-headers`` asking for ``content_type`` and a script: status, type, body."""
    query = urlencode({"Content-Type": content_type, "x": SCRIPT})
    response = exchange(server.url, request("GET", f"/response-headers?{query}"))
    return response.status, response.headers.get("content-type", ""), response.body


@pytest.mark.parametrize(
    "content_type",
    [
        "text/html",
        "Text/HTML; charset=utf-8",
        "application/xhtml+xml",
        "image/svg+xml",
        "text/xml",
        "application/xml",
        "application/rss+xml",
        "application/pdf",
        "text/xsl",  # issue 23 checked again: Chromium renders it as XML
        "multipart/x-mixed-replace; boundary=x",  # Firefox renders each part
        "text/javascript",
        "application/x-javascript",
        "text/plain, text/html",
        "",
        "*/*",
        "unknown/unknown",
        "html",
    ],
)
def test_an_active_type_is_refused(server: BackgroundServer, content_type: str) -> None:
    status, served_type, body = echo(server, content_type)
    assert status == 400
    assert served_type == "application/problem+json; charset=utf-8"
    assert b"any web page could run its script" in body
    assert SCRIPT.encode() not in body


@pytest.mark.parametrize(
    "content_type", ["application/json", "text/plain; charset=utf-8", "text/csv", "image/png"]
)
def test_a_passive_type_is_echoed_as_before(server: BackgroundServer, content_type: str) -> None:
    status, served_type, body = echo(server, content_type)
    assert status == 200
    assert served_type.startswith(content_type)  # (JSON gains its charset)
    assert SCRIPT.encode() in body  # inert: no browser runs it as any of these


def test_the_groups_of_the_mime_sniffing_standard() -> None:
    assert essence(" Text/Plain ; charset=utf-8") == "text/plain"
    assert essence("text/plain, text/html") is None
    assert essence("text") is None
    assert active_kind("application/problem+json") is None
    assert active_kind("text/javascript1.5") == "run it as JavaScript"
    assert "XML" in str(active_kind("application/atom+xml"))
