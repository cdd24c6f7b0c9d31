"""``POST /customers/batch``: many creates in one request, one status per item (207).

The body is a JSON array of customer objects (the same shape ``POST
/customers`` takes, in the request's version). Items are independent: each
is validated and created on its own, so some may succeed (201, with the new
member's URI) while others fail (422, 409, with their problem). The answer
is 207 Multi-Status listing every item in order, WebDAV XML or JSON by
``Accept`` (see :mod:`mock_server.representations.multistatus`). ``GET`` describes
the batch and carries the form that sends one.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.http.problems import Problem
from mock_server.http.request_body import ENTITY_TYPES, read_json
from mock_server.representations.hal import to_hal
from mock_server.representations.model import Action, Field, Link, Resource
from mock_server.representations.multistatus import Entry, multistatus
from mock_server.representations.respond import respond
from mock_server.representations.urls import href, version_of
from mock_server.resources import crud
from mock_server.resources.customers import ENTITY
from mock_server.service import Service
from mock_server.store import Conflict

PATH = "/customers/batch"
#: The most items one batch may carry.
MAX_ITEMS = 100


def _items(body: Any) -> list[Any]:
    if not isinstance(body, list) or not body or len(body) > MAX_ITEMS:
        raise Problem(
            HTTPStatus.UNPROCESSABLE_ENTITY,
            f"A batch is a JSON array of 1 to {MAX_ITEMS} customers.",
            errors=[{"field": "", "message": f"expected an array of 1 to {MAX_ITEMS} objects"}],
        )
    return body


def create_one(request: Request, service: Service, index: int, item: Any) -> Entry:
    """Create customer ``item`` (position ``index``): a 201 entry, or its problem's entry."""
    store = service.store
    instance = f"{request.url.path}#/{index}"
    try:
        data = ENTITY.validate(item, version_of(request), target_id=None, current=None, store=store)
        record = store.create(ENTITY.collection, data, service.clock())
    except Problem as problem:
        return Entry(problem.status, None, problem.to_dict(instance=instance))
    except Conflict as error:
        refusal = crud.write_problem(ENTITY, error)
        return Entry(refusal.status, None, refusal.to_dict(instance=instance))
    location = href(request, ENTITY.item_path(record.id))
    return Entry(HTTPStatus.CREATED, location, to_hal(crud.member(request, ENTITY, record)))


def describe(request: Request) -> Response:
    """``GET /customers/batch``: what the batch takes, and the form to send it."""
    target = href(request, PATH)
    resource = Resource(
        kind="batch",
        properties={
            "description": "POST a JSON array of customers; 207 Multi-Status says what "
            "became of each one.",
            "maxItems": MAX_ITEMS,
        },
        links=[
            Link("self", target),
            Link("collection", href(request, ENTITY.listing.path), title="Customers"),
        ],
        actions=[
            Action(
                "batch",
                "POST",
                target,
                "Create many customers",
                fields=(Field("items", "textarea", True, None, 'A JSON array: [{"name": ...}]'),),
            )
        ],
    )
    return respond(request, resource, headers={"Cache-Control": "max-age=60"})


def routes(service: Service) -> list[BaseRoute]:
    """The batch route."""

    async def batch(request: Request) -> Response:
        if request.method in ("GET", "HEAD"):
            return describe(request)
        _, body = await read_json(request, ENTITY_TYPES)
        entries = [create_one(request, service, i, item) for i, item in enumerate(_items(body))]
        return multistatus(request, entries)

    return [Route(PATH, batch, methods=["GET", "POST"])]
