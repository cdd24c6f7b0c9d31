"""``GET /favicon.ico``: the small picture a browser shows in its tab.

A browser asks for it with the first page it opens on an origin; answered 404,
it was a red line in the console of everyone who opened the mock in a browser.
A 16 by 16 PNG (browsers read the bytes, whatever the name's ``.ico`` says).
"""

from __future__ import annotations

import base64

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.service import Service

PATH = "/favicon.ico"
PNG = "image/png"
#: A white "r" on a blue rounded square.
ICON = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAQUlEQVR42mNggAL5+P7/pGAGZECqZhRDyNUMN4"
    "TqBsAAOh9dnCgDcBlGlAG4bCTaBcRoJioMRg2gR0qkODNRmp0BEN4rv5KHjDYAAAAASUVORK5CYII="
)


def routes(service: Service) -> list[BaseRoute]:
    """The icon's route."""

    async def icon(request: Request) -> Response:
        return Response(ICON, media_type=PNG, headers={"Cache-Control": "max-age=86400"})

    return [Route(PATH, icon, methods=["GET"])]
