"""Fixtures for the core's tests: the client on a fresh mock server's ASGI app, in-process."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from explorer.core.http.client import Client
from mock_server import Settings, create_app
from tests.mock_server.conftest import TEST_HOSTS


@pytest.fixture
async def mock_client() -> AsyncIterator[Client]:
    """A core client talking to a fresh mock server (no rate limit) through ASGITransport."""
    app = create_app(Settings(rate_limit=None, allowed_hosts=TEST_HOSTS))
    async with Client(transport=httpx.ASGITransport(app=app)) as made:
        yield made
