"""Redirect demos: a moved collection, chains of hops, and redirects that keep the method.

- ``/clients`` and ``/clients/{id}`` moved for good: 301 to ``/customers...``
  (the query is kept).
- ``/redirect/{n}``, ``n`` from 1 to :data:`MAX_HOPS`: 302 to ``/redirect/{n-1}``;
  ``/redirect/0`` is the end of the chain (200). More hops: 400.
- ``/redirect/{code}`` for 301, 302, 303, 307 and 308: one hop of that code to
  ``/echo``, which answers any method with the method and body it received.
  A client following 307 or 308 repeats the method and body; after 303 (and,
  by old browser habit, 301/302 on POST) it switches to GET.
- ``/redirect-to?url=/path&status=302``: a redirect to a *relative* URL of
  the client's choosing (never another host: no open redirect).
"""

from __future__ import annotations

import re
from http import HTTPStatus
from urllib.parse import quote, urlsplit

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.http.problems import Problem
from mock_server.representations.model import Link, Resource
from mock_server.representations.respond import respond
from mock_server.service import Service

#: The longest chain ``/redirect/{n}`` builds (browsers give up after about 20).
MAX_HOPS = 20
#: Redirect codes a client may ask ``/redirect/{code}`` and ``/redirect-to`` for.
REDIRECT_CODES: tuple[int, ...] = (
    HTTPStatus.MOVED_PERMANENTLY,
    HTTPStatus.FOUND,
    HTTPStatus.SEE_OTHER,
    HTTPStatus.TEMPORARY_REDIRECT,
    HTTPStatus.PERMANENT_REDIRECT,
)
ECHO_PATH = "/echo"
ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
#: How much of a request body the echo shows.
ECHO_LIMIT = 64 * 1024
_NUMBER = re.compile(r"^[0-9]{1,9}$")
#: Characters a URI reference may carry as they are (RFC 3986 reserved and unreserved, and %).
URI_CHARACTERS = "/?#[]@!$&'()*+,;=:%~-._"


def _redirect(status: int, location: str) -> Response:
    return Response(
        status_code=status,
        headers={"Location": location, "Cache-Control": "no-store"},
    )


def _with_query(request: Request, path: str) -> str:
    query = request.url.query
    return f"{path}?{query}" if query else path


def safe_target(url: str) -> str:
    """``url`` if it is a path on this server; a 400 problem otherwise (no open redirect)."""
    parts = urlsplit(url)
    if (
        not url.startswith("/")
        or url.startswith("//")
        or "\\" in url
        or parts.scheme
        or parts.netloc
        or any(ord(c) < 0x20 or c == "\x7f" for c in url)
    ):
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            f"url must be a path on this server starting with a single '/', got {url!r}: "
            "this demo never redirects to another host.",
            extra={"parameter": "url"},
        )
    return url


def _code(raw: str, default: int) -> int:
    if raw == "":
        return default
    if _NUMBER.match(raw) and int(raw) in REDIRECT_CODES:
        return int(raw)
    raise Problem(
        HTTPStatus.BAD_REQUEST,
        f"status must be one of {', '.join(map(str, REDIRECT_CODES))}, got {raw!r}.",
        extra={"parameter": "status"},
    )


async def clients(request: Request) -> Response:
    """``/clients[/{id}]``: moved permanently to ``/customers[/{id}]``."""
    rest = request.path_params.get("rest")
    target = "/customers" if rest is None else f"/customers/{quote(rest, safe='/')}"
    return _redirect(HTTPStatus.MOVED_PERMANENTLY, _with_query(request, target))


async def chain(request: Request) -> Response:
    """``/redirect/{n}``: one hop nearer the end of a chain, or a method-keeping demo hop."""
    raw: str = request.path_params["n"]
    number = int(raw) if _NUMBER.match(raw) else -1
    if number in REDIRECT_CODES:
        return _redirect(number, ECHO_PATH)
    if not 0 <= number <= MAX_HOPS:
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            f"/redirect/{{n}} takes a number of hops from 0 to {MAX_HOPS}, or a redirect "
            f"code ({', '.join(map(str, REDIRECT_CODES))}); got {raw!r}.",
            extra={"parameter": "n"},
        )
    if number > 0:
        return _redirect(HTTPStatus.FOUND, f"/redirect/{number - 1}")
    resource = Resource(
        kind="redirect-end",
        properties={"hops": 0, "description": "The end of the redirect chain."},
        links=[Link("self", "/redirect/0"), Link("start", f"/redirect/{MAX_HOPS}")],
    )
    return respond(request, resource)


async def redirect_to(request: Request) -> Response:
    """``/redirect-to?url=/path&status=302``: a redirect to a path of the client's choosing."""
    unknown = sorted(set(request.query_params) - {"url", "status"})
    if unknown:
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            f"Unknown query parameter {unknown[0]!r}; /redirect-to takes url and status.",
            extra={"parameter": unknown[0]},
        )
    url = request.query_params.get("url")
    if url is None:
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            "The query parameter url is required (a path on this server).",
            extra={"parameter": "url"},
        )
    status = _code(request.query_params.get("status", ""), HTTPStatus.FOUND)
    # Location is ASCII on the wire: other characters go percent-encoded (RFC 3986).
    return _redirect(status, quote(safe_target(url), safe=URI_CHARACTERS))


async def echo(request: Request) -> Response:
    """``/echo``: the method, query, content type and body this request arrived with."""
    body = await request.body()
    resource = Resource(
        kind="echo",
        properties={
            "method": request.method,
            "path": request.url.path,
            "query": request.url.query,
            "contentType": request.headers.get("content-type"),
            "bodyLength": len(body),
            "body": body[:ECHO_LIMIT].decode("utf-8", errors="replace"),
        },
        links=[Link("self", ECHO_PATH)],
    )
    return respond(request, resource, headers={"Cache-Control": "no-store"})


def routes(service: Service) -> list[BaseRoute]:
    """The redirect demos and the echo they lead to."""
    return [
        Route("/clients", clients, methods=ANY_METHOD),
        Route("/clients/{rest:path}", clients, methods=ANY_METHOD),
        Route("/redirect/{n}", chain, methods=ANY_METHOD),
        Route("/redirect-to", redirect_to, methods=ANY_METHOD),
        Route(ECHO_PATH, echo, methods=ANY_METHOD),
    ]
