"""``GET /``: the entry point. Everything else is reachable by its links."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.representations.model import Link, Resource
from mock_server.resources.respond import respond
from mock_server.resources.urls import href
from mock_server.service import Service

#: The entry point's links: (rel, path, title, templated).
ENTRY_LINKS: list[tuple[str, str, str, bool]] = [
    ("rw:customers", "/customers", "Customers", False),
    ("rw:products", "/products", "Products", False),
    ("rw:orders", "/orders", "Orders (needs a credential)", False),
]


def routes(service: Service) -> list[BaseRoute]:
    """The entry point's routes."""

    async def root(request: Request) -> Response:
        resource = Resource(
            kind="root",
            properties={
                "name": "restwalk-mock",
                "description": "A complete REST/HTTP teaching service. Follow the links.",
            },
            links=[Link("self", href(request, "/"), title="Entry point")]
            + [
                Link(rel, href(request, path), title=title, templated=templated)
                for rel, path, title, templated in ENTRY_LINKS
            ],
        )
        return respond(request, resource, headers={"Cache-Control": "max-age=60"})

    return [Route("/", root, methods=["GET"])]
