"""``/docs/rels`` and ``/docs/rels/{rel}``: the documentation HAL curies point to."""

from __future__ import annotations

from http import HTTPStatus

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.domain.relations import PAGES, RELATIONS
from mock_server.http.problems import Problem
from mock_server.representations.model import Link, Resource
from mock_server.representations.respond import respond
from mock_server.service import Service

RELS_PATH = "/docs/rels"
CACHE = {"Cache-Control": "max-age=3600"}


def routes(service: Service) -> list[BaseRoute]:
    """The documentation routes."""

    async def relation_list(request: Request) -> Response:
        resource = Resource(
            kind="relations",
            properties={"relations": dict(RELATIONS)},
            links=[
                Link("self", RELS_PATH, title="Link relations"),
                Link("up", "/"),
                *(Link("item", f"{RELS_PATH}/{name}", title=name) for name in RELATIONS),
            ],
        )
        return respond(request, resource, headers=CACHE)

    async def relation(request: Request) -> Response:
        name: str = request.path_params["rel"]
        text = RELATIONS.get(name)
        if text is None:
            raise Problem(
                HTTPStatus.NOT_FOUND,
                f"This server uses no link relation {name!r}; see {RELS_PATH} for those it uses.",
            )
        resource = Resource(
            kind="relation",
            properties={"rel": name, "description": text},
            links=[Link("self", f"{RELS_PATH}/{name}"), Link("collection", RELS_PATH)],
        )
        return respond(request, resource, headers=CACHE)

    async def page(request: Request) -> Response:
        name: str = request.path_params["page"]
        if name not in PAGES:
            raise Problem(HTTPStatus.NOT_FOUND, f"There is no documentation page {name!r}.")
        title, text = PAGES[name]
        resource = Resource(
            kind="doc",
            properties={"title": title, "description": text},
            links=[Link("self", f"/docs/{name}"), Link("up", "/")],
        )
        return respond(request, resource, headers=CACHE)

    return [
        Route(RELS_PATH, relation_list, methods=["GET"]),
        Route(RELS_PATH + "/{rel}", relation, methods=["GET"]),
        Route("/docs/{page}", page, methods=["GET"]),
    ]
