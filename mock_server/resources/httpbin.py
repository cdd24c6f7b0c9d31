"""httpbin's request-inspection endpoints, with httpbin's JSON field names.

People test HTTP clients against httpbin; these answer the same way, so such
tests run against the mock unchanged:

- ``/anything`` (and below it), any method: ``args``, ``data``, ``files``,
  ``form``, ``headers``, ``json``, ``method``, ``origin``, ``url``;
- ``/headers``, ``/ip``, ``/user-agent``;
- ``/cookies``, ``/cookies/set?name=value`` (and ``/cookies/set/{name}/{value}``),
  ``/cookies/delete?name``: the last two redirect to ``/cookies`` (302);
- ``/basic-auth/{user}/{passwd}`` and ``/bearer``: 200 with the credential,
  else 401 with a challenge (and a problem body, as every error here);
- ``/cache`` (304 for any conditional request), ``/cache/{n}``
  (``Cache-Control: public, max-age=n``), ``/etag/{etag}`` (304 / 412);
- ``/response-headers?Name=value``: those headers, echoed in the body too; a
  ``Content-Type`` a browser would run as code (HTML, XML, SVG, PDF, JavaScript,
  or no single type) is a 400 (:mod:`mock_server.http.active_content`).

``/httpbin`` links to each (the entry point links to it).

The streaming ones (``/delay``, ``/drip``, ``/bytes``, ``/stream``) live in
:mod:`mock_server.resources.httpbin_streams`. Credentials sent here are the
endpoint's own business: the policy table lets them through uninspected.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import re
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qsl

import orjson
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from mock_server.http.active_content import active_kind
from mock_server.http.etag import strong_etag
from mock_server.http.preconditions import ANY, MAX_AGE, http_date, parse_etag_list
from mock_server.http.problems import Problem
from mock_server.representations.model import Link, Resource
from mock_server.representations.respond import respond
from mock_server.service import Service

#: Every method /anything answers (the method policy layer keeps TRACE and OPTIONS).
ANY_METHOD = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
MAX_CACHE_SECONDS = 10**9
INDEX_PATH = "/httpbin"
#: What /cache answers with, as httpbin does.
CACHE_PUBLIC = "public, max-age=60"
#: The index's links: (rel, path, title, templated).
LINKS: list[tuple[str, str, str, bool]] = [
    ("rw:anything", "/anything", "Echo the request: method, args, headers, body, form", False),
    ("rw:headers", "/headers", "The request's headers", False),
    ("rw:ip", "/ip", "The client's address", False),
    ("rw:user-agent", "/user-agent", "The request's User-Agent", False),
    ("rw:cookies", "/cookies", "The cookies sent; /cookies/set?k=v, /cookies/delete?k", False),
    ("rw:basic-auth", "/basic-auth/{user}/{passwd}", "Basic auth for chosen credentials", True),
    ("rw:bearer", "/bearer", "Any bearer token is accepted and shown", False),
    ("rw:delay", "/delay/{n}", "Answer after n seconds (at most 10)", True),
    ("rw:drip", "/drip{?duration,numbytes,code,delay}", "Bytes dripped over time", True),
    ("rw:bytes", "/bytes/{n}{?seed}", "n random bytes", True),
    ("rw:stream", "/stream/{n}", "n JSON lines, streamed", True),
    ("rw:cache", "/cache/{n}", "Cache-Control: public, max-age=n", True),
    ("rw:etag", "/etag/{etag}", "An ETag of your choice; If-None-Match and If-Match", True),
    ("rw:response-headers", "/response-headers{?name}", "Answer with the headers asked", True),
]
#: An HTTP token (RFC 9110 section 5.6.2): a header or cookie name.
TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
#: A field value: visible characters, spaces and tabs inside (RFC 9110 section 5.5).
FIELD_VALUE = re.compile(r"^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$")
#: An entity tag's opaque characters (RFC 9110 section 8.8.3).
ETAG_CHARACTERS = re.compile(r"^[\x21\x23-\x7e]+$")
#: Headers whose value is the connection's business, not a test's: framing and hops.
FRAMING_HEADERS = frozenset(
    {"content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer"}
)


def json_response(document: Any, status: int = HTTPStatus.OK, **kwargs: Any) -> Response:
    """``document`` as pretty JSON, as httpbin prints it."""
    content = orjson.dumps(document, option=orjson.OPT_INDENT_2) + b"\n"
    return Response(content, status, media_type="application/json", **kwargs)


def header_dict(request: Request) -> dict[str, str]:
    """The request's headers with httpbin's Title-Case names; repeats joined by commas."""
    found: dict[str, str] = {}
    for raw_name, raw_value in request.headers.raw:
        name = "-".join(part.capitalize() for part in raw_name.decode("latin-1").split("-"))
        value = raw_value.decode("latin-1")
        found[name] = f"{found[name]},{value}" if name in found else value
    return found


def args_dict(pairs: list[tuple[str, str]]) -> dict[str, str | list[str]]:
    """Query or form pairs the httpbin way: one value as a string, several as a list."""
    found: dict[str, str | list[str]] = {}
    for name, value in pairs:
        if name not in found:
            found[name] = value
            continue
        previous = found[name]
        found[name] = [*previous, value] if isinstance(previous, list) else [previous, value]
    return found


def origin(request: Request) -> str:
    """The client's address, httpbin's ``origin``."""
    return request.client.host if request.client else ""


def full_url(request: Request) -> str:
    """The URL the client asked for."""
    return str(request.url)


def parse_multipart(
    content_type: str, body: bytes
) -> tuple[list[tuple[str, str]], dict[str, str | list[str]]]:
    """The form fields and the files of a ``multipart/form-data`` body.

    Files are shown as httpbin shows them: their content as text (or as a
    ``data:`` URL when not UTF-8). A malformed body is a 400 problem.
    """
    # Imported here, with the first multipart body: email's policies and header registry
    # would be some 3 ms of every start of the server.
    import email.parser
    import email.policy

    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    if not message.is_multipart():
        raise Problem(HTTPStatus.BAD_REQUEST, "The multipart/form-data body is malformed.")
    form: list[tuple[str, str]] = []
    files: list[tuple[str, str]] = []
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        if part.get_filename() is not None:
            try:
                shown = data.decode("utf-8")
            except UnicodeDecodeError:
                kind = part.get_content_type()
                shown = f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"
            files.append((name, shown))
        else:
            form.append((name, data.decode("utf-8", errors="replace")))
    return form, args_dict(files)


async def echo(request: Request) -> dict[str, Any]:
    """httpbin's description of ``request``: what ``/anything`` answers."""
    body = await request.body()
    content_type = request.headers.get("content-type", "")
    media_type = content_type.partition(";")[0].strip().lower()
    form: dict[str, str | list[str]] = {}
    files: dict[str, str | list[str]] = {}
    data = ""
    document: Any = None
    if media_type == "application/x-www-form-urlencoded":
        form = args_dict(parse_qsl(body.decode("latin-1"), keep_blank_values=True))
    elif media_type == "multipart/form-data":
        pairs, files = parse_multipart(content_type, body)
        form = args_dict(pairs)
    else:
        data = body.decode("utf-8", errors="replace")
        if body:
            try:
                document = orjson.loads(body)
            except orjson.JSONDecodeError:
                document = None
    return {
        "args": args_dict(request.query_params.multi_items()),
        "data": data,
        "files": files,
        "form": form,
        "headers": header_dict(request),
        "json": document,
        "method": request.method,
        "origin": origin(request),
        "url": full_url(request),
    }


