"""The outermost layer: faults become 500 problems; a client gone is one log line."""

from __future__ import annotations

import logging

import httpx
import pytest
from starlette.types import Receive, Scope, Send

from mock_server.app import MockApp
from mock_server.layers.errors import ErrorLayer
from tests.mock_server.conftest import BASE


class Failing:
    """An inner app that raises ``error``."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise self.error


async def test_a_fault_is_a_logged_500_problem(
    app: MockApp, caplog: pytest.LogCaptureFixture
) -> None:
    layer = ErrorLayer(Failing(KeyError("boom")), app.service)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=layer), base_url=BASE) as client:
        response = await client.get("/customers")
    assert response.status_code == 500
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert "boom" not in response.text
    assert [r.exc_info is not None for r in caplog.records if r.name == "mock_server"] == [True]


@pytest.mark.parametrize(
    "error", [ConnectionResetError(104, "Connection reset by peer"), BrokenPipeError(32, "pipe")]
)
async def test_a_connection_reset_is_one_line_without_traceback(
    app: MockApp, error: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="mock_server")
    layer = ErrorLayer(Failing(error), app.service)
    sent: list[object] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.disconnect"}

    async def send(message: object) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": "/customers", "client": ("127.0.0.1", 5)}
    await layer(scope, receive, send)
    assert sent == []  # nobody is left to answer
    records = [r for r in caplog.records if r.name == "mock_server"]
    assert len(records) == 1
    assert records[0].levelno == logging.INFO
    assert records[0].exc_info is None
    assert "reset the connection during GET /customers" in records[0].getMessage()
