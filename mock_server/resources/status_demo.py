"""``/status/{code}``: answers with any status code, with the headers that code implies.

- Every final code of the spec's table (200-511) answers as itself, to any
  method, with a body explaining it: a resource for 2xx/3xx, a problem for
  4xx/5xx, no body at all for 204, 205 and 304, a Multi-Status document for
  207 (XML unless JSON is preferred), the first bytes of the explanation for
  206. Each carries the headers its rule implies (table :data:`IMPLIED`).
  A 429 says the refusal in the rate limit's fields too, under the server's
  own limit: none left, and ``RateLimit-Reset`` equal to ``Retry-After``.
- A 1xx can never be a final response: those answer 200 explaining why (and
  that ``Expect: 100-continue`` really gets a ``100 Continue``).
- A code HTTP allows but the table does not list (e.g. 299) answers as
  itself too: RFC 9110 §15 says a client treats it as the x00 of its class,
  and the body says so.
- Anything else (not a number, outside 100-599): 400 with a problem body.

``/status`` lists every code with a link to its demo; ``/problems/{code}``
explains the problem types (``type`` URIs) this server's errors carry.
"""

from __future__ import annotations

import re
from http import HTTPStatus

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.http.problems import Problem, problem_type
from mock_server.http.rate_limit_fields import refusal_fields
from mock_server.http.statuses import CLASSES, HIGHEST, LOWEST, STATUSES, describe
from mock_server.representations.model import Link, Resource
from mock_server.representations.multistatus import Entry, multistatus
from mock_server.representations.respond import respond
from mock_server.service import Service
from mock_server.settings import RateLimit

#: Where the 3xx demos point: a page that answers 200 to any method.
REDIRECT_TARGET = "/status/200"
#: Methods the demo answers (OPTIONS, TRACE and CONNECT belong to the method layer).
DEMO_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
#: The content a 206 / 416 demo takes a range of.
RANGE_CONTENT = b"restwalk-mock: the status demo serves the first 16 bytes of this text.\n"
RANGE_SLICE = 16

#: Headers each code implies (RFC 9110 and friends), beyond Content-Type.
IMPLIED: dict[int, dict[str, str]] = {
    HTTPStatus.CREATED: {"Location": REDIRECT_TARGET},
    HTTPStatus.PARTIAL_CONTENT: {
        "Content-Range": f"bytes 0-{RANGE_SLICE - 1}/{len(RANGE_CONTENT)}",
        "Accept-Ranges": "bytes",
    },
    HTTPStatus.IM_USED: {"IM": "feed"},
    HTTPStatus.MULTIPLE_CHOICES: {"Location": REDIRECT_TARGET},
    HTTPStatus.MOVED_PERMANENTLY: {"Location": REDIRECT_TARGET},
    HTTPStatus.FOUND: {"Location": REDIRECT_TARGET},
    HTTPStatus.SEE_OTHER: {"Location": REDIRECT_TARGET},
    HTTPStatus.NOT_MODIFIED: {"ETag": '"status-demo"', "Cache-Control": "max-age=60"},
    HTTPStatus.TEMPORARY_REDIRECT: {"Location": REDIRECT_TARGET},
    HTTPStatus.PERMANENT_REDIRECT: {"Location": REDIRECT_TARGET},
    HTTPStatus.UNAUTHORIZED: {
        "WWW-Authenticate": 'Bearer realm="restwalk", Basic realm="restwalk"'
    },
    HTTPStatus.METHOD_NOT_ALLOWED: {"Allow": "GET, HEAD, OPTIONS"},
    HTTPStatus.PROXY_AUTHENTICATION_REQUIRED: {
        "Proxy-Authenticate": 'Basic realm="restwalk-proxy"'
    },
    HTTPStatus.REQUEST_TIMEOUT: {"Connection": "close"},
    HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE: {
        "Content-Range": f"bytes */{len(RANGE_CONTENT)}",
        "Accept-Ranges": "bytes",
    },
    HTTPStatus.UPGRADE_REQUIRED: {"Upgrade": "HTTP/2.0", "Connection": "Upgrade"},
    HTTPStatus.TOO_MANY_REQUESTS: {"Retry-After": "10"},
    HTTPStatus.UNAVAILABLE_FOR_LEGAL_REASONS: {"Link": '</docs/legal-hold>; rel="blocked-by"'},
    HTTPStatus.SERVICE_UNAVAILABLE: {"Retry-After": "30", "Cache-Control": "no-store"},
}
#: Codes whose answer never has a body (RFC 9110 §15.3.5, §15.3.6, §15.4.5).
NO_BODY = frozenset({HTTPStatus.NO_CONTENT, HTTPStatus.RESET_CONTENT, HTTPStatus.NOT_MODIFIED})
_NUMBER = re.compile(r"^[0-9]{1,9}$")


def parse_code(raw: str) -> int:
    """The status code in a path segment; a 400 problem unless it is a number in 100-599."""
    if not _NUMBER.match(raw) or not LOWEST <= int(raw) <= HIGHEST:
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            f"{raw!r} is not a status code: HTTP status codes are numbers "
            f"from {LOWEST} to {HIGHEST}.",
            extra={"parameter": "code"},
        )
    return int(raw)


