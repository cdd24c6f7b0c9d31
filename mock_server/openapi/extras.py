"""The operations of the test-backend endpoints: httpbin's, the faults index, the journal.

Kept apart from :mod:`mock_server.openapi.operations` (the teaching domain);
:func:`mock_server.openapi.operations.operation` falls back to
:data:`OPERATIONS`, and the document builder to :data:`PARAMETERS`. Most of
``/faults/{kind}`` answers below HTTP, which OpenAPI cannot describe: the
fuzzing test leaves it out.
"""

from __future__ import annotations

from http import HTTPStatus

from mock_server.openapi.model import Op, Reply
from mock_server.openapi.schemas import Schema

#: A cookie name or header name: an HTTP token (RFC 9110 section 5.6.2).
TOKEN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"
BAD = (HTTPStatus.BAD_REQUEST,)

PARAMETERS: dict[str, tuple[str, str, Schema]] = {
    "method": ("query", "Only requests with this method.", {"type": "string"}),
    "path": (
        "query",
        "Only requests to this path (a prefix when it ends with *).",
        {"type": "string"},
    ),
    "header": (
        "query",
        "Only requests with this header (NAME) or header value (NAME:VALUE).",
        {"type": "string", "pattern": "^[!#$%&'*+.^_`|~0-9A-Za-z-]+(:.*)?$"},
    ),
    "seed": (
        "query",
        "Makes the random bytes repeatable.",
        {"type": "integer", "minimum": 0, "maximum": 2**63},
    ),
    "duration": ("query", "Seconds to drip over.", {"type": "number", "minimum": 0, "maximum": 10}),
    "numbytes": (
        "query",
        "How many bytes.",
        {"type": "integer", "minimum": 1, "maximum": 10 * 1024 * 1024},
    ),
    "code": ("query", "The status.", {"type": "integer", "minimum": 200, "maximum": 599}),
    "delay": (
        "query",
        "Seconds before the first byte.",
        {"type": "number", "minimum": 0, "maximum": 10},
    ),
    "interval": (
        "query",
        "trickle: seconds between bytes (default 1).",
        {"type": "number", "minimum": 0, "maximum": 10},
    ),
    "seconds": (
        "query",
        "hang: seconds before the connection closes (default 30).",
        {"type": "number", "minimum": 0, "maximum": 300},
    ),
}


def _json(summary: str, *replies: Reply, **kwargs: object) -> Op:
    ok = Reply(HTTPStatus.OK, summary + ".", "json", ("Cache-Control",))
    return Op(summary, (ok, *replies), **kwargs)  # type: ignore[arg-type]


_COOKIE_REDIRECT = Reply(
    HTTPStatus.FOUND, "Done; see /cookies.", None, ("Location", "Set-Cookie"), ("Location",)
)
_ANY: Schema = {}

OPERATIONS: dict[tuple[str, str], Op] = {
    ("/_journal", "GET"): Op(
        "The requests received, oldest first (admin)",
        (Reply(HTTPStatus.OK, "The matching entries.", "Resource", ("Cache-Control",)),),
        BAD,
        query=("method", "path", "header"),
    ),
    ("/_journal", "DELETE"): Op(
        "Forget every request received (admin)", (Reply(HTTPStatus.NO_CONTENT, "Cleared."),)
    ),
    ("/_reset", "POST"): Op(
        "Restore the seed data, without a login (--allow-reset)",
        (Reply(HTTPStatus.NO_CONTENT, "Reset."),),
    ),
    ("/httpbin", "GET"): Op(
        "httpbin's endpoints, each a link",
        (Reply(HTTPStatus.OK, "The endpoints.", "Resource", ("Cache-Control",)),),
    ),
    ("/faults", "GET"): Op(
        "The connection faults, each a link",
        (Reply(HTTPStatus.OK, "The faults.", "Resource", ("Cache-Control",)),),
    ),
    ("/faults/{kind}", "*"): Op(
        "Answer with a connection fault (most break the connection: no HTTP answer)",
        (Reply("2XX", "trickle: a valid answer, slowly.", "text"),),
        (HTTPStatus.NOT_FOUND, HTTPStatus.NOT_IMPLEMENTED),
        query=("interval", "seconds"),
        path_params={"kind": {"enum": ["reset", "close", "length", "trickle", "hang"]}},
        body=_ANY,
        body_required=False,
    ),
    ("/anything", "*"): _json("The request echoed, httpbin's way", body=_ANY, body_required=False),
    ("/anything/{rest}", "*"): _json(
        "The request echoed, httpbin's way",
        path_params={"rest": {"type": "string"}},
        body=_ANY,
        body_required=False,
    ),
    ("/headers", "GET"): _json("The request's headers"),
    ("/ip", "GET"): _json("The client's address"),
    ("/user-agent", "GET"): _json("The request's User-Agent"),
    ("/cookies", "GET"): _json("The cookies sent"),
    ("/cookies/set", "GET"): Op("Set the cookies of the query", (_COOKIE_REDIRECT,), BAD),
    ("/cookies/set/{name}/{value}", "GET"): Op(
        "Set one cookie",
        (_COOKIE_REDIRECT,),
        BAD,
        path_params={
            "name": {"type": "string", "pattern": TOKEN},
            "value": {"type": "string", "pattern": "^[!#-+\\--:<-\\[\\]-~]*$"},
        },
    ),
    ("/cookies/delete", "GET"): Op("Delete the cookies named in the query", (_COOKIE_REDIRECT,)),
    ("/basic-auth/{user}/{passwd}", "GET"): _json(
        "Accept exactly these Basic credentials",
        problems=(HTTPStatus.UNAUTHORIZED,),
        path_params={"user": {"type": "string"}, "passwd": {"type": "string"}},
    ),
    ("/bearer", "GET"): _json("Accept any bearer token", problems=(HTTPStatus.UNAUTHORIZED,)),
    ("/cache", "GET"): _json("304 to any conditional request, else the request echoed"),
    ("/cache/{n}", "GET"): _json(
        "Cacheable for n seconds",
        problems=BAD,
        path_params={"n": {"type": "integer", "minimum": 0, "maximum": 10**9}},
    ),
    ("/etag/{etag}", "GET"): _json(
        "Answer with this ETag",
        problems=(HTTPStatus.BAD_REQUEST, HTTPStatus.PRECONDITION_FAILED),
        path_params={"etag": {"type": "string", "pattern": "^[!#-~]+$"}},
    ),
    ("/response-headers", "*"): _json(
        "Answer with the headers the query names", problems=BAD, body=_ANY, body_required=False
    ),
    ("/delay/{n}", "*"): _json(
        "Answer after n seconds",
        problems=BAD,
        path_params={"n": {"type": "number", "minimum": 0, "maximum": 10}},
        body=_ANY,
        body_required=False,
    ),
    ("/drip", "GET"): Op(
        "Bytes dripped over time",
        (
            Reply(HTTPStatus.OK, "numbytes asterisks.", "bytes"),
            Reply("2XX", "numbytes asterisks, with the status asked for.", "bytes"),
        ),
        BAD,
        query=("duration", "numbytes", "code", "delay"),
    ),
    ("/bytes/{n}", "GET"): Op(
        "n random bytes",
        (Reply(HTTPStatus.OK, "The bytes.", "bytes"),),
        BAD,
        query=("seed",),
        path_params={"n": {"type": "integer", "minimum": 0, "maximum": 100 * 1024}},
    ),
    ("/stream/{n}", "GET"): _json(
        "n JSON lines, streamed",
        problems=BAD,
        path_params={"n": {"type": "integer", "minimum": 0, "maximum": 100}},
    ),
}