def _count(raw: str, name: str, high: int) -> int:
    if not raw.isascii() or not raw.isdigit() or int(raw) > high:
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            f"{name} must be a whole number from 0 to {high}, got {raw!r}.",
            extra={"parameter": name},
        )
    return int(raw)


def _unauthorized(challenge: str, detail: str) -> Problem:
    return Problem(HTTPStatus.UNAUTHORIZED, detail, headers={"WWW-Authenticate": challenge})


def _cookie_redirect() -> RedirectResponse:
    return RedirectResponse("/cookies", status_code=HTTPStatus.FOUND)


def _check_field(name: str, value: str, what: str) -> None:
    """A 400 problem unless ``name`` is a token and ``value`` a valid field value."""
    if not TOKEN.match(name):
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            f"{name!r} cannot be a {what} name: it must be a token "
            "(letters, digits and !#$%&'*+.^_`|~-).",
        )
    if not FIELD_VALUE.match(value):
        raise Problem(
            HTTPStatus.BAD_REQUEST,
            f"The value of {name} cannot be sent as a {what}: "
            "it has control or non-ASCII characters.",
        )


def routes(service: Service) -> list[BaseRoute]:
    """The httpbin routes."""

    async def anything(request: Request) -> Response:
        return json_response(await echo(request))

    async def headers(request: Request) -> Response:
        return json_response({"headers": header_dict(request)})

    async def ip(request: Request) -> Response:
        return json_response({"origin": origin(request)})

    async def user_agent(request: Request) -> Response:
        return json_response({"user-agent": request.headers.get("user-agent")})

    async def cookies(request: Request) -> Response:
        return json_response({"cookies": dict(request.cookies)})

    async def set_cookies(request: Request) -> Response:
        response = _cookie_redirect()
        for name, value in request.query_params.multi_items():
            _check_field(name, value, "cookie")
            response.set_cookie(name, value, path="/")
        return response

    async def set_cookie(request: Request) -> Response:
        name, value = request.path_params["name"], request.path_params["value"]
        _check_field(name, value, "cookie")
        response = _cookie_redirect()
        response.set_cookie(name, value, path="/")
        return response

    async def delete_cookies(request: Request) -> Response:
        response = _cookie_redirect()
        for name in request.query_params:
            _check_field(name, "", "cookie")
            response.delete_cookie(name, path="/")
        return response

    async def basic_auth(request: Request) -> Response:
        user, password = request.path_params["user"], request.path_params["passwd"]
        scheme, _, credentials = request.headers.get("authorization", "").partition(" ")
        given = b""
        if scheme.lower() == "basic":
            try:
                given = base64.b64decode(credentials.strip(), validate=True)
            except (binascii.Error, ValueError):
                given = b""
        if not hmac.compare_digest(given, f"{user}:{password}".encode()):
            raise _unauthorized(
                'Basic realm="Fake Realm"',
                f"Send Basic credentials for user {user!r} with password {password!r}.",
            )
        return json_response({"authenticated": True, "user": user})

    async def bearer(request: Request) -> Response:
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise _unauthorized("Bearer", "Send any token as 'Authorization: Bearer <token>'.")
        return json_response({"authenticated": True, "token": token.strip()})

    def not_modified(fields: dict[str, str], max_age: int) -> Response:
        """A 304 with what its 200 would carry (RFC 9110 15.4.5: ETag, Vary, Date,
        Cache-Control and Expires), which the conditional layer adds to a 200 only."""
        now = float(int(service.clock()))
        return Response(
            status_code=HTTPStatus.NOT_MODIFIED,
            headers={
                **fields,
                "Date": http_date(now),
                "Expires": http_date(now + max_age),
                "Vary": "Accept-Encoding",  # (the negotiation layer adds Accept)
            },
        )

    async def cache(request: Request) -> Response:
        answer = json_response(await echo(request), headers={"Cache-Control": CACHE_PUBLIC})
        if "if-modified-since" in request.headers or "if-none-match" in request.headers:
            etag = strong_etag(bytes(answer.body))  # the ETag the 200 would have had
            return not_modified({"Cache-Control": CACHE_PUBLIC, "ETag": etag}, 60)
        return answer

    async def cache_for(request: Request) -> Response:
        seconds = _count(request.path_params["n"], "n", MAX_CACHE_SECONDS)
        return json_response(
            await echo(request), headers={"Cache-Control": f"public, max-age={seconds}"}
        )

    async def etag(request: Request) -> Response:
        tag = request.path_params["etag"]
        if not ETAG_CHARACTERS.match(tag):
            raise Problem(
                HTTPStatus.BAD_REQUEST,
                f"{tag!r} cannot be an entity tag: visible ASCII characters but '\"' only.",
            )
        quoted = f'"{tag}"'
        if_none_match = _tags(request.headers.get("if-none-match"))
        if_match = _tags(request.headers.get("if-match"))
        if if_none_match is not None and (tag in if_none_match or "*" in if_none_match):
            return not_modified({"ETag": quoted, "Cache-Control": f"max-age={MAX_AGE}"}, MAX_AGE)
        if if_match is not None and tag not in if_match and "*" not in if_match:
            raise Problem(
                HTTPStatus.PRECONDITION_FAILED,
                f"If-Match does not name this resource's ETag, {quoted}.",
                headers={"ETag": quoted},
            )
        return json_response(await echo(request), headers={"ETag": quoted})

    async def response_headers(request: Request) -> Response:
        pairs = request.query_params.multi_items()
        for name, value in pairs:
            _check_field(name, value, "header")
            if name.lower() in FRAMING_HEADERS:
                raise Problem(
                    HTTPStatus.BAD_REQUEST,
                    f"{name} belongs to the connection, not to a test: it cannot be set here.",
                    extra={"parameter": name},
                )
            kind = active_kind(value) if name.lower() == "content-type" else None
            if kind is not None:
                raise Problem(
                    HTTPStatus.BAD_REQUEST,
                    f"Content-Type {value!r} cannot be echoed: a browser would {kind}, "
                    "and this body is the request's own text, so any web page could "
                    "run its script as this server. Echoes take passive types: "
                    "application/json, text/plain, text/csv, image/png...",
                    extra={"parameter": name},
                )
        document: dict[str, Any] = {"Content-Type": "application/json"}
        document.update(args_dict(pairs))
        response = json_response(document)
        for name, value in pairs:
            if name.lower() == "content-type":
                response.headers["Content-Type"] = value
            else:
                response.headers.append(name, value)
        return response

    async def index(request: Request) -> Response:
        resource = Resource(
            kind="httpbin",
            properties={"description": "httpbin's endpoints, answering as httpbin does."},
            links=[
                Link("self", INDEX_PATH, title="httpbin's endpoints"),
                *(Link(rel, path, title, templated) for rel, path, title, templated in LINKS),
                Link("rw:root", "/", title="Entry point"),
            ],
        )
        return respond(request, resource)

    return [
        Route(INDEX_PATH, index, methods=["GET"]),
        Route("/anything", anything, methods=ANY_METHOD),
        Route("/anything/{rest:path}", anything, methods=ANY_METHOD),
        Route("/headers", headers, methods=["GET"]),
        Route("/ip", ip, methods=["GET"]),
        Route("/user-agent", user_agent, methods=["GET"]),
        Route("/cookies", cookies, methods=["GET"]),
        Route("/cookies/set", set_cookies, methods=["GET"]),
        Route("/cookies/set/{name}/{value}", set_cookie, methods=["GET"]),
        Route("/cookies/delete", delete_cookies, methods=["GET"]),
        Route("/basic-auth/{user}/{passwd}", basic_auth, methods=["GET"]),
        Route("/bearer", bearer, methods=["GET"]),
        Route("/cache", cache, methods=["GET"]),
        Route("/cache/{n}", cache_for, methods=["GET"]),
        Route("/etag/{etag}", etag, methods=["GET"]),
        Route("/response-headers", response_headers, methods=["GET", "POST"]),
    ]


def _tags(value: str | None) -> set[str] | None:
    """The opaque tags of an If-Match / If-None-Match value (``{"*"}`` for ``*``)."""
    if value is None:
        return None
    found = parse_etag_list(value)
    return {ANY} if found == ANY else {tag.opaque for tag in found}
