"""``/_journal``: the requests the mock received, filtered; ``DELETE`` clears it.

``GET /_journal?method=POST&path=/books&header=content-type:application/json``
lists the matching entries, oldest first. ``path`` is exact, or a prefix when
it ends with ``*``; ``header`` is ``NAME`` (present) or ``NAME:VALUE`` and may
be repeated (all must hold). With ``--workers N`` each worker keeps its own
journal: ``/_journal`` shows the requests of the worker that answers it (the
pytest plugin and tests use one process).

**Secrets are masked here**, at the one place the journal leaves the process:
credentials, cookies, secret headers, parameters and body fields show as
``****`` (:mod:`mock_server.http.masking`), and filtering by such a header's
value is refused (it would confirm a guessed password). The policy table keeps
the journal for the admin, but ``admin:admin`` is documented: masking is what
keeps one client's credentials from whoever else reaches the journal.
``--journal-secrets`` (the operator's choice at start, never a request's:
``?secrets=show`` would be one more thing any admin request could ask) shows
them as sent. The pytest plugin reads the entries in-process, as they were
sent, so a test still asserts on the real ``Authorization`` its client sent.
"""

from __future__ import annotations

from http import HTTPStatus

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.http.masking import is_secret_header
from mock_server.http.problems import Problem
from mock_server.representations.model import Action, Link, Resource
from mock_server.representations.respond import respond
from mock_server.request_journal import JOURNAL_PATH, HeaderFilter
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
    masked = not service.settings.journal_secrets

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
        for wanted in headers:
            if masked and wanted.value is not None and is_secret_header(wanted.name):
                raise Problem(
                    HTTPStatus.BAD_REQUEST,
                    f"The journal masks {wanted.name}: filter by its name alone "
                    f"(header={wanted.name}); a value would confirm a guessed secret. "
                    "A server started with --journal-secrets shows and filters them.",
                    extra={"parameter": "header"},
                )
        entries = journal.entries(
            method=_one(request, "method"), path=_one(request, "path"), headers=headers
        )
        resource = Resource(
            kind="journal",
            properties={
                "count": len(entries),
                "size": journal.size,
                "secrets": "masked" if masked else "shown",
                "entries": [entry.to_dict(masked=masked) for entry in entries],
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
