"""What each operation of the mock does: summaries, inputs and answers (data, mostly).

:func:`operation` returns the :class:`Op` for an (unversioned) path template
and a method, in a given API version (None: the unversioned path). The
document builder adds what every operation shares (problem answers,
security, HEAD/OPTIONS/TRACE) and walks the app's routes, so an operation
missing here is an error the tests catch.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from mock_server.openapi import events, extras, oauth
from mock_server.openapi import schemas as s
from mock_server.openapi.model import Op, Reply
from mock_server.openapi.schemas import Schema

HAL = "application/hal+json"
CSV = "text/csv"


#: Response headers, by name: (description, schema).
HEADERS: dict[str, tuple[str, Schema]] = {
    "Location": ("Where the created or redirected-to resource is.", {"type": "string"}),
    "ETag": ("The strong entity tag of this representation.", {"type": "string"}),
    "Last-Modified": ("When the resource last changed.", {"type": "string"}),
    "Cache-Control": ("How long, and whether, the answer may be cached.", {"type": "string"}),
    "Link": ("RFC 8288 links (paging, blocked-by, alternates).", {"type": "string"}),
    "API-Version": ("The API version of this answer.", {"type": "string"}),
    "Retry-After": ("Seconds to wait before asking again.", {"type": "string"}),
    "Accept-Ranges": ("This resource honours byte ranges.", {"type": "string"}),
    "Content-Range": ("Which bytes of the whole this answer carries.", {"type": "string"}),
    "Allow": ("The methods this resource allows.", {"type": "string"}),
    "WWW-Authenticate": ("The authentication schemes accepted.", {"type": "string"}),
    "Set-Cookie": ("The session cookie.", {"type": "string"}),
}

#: Query and header parameters, by name: (where, description, schema).
PARAMETERS: dict[str, tuple[str, str, Schema]] = {
    "limit": (
        "query",
        "Page size, 1 to 100 (default 20).",
        {"type": "integer", "minimum": 1, "maximum": 100},
    ),
    "offset": (
        "query",
        "Index of the first member (default 0).",
        {"type": "integer", "minimum": 0, "maximum": s.MAX_ID},
    ),
    "version": (
        "query",
        "API version to use (1 when absent).",
        {"type": "integer", "enum": [1, 2]},
    ),
    "Custom-Header": (
        "header",
        "Selects the API version (the server also takes spaces and any case).",
        {"type": "string", "enum": ["api-version=1", "api-version=2"]},
    ),
    "name": ("query", "Case-insensitive part of the name.", {"type": "string"}),
    "city": ("query", "City, case-insensitive.", {"type": "string"}),
    "minCost": ("query", "Lowest cost.", {"type": "number"}),
    "maxCost": ("query", "Highest cost.", {"type": "number"}),
    "status": ("query", "Order status.", {"type": "string", "enum": s.ORDER_STATUSES}),
    "customerId": ("query", "The customer's id.", {"type": "integer", "minimum": 0}),
    "url": (
        "query",
        "A path on this server to redirect to.",
        {"type": "string", "pattern": "^/(?![/\\\\])[^\\\\\\x00-\\x1f\\x7f]*$"},
    ),
    "redirect-status": (
        "query",
        "The redirect code (default 302).",
        {"type": "integer", "enum": [301, 302, 303, 307, 308]},
    ),
    "Range": ("header", "Byte ranges: bytes=a-b, a-, -n (comma-separated).", {"type": "string"}),
    "If-Range": (
        "header",
        "Serve the range only if the report is still this ETag or date.",
        {"type": "string"},
    ),
}

SORT_KEYS: dict[str, tuple[str, ...]] = {
    "customers": ("id", "name", "city"),
    "products": ("id", "name", "cost"),
    "orders": ("id", "status", "customerId"),
}
FILTERS: dict[str, tuple[str, ...]] = {
    "customers": ("name", "city"),
    "products": ("minCost", "maxCost", "name"),
    "orders": ("status", "customerId"),
}
KINDS = {"customers": "Customer", "products": "Product", "orders": "Order"}

ID: Schema = {"type": "integer", "minimum": 1, "maximum": s.MAX_ID}
WRITE_PROBLEMS = (
    HTTPStatus.BAD_REQUEST,
    HTTPStatus.LENGTH_REQUIRED,
    HTTPStatus.PRECONDITION_FAILED,
    HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
    HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
    HTTPStatus.UNPROCESSABLE_ENTITY,
    HTTPStatus.PRECONDITION_REQUIRED,
)
ITEM_PROBLEMS = (HTTPStatus.NOT_FOUND, HTTPStatus.GONE, HTTPStatus.UNAVAILABLE_FOR_LEGAL_REASONS)
CACHED = ("ETag", "Last-Modified", "Cache-Control")


def sort_schema(collection: str) -> Schema:
    """``sort``: comma-separated fields of ``collection``, each optionally prefixed by ``-``."""
    keys = "|".join(SORT_KEYS[collection])
    field_re = rf"{s.SPACE}*-?(?:{keys}){s.SPACE}*"
    return {"type": "string", "pattern": rf"^{field_re}(?:,{field_re})*$"}


def _member_schema(collection: str, version: int | None) -> str:
    kind = KINDS[collection]
    if collection == "orders":
        return kind
    return f"{kind}{version or 'Any'}"


def entity_operation(collection: str, item: bool, method: str, version: int | None) -> Op:
    """An operation of the uniform interface on ``collection`` (``item``: on a member)."""
    kind = KINDS[collection].lower()
    member = _member_schema(collection, version)
    write_version = version or 1
    params: dict[str, Schema] = {"id": ID} if item else {}
    if not item and method == "GET":
        page = f"{KINDS[collection]}sPage"
        if collection != "orders":
            page += str(version) if version else "Any"
        return Op(
            f"A page of {collection}",
            (Reply(HTTPStatus.OK, f"A page of {collection}.", page, ("Link", *CACHED)),),
            (HTTPStatus.BAD_REQUEST,),
            query=("limit", "offset", "sort", *FILTERS[collection]),
        )
    body = s.INPUTS[collection](write_version)
    if not item:
        return Op(
            f"Create a {kind}",
            (
                Reply(
                    HTTPStatus.CREATED,
                    f"The new {kind}.",
                    member,
                    ("Location", "ETag"),
                    ("Location",),
                ),
            ),
            (*WRITE_PROBLEMS, HTTPStatus.CONFLICT),
            body=body,
            body_types=("application/json", HAL),
        )
    if method == "GET":
        return Op(
            f"Read a {kind}",
            (Reply(HTTPStatus.OK, f"The {kind}.", member, CACHED),),
            ITEM_PROBLEMS,
            path_params=params,
        )
    if method == "PUT":
        return Op(
            f"Replace a {kind} (or create it at this id)",
            (
                Reply(HTTPStatus.OK, f"The {kind}, replaced.", member, ("ETag",)),
                Reply(
                    HTTPStatus.CREATED,
                    f"The {kind}, created.",
                    member,
                    ("Location", "ETag"),
                    ("Location",),
                ),
            ),
            (*WRITE_PROBLEMS, *ITEM_PROBLEMS, HTTPStatus.CONFLICT),
            body=body,
            body_types=("application/json", HAL),
            path_params=params,
        )
    if method == "PATCH":
        return Op(
            f"Change part of a {kind}",
            (Reply(HTTPStatus.OK, f"The {kind}, changed.", member, ("ETag",)),),
            (*WRITE_PROBLEMS, *ITEM_PROBLEMS, HTTPStatus.CONFLICT),
            body=s.INPUTS[collection](write_version, partial=True),
            body_types=("application/merge-patch+json",),
            extra_bodies={"application/json-patch+json": s.json_patch(collection, write_version)},
            path_params=params,
        )
    return Op(
        f"Delete a {kind}",
        (Reply(HTTPStatus.NO_CONTENT, "Deleted; later reads answer 410 Gone."),),
        (
            *ITEM_PROBLEMS,
            HTTPStatus.CONFLICT,
            HTTPStatus.PRECONDITION_FAILED,
            HTTPStatus.PRECONDITION_REQUIRED,
        ),
        path_params=params,
    )


def _transition(action: str) -> Op:
    return Op(
        f"{action.capitalize()} an order",
        (Reply(HTTPStatus.OK, "The order in its new state.", "Order", ("ETag",)),),
        (
            HTTPStatus.NOT_FOUND,
            HTTPStatus.GONE,
            HTTPStatus.CONFLICT,
            HTTPStatus.PRECONDITION_FAILED,
            HTTPStatus.PRECONDITION_REQUIRED,
        ),
        path_params={"id": ID},
        body={},
        body_required=False,
        description="409 when the order's status does not allow this action now.",
    )


REDIRECTS = tuple(
    Reply(code, "One hop of the demo.", None, ("Location",), ("Location",))
    for code in (301, 302, 303, 307, 308)
)
ANY_BODY: Schema = {}
STATUS_CODE: Schema = {"type": "integer", "minimum": 100, "maximum": 599}


def _status_demo() -> Op:
    return Op(
        "Answer with any status code",
        (
            Reply("2XX", "A 2xx (206 carries text/plain bytes).", "Status"),
            Reply(HTTPStatus.NO_CONTENT, "No Content: no body, by definition."),
            Reply(HTTPStatus.RESET_CONTENT, "Reset Content: no body, by definition."),
            Reply(HTTPStatus.NOT_MODIFIED, "Not Modified: no body, by definition."),
            Reply(HTTPStatus.MULTI_STATUS, "A Multi-Status document.", "multistatus"),
            Reply("3XX", "A 3xx (Location to /status/200, but 304, 305, 306).", "Status"),
            Reply("4XX", "A 4xx problem, with the headers the code implies.", "problem"),
            Reply("5XX", "A 5xx problem, with the headers the code implies.", "problem"),
        ),
        (HTTPStatus.BAD_REQUEST,),
        path_params={"code": STATUS_CODE},
        body=ANY_BODY,
        body_required=False,
        description="1xx codes answer 200 explaining why they cannot be final; "
        "codes outside 100-599 answer 400.",
    )


def _page(summary: str, schema: str = "Resource", **kwargs: Any) -> Op:
    return Op(summary, (Reply(HTTPStatus.OK, summary + ".", schema, ("Cache-Control",)),), **kwargs)


def _static_operations() -> dict[tuple[str, str], Op]:
    ops: dict[tuple[str, str], Op] = {
        ("/", "GET"): _page("The entry point: links to everything"),
        ("/openapi.json", "GET"): Op(
            "This description", (Reply(HTTPStatus.OK, "OpenAPI 3.1.", "openapi"),)
        ),
        ("/favicon.ico", "GET"): Op(
            "The icon a browser shows in its tab",
            (Reply(HTTPStatus.OK, "A 16 by 16 PNG.", "png", ("Cache-Control",)),),
        ),
        ("/docs/rels", "GET"): _page("The link relations this server uses"),
        ("/docs/rels/{rel}", "GET"): _page(
            "One link relation, explained",
            problems=(HTTPStatus.NOT_FOUND,),
            path_params={"rel": {"type": "string"}},
        ),
        ("/docs/{page}", "GET"): _page(
            "A documentation page",
            problems=(HTTPStatus.NOT_FOUND,),
            path_params={"page": {"type": "string"}},
        ),
        ("/status", "GET"): _page("Every status code restwalk teaches"),
        ("/problems/{code}", "GET"): _page(
            "What a problem type means",
            problems=(HTTPStatus.NOT_FOUND,),
            path_params={"code": {"type": "string"}},
        ),
        ("/auth", "GET"): _page("How to log in"),
        ("/auth/token", "POST"): Op(
            "Get a bearer token (JSON, form, or Basic credentials)",
            (Reply(HTTPStatus.OK, "The token (OAuth 2.0 shape).", "token", ("Cache-Control",)),),
            (
                HTTPStatus.BAD_REQUEST,
                HTTPStatus.UNAUTHORIZED,
                HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                HTTPStatus.UNPROCESSABLE_ENTITY,
            ),
            body=s.LOGIN_INPUT,
            body_types=("application/json", "application/x-www-form-urlencoded"),
            body_required=False,
        ),
        ("/auth/token", "DELETE"): Op(
            "Revoke the bearer token sent (--token-mode stored)",
            (Reply(HTTPStatus.NO_CONTENT, "Revoked."),),
            (HTTPStatus.UNAUTHORIZED,),
        ),
        ("/auth/session", "POST"): Op(
            "Start a cookie session",
            (
                Reply(
                    HTTPStatus.NO_CONTENT,
                    "The session cookie is set.",
                    None,
                    ("Set-Cookie",),
                    ("Set-Cookie",),
                ),
            ),
            (
                HTTPStatus.BAD_REQUEST,
                HTTPStatus.UNAUTHORIZED,
                HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                HTTPStatus.UNPROCESSABLE_ENTITY,
            ),
            body=s.LOGIN_INPUT,
            body_types=("application/json", "application/x-www-form-urlencoded"),
            body_required=False,
        ),
        ("/auth/session", "DELETE"): Op(
            "End the cookie session", (Reply(HTTPStatus.NO_CONTENT, "Ended (also when none)."),)
        ),
        ("/auth/whoami", "GET"): _page("Who the credential sent belongs to"),
        ("/admin", "GET"): _page("The operator's actions"),
        ("/admin/reset", "POST"): Op(
            "Restore the seed data", (Reply(HTTPStatus.OK, "Reset.", "Resource"),)
        ),
        ("/admin/maintenance", "GET"): _page("Whether maintenance mode is on", "Maintenance"),
        ("/admin/maintenance", "POST"): Op(
            "Turn maintenance mode on or off (an empty body toggles it)",
            (Reply(HTTPStatus.OK, "The mode now.", "Maintenance"),),
            (
                HTTPStatus.BAD_REQUEST,
                HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                HTTPStatus.UNPROCESSABLE_ENTITY,
            ),
            body=s.MAINTENANCE_INPUT,
            body_types=("application/json", "application/x-www-form-urlencoded"),
            body_required=False,
        ),
        ("/redirect/{n}", "*"): Op(
            "A redirect chain of n hops (0-20), or one hop of code n (301-308) to /echo",
            (Reply(HTTPStatus.OK, "The end of the chain.", "Resource"), *REDIRECTS),
            (HTTPStatus.BAD_REQUEST,),
            path_params={
                "n": {
                    "anyOf": [
                        {"type": "integer", "minimum": 0, "maximum": 20},
                        {"enum": [301, 302, 303, 307, 308]},
                    ]
                }
            },
            body=ANY_BODY,
            body_required=False,
        ),
        ("/redirect-to", "*"): Op(
            "A redirect to a path on this server",
            REDIRECTS,
            (HTTPStatus.BAD_REQUEST,),
            query=("url!", "redirect-status"),
            body=ANY_BODY,
            body_required=False,
        ),
        ("/clients", "*"): Op(
            "The old address of customers", (REDIRECTS[0],), body=ANY_BODY, body_required=False
        ),
        ("/clients/{rest}", "*"): Op(
            "The old address of a customer",
            (REDIRECTS[0],),
            path_params={"rest": {"type": "string", "pattern": "^[^/]+$"}},
            body=ANY_BODY,
            body_required=False,
        ),
        ("/echo", "*"): Op(
            "The method, query and body this request arrived with",
            (Reply(HTTPStatus.OK, "The request, echoed.", "Echo"),),
            body=ANY_BODY,
            body_types=("application/json", "text/plain"),
            body_required=False,
        ),
        ("/status/{code}", "*"): _status_demo(),
        ("/reports", "GET"): _page("The report jobs started so far"),
        ("/reports", "POST"): Op(
            "Start a report of the orders (asynchronous)",
            (
                Reply(
                    HTTPStatus.ACCEPTED,
                    "The job; poll its Location.",
                    "Job",
                    ("Location",),
                    ("Location",),
                ),
            ),
            (
                HTTPStatus.BAD_REQUEST,
                HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                HTTPStatus.UNPROCESSABLE_ENTITY,
            ),
            body=s.REPORT_INPUT,
            body_required=False,
        ),
        ("/jobs/{id}", "GET"): Op(
            "A report job: 200 with Retry-After while running, 303 to the report when done",
            (
                Reply(HTTPStatus.OK, "Still running.", "Job", ("Retry-After",), ("Retry-After",)),
                Reply(
                    HTTPStatus.SEE_OTHER,
                    "Done: the report is at Location.",
                    "Job",
                    ("Location",),
                    ("Location",),
                ),
            ),
            (HTTPStatus.NOT_FOUND,),
            path_params={"id": ID},
        ),
        ("/reports/{id}", "GET"): Op(
            "A finished report, as CSV, whole or in byte ranges",
            (
                Reply(
                    HTTPStatus.OK,
                    "The whole report.",
                    "csv",
                    ("Accept-Ranges", "ETag", "Last-Modified"),
                    ("Accept-Ranges",),
                ),
                Reply(
                    HTTPStatus.PARTIAL_CONTENT,
                    "The ranges asked for (multipart/byteranges for several).",
                    "csv",
                    ("Accept-Ranges", "Content-Range"),
                ),
            ),
            (
                HTTPStatus.NOT_FOUND,
                HTTPStatus.NOT_ACCEPTABLE,
                HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
            ),
            headers=("Range", "If-Range"),
            path_params={"id": ID},
        ),
    }
    for action in ("place", "ship", "cancel"):
        ops[(f"/orders/{{id}}/{action}", "POST")] = _transition(action)
    return ops


STATIC = _static_operations()


def batch_operation(version: int | None, method: str) -> Op:
    """``GET`` or ``POST /customers/batch`` in ``version``."""
    if method == "GET":
        return _page("How to send a batch of customers")
    return Op(
        "Create many customers; 207 says what became of each",
        (Reply(HTTPStatus.MULTI_STATUS, "One status per item, in order.", "multistatus"),),
        WRITE_PROBLEMS,
        body=s.batch_input(version or 1),
        body_types=("application/json", HAL),
    )


def operation(path: str, method: str, version: int | None) -> Op | None:
    """The :class:`Op` of ``method`` on the unversioned ``path`` template, if described."""
    if path == "/customers/batch":
        return batch_operation(version, method) if method in ("GET", "POST") else None
    for collection in KINDS:
        if path == f"/{collection}":
            return entity_operation(collection, False, method, version)
        if path == f"/{collection}/{{id}}":
            return entity_operation(collection, True, method, version)
    found = STATIC.get((path, method)) or STATIC.get((path, "*"))
    if found is not None:
        return found
    return (
        extras.OPERATIONS.get((path, method))
        or extras.OPERATIONS.get((path, "*"))
        or oauth.OPERATIONS.get((path, method))
        or events.operation(path, method)
    )
