"""Turning a neutral :class:`Resource` into the HTTP response the client asked for."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from http import HTTPStatus

import orjson
from starlette.requests import Request
from starlette.responses import Response

from mock_server.representations import renderers
from mock_server.representations.hal import HAL_JSON, to_hal
from mock_server.representations.model import Resource
from mock_server.settings import Settings


def chosen_media_type(request: Request) -> str:
    """The media type the negotiation layer chose; HAL when none did."""
    chosen = request.scope.get("state", {}).get("media_type")
    return chosen if isinstance(chosen, str) else HAL_JSON


def render(resource: Resource, media_type: str) -> bytes:
    """The bytes of ``resource`` in ``media_type``."""
    return renderers.render(resource, media_type)


def disabled_methods(request: Request) -> frozenset[str]:
    """The methods turned off with ``--disable-method`` (none outside a MockApp)."""
    service = getattr(request.scope.get("app"), "service", None)
    settings = getattr(service, "settings", None)
    return settings.disabled_methods if isinstance(settings, Settings) else frozenset()


def without_methods(resource: Resource, methods: frozenset[str]) -> Resource:
    """``resource`` (and what it embeds) without the actions that use ``methods``.

    Actions list what a client may do now; one the server would refuse with 405
    (``--disable-method PUT``) is not among them.
    """
    if not methods:
        return resource
    return replace(
        resource,
        actions=[action for action in resource.actions if action.method not in methods],
        embedded={
            name: [without_methods(inner, methods) for inner in members]
            for name, members in resource.embedded.items()
        },
    )


def respond(
    request: Request,
    resource: Resource,
    status: int = HTTPStatus.OK,
    headers: Mapping[str, str] | None = None,
) -> Response:
    """The response carrying ``resource`` in the negotiated representation."""
    media_type = chosen_media_type(request)
    resource = without_methods(resource, disabled_methods(request))
    return Response(
        render(resource, media_type), status_code=status, headers=headers, media_type=media_type
    )


def json_body(document: object) -> bytes:
    """Compact JSON bytes (orjson), for bodies that are not resources."""
    return orjson.dumps(document)


__all__ = ["HAL_JSON", "chosen_media_type", "json_body", "render", "respond", "to_hal"]
