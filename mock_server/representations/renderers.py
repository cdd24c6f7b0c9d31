"""One renderer per media type, chosen by name.

:data:`RENDERERS` is also what the server offers in content negotiation, in
its order of preference (HAL first: the default).
"""

from __future__ import annotations

from collections.abc import Callable

import orjson

from mock_server.representations.hal import HAL_JSON, to_hal
from mock_server.representations.jsonapi import JSON_API, to_jsonapi
from mock_server.representations.model import Resource
from mock_server.representations.siren import SIREN_JSON, to_siren

Renderer = Callable[[Resource], bytes]

XML = "application/xml"


#: ``Resource.rendered`` key: the HAL bytes of a resource answered on its own.
_HAL_BYTES = (HAL_JSON, "bytes")


def _hal(resource: Resource) -> bytes:
    # Kept with the resource: a member read again (resources.member_cache) is encoded once.
    encoded: bytes | None = resource.rendered.get(_HAL_BYTES)
    if encoded is None:
        encoded = resource.rendered[_HAL_BYTES] = orjson.dumps(to_hal(resource, encoded=True))
    return encoded


def _siren(resource: Resource) -> bytes:
    return orjson.dumps(to_siren(resource))


def _jsonapi(resource: Resource) -> bytes:
    return orjson.dumps(to_jsonapi(resource))


def _xml(resource: Resource) -> bytes:
    # ElementTree and the XML module's patterns load with the first XML answer:
    # the server (and the explorer that starts it) starts without them.
    from mock_server.representations.xml import to_xml

    return to_xml(resource)


#: Media type -> renderer, best first. Plain JSON gets the HAL body (design: "same body").
RENDERERS: dict[str, Renderer] = {
    HAL_JSON: _hal,
    "application/json": _hal,
    SIREN_JSON: _siren,
    JSON_API: _jsonapi,
    XML: _xml,
}

#: The media types a hypermedia resource is offered in, best first.
OFFERED: tuple[str, ...] = tuple(RENDERERS)


def render(resource: Resource, media_type: str) -> bytes:
    """``resource`` rendered as ``media_type`` (which must be in :data:`RENDERERS`)."""
    return RENDERERS[media_type](resource)
