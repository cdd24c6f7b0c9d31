"""One renderer per media type, chosen by name."""

from __future__ import annotations

from collections.abc import Callable

import orjson

from mock_server.representations.hal import HAL_JSON, to_hal
from mock_server.representations.model import Resource

Renderer = Callable[[Resource], bytes]


def _hal(resource: Resource) -> bytes:
    return orjson.dumps(to_hal(resource))


#: Media type -> renderer. Plain JSON gets the HAL body (design: "same body").
RENDERERS: dict[str, Renderer] = {
    HAL_JSON: _hal,
    "application/json": _hal,
}


def render(resource: Resource, media_type: str) -> bytes:
    """``resource`` rendered as ``media_type`` (which must be in :data:`RENDERERS`)."""
    return RENDERERS[media_type](resource)
