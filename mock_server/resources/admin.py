"""``/admin``: the operator's actions (admin role only; the policy table enforces it).

``GET /admin`` lists the actions of :data:`ADMIN_ACTIONS` as forms;
``POST /admin/reset`` puts the store back to its seed, as at first start
(with ``--db``, the file too). Tokens and sessions are kept: resetting the
data does not log anyone out.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.representations.model import Action, Link, Resource
from mock_server.representations.respond import respond
from mock_server.representations.urls import href
from mock_server.service import Service

#: The admin actions the index offers: (name, method, path, title).
ADMIN_ACTIONS: list[tuple[str, str, str, str]] = [
    ("reset", "POST", "/admin/reset", "Restore the seed data"),
    ("maintenance", "POST", "/admin/maintenance", "Toggle maintenance mode (503 outside /admin)"),
]


def routes(service: Service) -> list[BaseRoute]:
    """The admin routes."""

    async def index(request: Request) -> Response:
        resource = Resource(
            kind="admin",
            properties={"description": "Operator actions. Admin role only."},
            links=[
                Link("self", href(request, "/admin"), title="Administration"),
                Link("rw:root", href(request, "/"), title="Entry point"),
            ],
            actions=[
                Action(name, method, href(request, path), title)
                for name, method, path, title in ADMIN_ACTIONS
            ],
        )
        return respond(request, resource, headers={"Cache-Control": "no-store"})

    async def reset(request: Request) -> Response:
        service.store.reset()
        counts = {name: len(c.records) for name, c in service.store.collections.items()}
        resource = Resource(
            kind="reset",
            properties={
                "detail": "The store is back to its seed data.",
                "counts": counts,
            },
            links=[
                Link("self", href(request, "/admin/reset")),
                Link("rw:admin", href(request, "/admin"), title="Administration"),
                Link("rw:root", href(request, "/"), title="Entry point"),
            ]
            + [Link(f"rw:{name}", href(request, f"/{name}")) for name in counts],
        )
        return respond(request, resource, headers={"Cache-Control": "no-store"})

    return [
        Route("/admin", index, methods=["GET"]),
        Route("/admin/reset", reset, methods=["POST"]),
    ]
