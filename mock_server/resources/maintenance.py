"""``/admin/maintenance``: switch maintenance mode on or off at run time (admin only).

``GET`` shows the mode; ``POST`` sets it from ``{"enabled": true|false}``
(``"on"``/``"off"`` work too, as JSON strings or in a form,
``enabled=on``); an empty body toggles it. While it is on, every request
outside ``/admin`` gets 503 (see :mod:`mock_server.layers.faults`).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.http.problems import Problem
from mock_server.http.request_body import check_media_type, parse_json, utf8_text
from mock_server.representations.model import Action, Field, Link, Resource
from mock_server.representations.respond import respond
from mock_server.service import Service

PATH = "/admin/maintenance"
FORM = "application/x-www-form-urlencoded"
ACCEPTED: tuple[str, ...] = ("application/json", FORM)
_WORDS: dict[str, bool] = {"on": True, "true": True, "off": False, "false": False}


def _switch(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _WORDS:
        return _WORDS[value.strip().lower()]
    raise Problem(
        HTTPStatus.UNPROCESSABLE_ENTITY,
        'The maintenance switch takes enabled: true or false (or "on"/"off").',
        errors=[{"field": "enabled", "message": f"expected true, false, on or off, got {value!r}"}],
    )


async def wanted_state(request: Request, current: bool) -> bool:
    """The mode the request asks for: from its body, or the opposite of ``current``."""
    raw = await request.body()
    if not raw.strip():
        return not current
    media_type = check_media_type(request, ACCEPTED)
    if media_type == FORM:
        values = parse_qs(utf8_text(raw, "The form body")).get("enabled")
        body: Any = {"enabled": values[-1]} if values else {}
    else:
        body = parse_json(raw)
    if not isinstance(body, dict) or set(body) != {"enabled"}:
        raise Problem(
            HTTPStatus.UNPROCESSABLE_ENTITY,
            "The body must be an object with exactly one member, enabled.",
            errors=[{"field": "enabled", "message": "is required, and nothing else"}],
        )
    return _switch(body["enabled"])


def _resource(enabled: bool) -> Resource:
    return Resource(
        kind="maintenance",
        properties={
            "enabled": enabled,
            "description": "While enabled, every request outside /admin answers 503.",
        },
        links=[Link("self", PATH), Link("up", "/admin", title="Administration")],
        actions=[
            Action(
                "switch",
                "POST",
                PATH,
                "Turn maintenance mode on or off",
                fields=(
                    Field("enabled", "text", True, "off" if enabled else "on", None, ("on", "off")),
                ),
            )
        ],
    )


def routes(service: Service) -> list[BaseRoute]:
    """The maintenance switch."""

    async def maintenance(request: Request) -> Response:
        if request.method == "POST":
            service.maintenance = await wanted_state(request, service.maintenance)
        return respond(
            request, _resource(service.maintenance), headers={"Cache-Control": "no-store"}
        )

    return [Route(PATH, maintenance, methods=["GET", "POST"])]
