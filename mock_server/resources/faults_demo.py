"""``/faults/{kind}``: answers with a connection-level fault, for testing clients.

``/faults`` lists the kinds; any method on ``/faults/{kind}`` performs it (see
:mod:`mock_server.transport.connection_faults` for what each does and what httpx
raises). ``--fault-kind`` mixes the same faults into ordinary answers.
"""

from __future__ import annotations

from http import HTTPStatus

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from mock_server.http.problems import Problem
from mock_server.representations.model import Link, Resource
from mock_server.representations.respond import respond
from mock_server.service import Service
from mock_server.transport import connection_faults as cf

FAULTS_PATH = "/faults"
FAULT_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]


class FaultEndpoint:
    """An ASGI endpoint: it writes to the connection itself, so it is not a Response."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["path_params"]["kind"]
        if kind not in cf.KINDS:
            problem = Problem(
                HTTPStatus.NOT_FOUND,
                f"There is no fault {kind!r}; the faults are {', '.join(cf.KINDS)}.",
            )
            await problem.response(scope)(scope, receive, send)
            return
        query = Request(scope).query_params
        try:
            options = cf.parse_options(dict(query))
        except Problem as problem:
            await problem.response(scope)(scope, receive, send)
            return
        await cf.perform(kind, scope, receive, send, options)


def routes(service: Service) -> list[BaseRoute]:
    """The faults' routes."""

    async def index(request: Request) -> Response:
        resource = Resource(
            kind="faults",
            properties={
                "description": "Connection-level faults: each link answers with one.",
                "faults": cf.DESCRIPTIONS,
            },
            links=[
                Link("self", FAULTS_PATH, title="Connection faults"),
                *(
                    Link("item", f"{FAULTS_PATH}/{kind}", title=cf.DESCRIPTIONS[kind], many=True)
                    for kind in cf.KINDS
                ),
                Link("rw:root", "/", title="Entry point"),
            ],
        )
        return respond(request, resource)

    return [
        Route(FAULTS_PATH, index, methods=["GET"]),
        Route(FAULTS_PATH + "/{kind}", FaultEndpoint(), methods=FAULT_METHODS),
    ]
