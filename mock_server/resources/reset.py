"""``POST /_reset`` (``--allow-reset``): the seed data back, without a login, for test set-up.

Off by default: anyone who can reach the server could wipe its data. With
the flag, a test suite can start every test from the seed (the pytest plugin
does it in-process instead). ``POST /admin/reset`` does the same for the admin.
"""

from __future__ import annotations

from http import HTTPStatus

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.service import Service

RESET_PATH = "/_reset"


def routes(service: Service) -> list[BaseRoute]:
    """``POST /_reset`` when the settings allow it; nothing otherwise (so 404)."""
    if not service.settings.allow_reset:
        return []

    async def reset(request: Request) -> Response:
        service.reset_data()
        return Response(status_code=HTTPStatus.NO_CONTENT, headers={"Cache-Control": "no-store"})

    return [Route(RESET_PATH, reset, methods=["POST"])]
