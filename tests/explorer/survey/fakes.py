"""A clock that moves only when slept on, and a sender over a function: surveys without waiting."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from explorer.core.http.client import Client
from mock_server import Settings, create_app
from tests.mock_server.conftest import TEST_HOSTS


class FakeClock:
    """Time that passes only when someone sleeps: polite waits cost nothing in a test."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def mock_client(**settings: object) -> Client:
    """A core client on a fresh restwalk-mock ASGI app (no rate limit unless given)."""
    values: dict[str, object] = {"rate_limit": None, "allowed_hosts": TEST_HOSTS}
    values.update(settings)
    app = create_app(Settings(**values))  # type: ignore[arg-type]
    return Client(transport=httpx.ASGITransport(app=app), max_time=10)


def handler_client(handler: Callable[[httpx.Request], httpx.Response]) -> Client:
    """A core client whose every request is answered by ``handler``."""
    return Client(transport=httpx.MockTransport(handler))


#: What a terminal obeys: clear the screen, set the clipboard (OSC 52).
ESCAPES = "\x1b[2J\x1b]52;c;cHduZWQ=\x07"
#: Where :func:`troubled_api` answers.
TROUBLED = "http://api.test/"


def troubled_api(request: httpx.Request) -> httpx.Response:
    """An API at :data:`TROUBLED` whose root links to a page that answers, to one whose
    body is not the gzip it says (no answer can be read), to one whose head is not HTTP
    (the reason quotes it: control characters), and to a ``javascript:`` and a
    ``file:`` URL (the items page links to the ``javascript:`` one again)."""
    hal = {"Content-Type": "application/hal+json"}
    path = request.url.path
    if path == "/":
        links = {
            "self": {"href": "/"},
            "items": {"href": "/items"},
            "gzip": {"href": "/badgzip", "title": "not gzip"},
            "broken": {"href": "/broken"},
            "js": {"href": "javascript:alert(1)"},
            "file": {"href": "file:///etc/passwd"},
        }
        return httpx.Response(200, headers=hal, json={"_links": links})
    if path == "/items":
        links = {
            "self": {"href": "/items"},
            "up": {"href": "/"},
            "js": {"href": "javascript:alert(1)"},
        }
        return httpx.Response(200, headers=hal, json={"_links": links})
    if path == "/badgzip":
        return httpx.Response(
            200,
            headers={"Content-Type": "application/json", "Content-Encoding": "gzip"},
            content=b'{"not": "gzip"}',
        )
    if path == "/broken":
        raise httpx.RemoteProtocolError(f"Illegal header value {ESCAPES}", request=request)
    return httpx.Response(404, json={"title": "Not Found"})
