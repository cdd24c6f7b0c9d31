"""``/_journal``: the requests the mock received, filtered; ``DELETE`` clears it.

``GET /_journal?method=POST&path=/books&header=content-type:application/json``
lists the matching entries, oldest first. ``path`` is exact, or a prefix when
it ends with ``*``; ``header`` is ``NAME`` (present) or ``NAME:VALUE`` and may
be repeated (all must hold). The journal holds credentials as they were sent,
so the policy table keeps it for the admin. With ``--workers N`` each worker
keeps its own journal: ``/_journal`` shows the requests of the worker that
answers it (the pytest plugin and tests use one process).
"""

from __future__ import annotations

from http import HTTPStatus

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.http.problems import Problem
from mock_server.layers.journal import JOURNAL_PATH
from mock_server.representations.model import Action, Link, Resource
from mock_server.representations.respond import respond
from mock_server.request_journal import HeaderFilter
from mock_server.service import Service

PARAMETERS = ("method", "path", "header")


def _one(request: Request, name: str) -> str | None:
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            f"The query parameter {name!r} is given more than once.",
            extra={"parameter": name},
        )
    return values[0] if values else None


def routes(service: Service) -> list[BaseRoute]:
    """The journal's routes."""
    journal = service.requests

    async def endpoint(request: Request) -> Response:
        if request.method == "DELETE":
            journal.clear()
            return Response(status_code=HTTPStatus.NO_CONTENT)
        for name in request.query_params:
            if name not in PARAMETERS:
                raise Problem(
                    HTTPStatus.BAD_REQUEST,
                    f"Unknown query parameter {name!r} for {JOURNAL_PATH}; "
                    f"it takes {', '.join(PARAMETERS)}.",
                    extra={"parameter": name},
                )
        try:
            headers = [HeaderFilter.parse(raw) for raw in request.query_params.getlist("header")]
        except ValueError as error:
            raise Problem(
                HTTPStatus.BAD_REQUEST, f"header: {error}.", extra={"parameter": "header"}
            ) from None
        entries = journal.entries(
            method=_one(request, "method"), path=_one(request, "path"), headers=headers
        )
        resource = Resource(
            kind="journal",
            properties={
                "count": len(entries),
                "size": journal.size,
                "entries": [entry.to_dict() for entry in entries],
            },
            links=[
                Link("self", JOURNAL_PATH, title="Request journal"),
                Link(
                    "search",
                    JOURNAL_PATH + "{?method,path,header*}",
                    title="Filter the journal",
                    templated=True,
                ),
                Link("rw:root", "/", title="Entry point"),
            ],
            actions=[Action("clear", "DELETE", JOURNAL_PATH, "Forget every recorded request")],
        )
        return respond(request, resource, headers={"Cache-Control": "no-store"})

    return [Route(JOURNAL_PATH, endpoint, methods=["GET", "DELETE"])]