def _explanation(code: int) -> str:
    info = describe(code)
    klass = CLASSES[code // 100]
    return f"{code} {info.name}: {info.rule}. Class {code // 100}xx: {klass}."


def _informational(request: Request, code: int) -> Response:
    info = describe(code)
    note = (
        f"{code} {info.name} is informational (1xx): it can only precede a final "
        "response, never be one, so this demo answers 200. The server really sends "
        "100 Continue when a request says 'Expect: 100-continue' and its body is read."
    )
    resource = Resource(
        kind="status",
        properties={"status": code, "name": info.name, "rule": info.rule, "explanation": note},
        links=_links(code),
    )
    return respond(request, resource)


def _unrequested_range(request: Request) -> Response:
    """A 206 answers a Range request only (RFC 9110 section 15.3.7): without one, 200 says so."""
    info = describe(HTTPStatus.PARTIAL_CONTENT)
    note = (
        "206 Partial Content answers a request for a range of bytes; this one asked "
        f"for none, so it gets 200. Send 'Range: bytes=0-{RANGE_SLICE - 1}' to see the 206."
    )
    resource = Resource(
        kind="status",
        properties={"status": 206, "name": info.name, "rule": info.rule, "explanation": note},
        links=_links(HTTPStatus.PARTIAL_CONTENT),
    )
    return respond(request, resource, headers={"Accept-Ranges": "bytes"})


def _links(code: int) -> list[Link]:
    links = [
        Link("self", f"/status/{code}"),
        Link("collection", "/status", title="Every status code"),
    ]
    if code >= HTTPStatus.BAD_REQUEST:
        links.append(Link("describedby", problem_type(code), title="The problem type"))
    return links


def status_response(request: Request, code: int, rate_limit: RateLimit | None = None) -> Response:
    """The demo answer for ``code`` (already checked to lie in 100-599).

    ``rate_limit`` is the server's: a 429 refuses as that limit would, with no
    requests left (without one, it says ``Retry-After`` alone).
    """
    if code < HTTPStatus.OK:
        return _informational(request, code)
    headers = dict(IMPLIED.get(code, {}))
    if code == HTTPStatus.TOO_MANY_REQUESTS and rate_limit is not None:
        headers.update(refusal_fields(rate_limit.requests, rate_limit.window_seconds))
    explanation = _explanation(code)
    if code >= HTTPStatus.BAD_REQUEST:
        raise Problem(code, explanation, title=describe(code).name, headers=headers)
    if code in NO_BODY:
        return Response(status_code=code, headers=headers)
    if code == HTTPStatus.PARTIAL_CONTENT:
        if "range" not in request.headers:
            return _unrequested_range(request)
        return Response(
            RANGE_CONTENT[:RANGE_SLICE], status_code=code, headers=headers, media_type="text/plain"
        )
    if code == HTTPStatus.MULTI_STATUS:
        return multistatus(
            request,
            [
                Entry(HTTPStatus.OK, "/status/200", {"detail": "this one was fine"}),
                Entry(HTTPStatus.NOT_FOUND, "/status/nothing", {"detail": "this one was not"}),
            ],
        )
    info = describe(code)
    resource = Resource(
        kind="status",
        properties={
            "status": code,
            "name": info.name,
            "rule": info.rule,
            "explanation": explanation,
        },
        links=_links(code),
    )
    return respond(request, resource, status=code, headers=headers)


def _index(request: Request) -> Response:
    resource = Resource(
        kind="statuses",
        properties={"description": "Every status code restwalk teaches; follow one to get it."},
        links=[Link("self", "/status")]
        + [
            Link("item", f"/status/{code}", title=f"{code} {info.name}")
            for code, info in STATUSES.items()
        ]
        + [Link("search", "/status/{code}", title="Any status code", templated=True)],
    )
    return respond(request, resource, headers={"Cache-Control": "max-age=3600"})


def _problem_page(request: Request) -> Response:
    raw = request.path_params["code"]
    if not _NUMBER.match(raw) or not HTTPStatus.BAD_REQUEST <= int(raw) <= HIGHEST:
        raise Problem(HTTPStatus.NOT_FOUND, f"There is no problem type {raw!r} on this server.")
    code = int(raw)
    info = describe(code)
    resource = Resource(
        kind="problem-type",
        properties={
            "type": problem_type(code),
            "status": code,
            "title": info.name,
            "description": (
                f"Problems of this type answer {code} {info.name}: {info.rule}. The body is "
                "RFC 9457 problem details: 'detail' says what went wrong with this request."
            ),
        },
        links=[
            Link("self", problem_type(code)),
            Link("related", f"/status/{code}", title=f"Get a {code} from the status demo"),
        ],
    )
    return respond(request, resource, headers={"Cache-Control": "max-age=3600"})


def routes(service: Service) -> list[BaseRoute]:
    """The status demo and the problem-type pages."""

    async def demo(request: Request) -> Response:
        return status_response(
            request, parse_code(request.path_params["code"]), service.settings.rate_limit
        )

    async def index(request: Request) -> Response:
        return _index(request)

    async def problem_page(request: Request) -> Response:
        return _problem_page(request)

    return [
        Route("/status", index, methods=["GET"]),
        Route("/status/{code}", demo, methods=DEMO_METHODS),
        Route("/problems/{code}", problem_page, methods=["GET"]),
    ]
