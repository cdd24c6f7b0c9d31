"""``GET /openapi.json``: the OpenAPI 3.1 description of this very server.

Built once per app from the router's own routes (see
:mod:`mock_server.openapi.document`), so it lists exactly what is served.
"""

from __future__ import annotations

from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.service import Service
from mock_server.userdata import data_store

PATH = "/openapi.json"


def routes(service: Service) -> list[BaseRoute]:
    """The description's route."""
    built: dict[str, bytes] = {}

    async def description(request: Request) -> Response:
        if "document" not in built:
            router: Any = request.scope["router"]
            # The document's builder loads with its first request, not with the server.
            from mock_server.openapi import build_document

            data = None
            data_file = data_store(service.store)
            if data_file is not None:
                from mock_server.userdata.openapi import DataDescription

                data = DataDescription(data_file.model)
            document = build_document(router.routes, service.settings, data)
            built["document"] = orjson.dumps(document)
        return Response(
            built["document"],
            media_type="application/json",
            headers={"Cache-Control": "max-age=300"},
        )

    return [Route(PATH, description, methods=["GET"])]
