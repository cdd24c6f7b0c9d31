"""Fixtures for the mock server's tests: the app in-process, and over a real socket.

Tests build their app with :func:`make_settings`, which turns the rate limit
off (a suite makes far more than 100 requests in 10 s); rate-limit tests turn
it back on. ``ADMIN``/``EDITOR``/``VIEWER`` are ready Basic credentials.
"""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from mock_server import BackgroundServer, Settings, create_app
from mock_server.app import MockApp
from tests.mock_server.processes import Running

BASE = "http://mock.test"
#: The names tests call the server by besides 127.0.0.1: the in-process ``BASE``, the
#: explorer's ``http://mock/`` (and a second server, ``other.test``), and the hosts of
#: requests written by hand. Any other is a 421 (the host check); test settings allow these.
TEST_HOSTS = ("mock.test", "mock", "other.test", "mock.example", "x")
#: The HTTP/1.1 parsers the server runs on: every test over a socket runs on each.
HTTP_PARSERS = ("httptools", "h11")


def basic(user: str, password: str) -> dict[str, str]:
    """An Authorization header with Basic credentials."""
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


ADMIN = basic("admin", "admin")
EDITOR = basic("alice", "wonderland")
VIEWER = basic("bob", "builder")


def make_settings(**overrides: Any) -> Settings:
    """Test settings: a free port, no rate limit, the test hosts answered, unless overridden."""
    values: dict[str, Any] = {
        "host": "127.0.0.1",
        "port": 0,
        "rate_limit": None,
        "allowed_hosts": TEST_HOSTS,
    }
    values.update(overrides)
    return Settings(**values)


def asgi_client(app: MockApp, **kwargs: Any) -> httpx.AsyncClient:
    """An httpx client talking to ``app`` in-process (no socket)."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE, **kwargs)


@pytest.fixture
def app() -> MockApp:
    """A fresh mock app with test settings."""
    return create_app(make_settings())


@pytest.fixture
async def client(app: MockApp) -> AsyncIterator[httpx.AsyncClient]:
    """An in-process client for the ``app`` fixture."""
    async with asgi_client(app) as c:
        yield c


@pytest.fixture(params=HTTP_PARSERS)
def http_parser(request: pytest.FixtureRequest) -> str:
    """Each HTTP/1.1 parser in turn: the same protocol tests hold for both."""
    parser: str = request.param
    return parser


@pytest.fixture
def live_server(http_parser: str) -> Iterator[BackgroundServer]:
    """The mock server on a free 127.0.0.1 port, for protocol tests over a real socket."""
    with BackgroundServer(make_settings(http_parser=http_parser)) as server:
        yield server


@pytest.fixture
def running() -> Iterator[list[Running]]:
    """The ``restwalk-mock`` processes a test starts (append them): killed at its end."""
    started: list[Running] = []
    yield started
    for server in started:
        server.kill()
