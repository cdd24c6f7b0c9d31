"""Fault layer: maintenance mode (503), injected random 5xx, added latency.

For testing clients under bad conditions (design, "Status demo and faults"):

- ``service.maintenance`` (``--maintenance``, or ``POST /admin/maintenance``):
  every request but ``/admin`` answers 503 with ``Retry-After``, so the
  operator can still switch it off.
- ``--fault-rate P``: each request outside ``/admin`` fails with probability P
  with one of 500, 502, 503, 504 (a problem body, and ``Retry-After`` on 503),
  or with one of the ``--fault-kind`` choices, which may also name connection
  faults (``reset``, ``close``...: :mod:`mock_server.transport.connection_faults`).
  The random source is ``service.rng``, which tests seed.
- ``--latency MS``: every request waits MS milliseconds first.
"""

from __future__ import annotations

import asyncio
from http import HTTPStatus

from starlette.types import ASGIApp, Receive, Scope, Send

from mock_server.http.problems import Problem
from mock_server.service import Service
from mock_server.transport import connection_faults

#: Seconds a client should wait before retrying during maintenance or a 503 fault.
RETRY_AFTER_SECONDS = 30
#: What an injected fault answers, one chosen at random each time.
#: The statuses ``--fault-kind`` may name.
FAULTS: dict[int, str] = {
    HTTPStatus.INTERNAL_SERVER_ERROR: "An injected fault (--fault-rate): the server pretends "
    "to have failed while handling this request.",
    HTTPStatus.BAD_GATEWAY: "An injected fault (--fault-rate): the server pretends an upstream "
    "it relies on sent an invalid response.",
    HTTPStatus.SERVICE_UNAVAILABLE: "An injected fault (--fault-rate): the server pretends to "
    "be overloaded for a moment.",
    HTTPStatus.GATEWAY_TIMEOUT: "An injected fault (--fault-rate): the server pretends an "
    "upstream it relies on did not answer in time.",
}
ADMIN_PREFIX = "/admin"


def is_admin(path: str) -> bool:
    """True for ``/admin`` and the paths below it: they stay reachable in maintenance."""
    return path == ADMIN_PREFIX or path.startswith(ADMIN_PREFIX + "/")


def _unavailable_headers() -> dict[str, str]:
    return {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}


def maintenance_problem() -> Problem:
    """The 503 every request gets while the server is in maintenance."""
    return Problem(
        HTTPStatus.SERVICE_UNAVAILABLE,
        "The server is down for maintenance; try again later "
        f"(about {RETRY_AFTER_SECONDS} s). /admin stays reachable.",
        headers=_unavailable_headers(),
        extra={"maintenance": True},
    )


def fault_problem(status: int) -> Problem:
    """The problem an injected fault of ``status`` answers with."""
    headers = _unavailable_headers() if status == HTTPStatus.SERVICE_UNAVAILABLE else {}
    return Problem(status, FAULTS[status], headers=headers, extra={"injected": True})


class FaultsLayer:
    """Answers 503 in maintenance, injects random 5xx, and delays requests."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        settings = self.service.settings
        if settings.latency_ms > 0:
            await asyncio.sleep(settings.latency_ms / 1000)
        if not is_admin(scope["path"]):
            problem: Problem | None = None
            if self.service.maintenance:
                problem = maintenance_problem()
            elif settings.fault_rate > 0 and self.service.rng.random() < settings.fault_rate:
                kinds = settings.fault_kinds or tuple(str(status) for status in sorted(FAULTS))
                kind = self.service.rng.choice(kinds)
                if kind in connection_faults.KINDS:
                    options = connection_faults.FaultOptions()
                    await connection_faults.perform(kind, scope, receive, send, options)
                    return
                problem = fault_problem(int(kind))
            if problem is not None:
                await problem.response(scope)(scope, receive, send)
                return
        await self.app(scope, receive, send)
