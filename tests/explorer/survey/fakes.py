"""A clock that moves only when slept on, and a sender over a function: surveys without waiting."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from explorer.core.client import Client
from mock_server import Settings, create_app


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
    values: dict[str, object] = {"rate_limit": None}
    values.update(settings)
    app = create_app(Settings(**values))  # type: ignore[arg-type]
    return Client(transport=httpx.ASGITransport(app=app), max_time=10)


def handler_client(handler: Callable[[httpx.Request], httpx.Response]) -> Client:
    """A core client whose every request is answered by ``handler``."""
    return Client(transport=httpx.MockTransport(handler))
