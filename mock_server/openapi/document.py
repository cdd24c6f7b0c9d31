"""Building the OpenAPI 3.1 document from the app's own routes.

The paths and methods come from the routes :func:`mock_server.resources.build_routes`
makes for this service (minus methods turned off with ``--disable-method``),
so the document cannot list what the app does not serve. What each
operation takes and answers comes from :mod:`mock_server.openapi.operations`;
what they all share is added here:

- versioned collections appear three times: ``/customers`` (version 1 unless
  ``?version=`` or ``Custom-Header`` says otherwise), ``/v1/customers`` and
  ``/v2/customers``, each with the bodies of its version;
- HEAD beside every GET, OPTIONS (204 + ``Allow``) and TRACE (the request
  echoed as ``message/http``) on every path, as the method layer answers them;
- security from the authorization table (:mod:`mock_server.auth.policy`):
  a path that needs a role takes Basic, Bearer or the session cookie, and may
  answer 401 and 403; with the OAuth server on, also an OAuth token with the
  scope the table names (:mod:`mock_server.openapi.oauth`), and an operation
  open to anyone that names a scope may answer 401 and 403 to a token too;
- hypermedia answers in each offered media type (HAL first), and problem
  details (JSON or XML) for the listed errors and for what the layers may
  answer on any path (:data:`LAYER_ANSWERS`: limits, rate limiting,
  maintenance, injected faults). There is no ``default`` answer: every status
  an operation can give is listed, so a client (or a fuzzer) can rely on it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from http import HTTPStatus
from typing import Any, Protocol

from starlette.routing import BaseRoute, Route

from mock_server.auth.policy import ANY_TOKEN, required_role, rule_for
from mock_server.http import versions
from mock_server.http.statuses import phrase
from mock_server.openapi import events, extras
from mock_server.openapi import oauth as oauth_ops
from mock_server.openapi import operations as ops
from mock_server.openapi.model import Op, Reply
from mock_server.openapi.schemas import COMPONENTS, Schema, ref
from mock_server.representations.renderers import OFFERED
from mock_server.settings import Settings

OPENAPI_VERSION = "3.1.0"
PROBLEM_CONTENT: dict[str, Any] = {
    "application/problem+json": {"schema": ref("Problem")},
    "application/problem+xml": {"schema": {"type": "string"}},
}
SECURITY_SCHEMES: dict[str, Any] = {
    "basic": {
        "type": "http",
        "scheme": "basic",
        "description": "alice/wonderland, bob/builder, admin/admin.",
    },
    "bearer": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "restwalk token",
        "description": "From POST /auth/token.",
    },
    "cookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": "session",
        "description": "From POST /auth/session.",
    },
}
CREDENTIALS: list[dict[str, list[str]]] = [{"basic": []}, {"bearer": []}, {"cookie": []}]
#: Query parameter names the table calls something else (to keep its keys unique).
QUERY_ALIASES = {"redirect-status": "status"}
_CONVERTER = re.compile(r"\{(\w+)(?::\w+)?\}")
_METHOD_ORDER = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE")
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})

#: What the layers in front of every resource may answer, on any operation: a malformed
#: request or header (400), the protocol limits (408, 414, 417, 431), the rate limit (429),
#: a fault inside a handler (500), maintenance and injected faults (500, 502, 503, 504).
LAYER_ANSWERS: dict[HTTPStatus, dict[str, str]] = {
    HTTPStatus.BAD_REQUEST: {},
    HTTPStatus.REQUEST_TIMEOUT: {},
    HTTPStatus.REQUEST_URI_TOO_LONG: {},
    HTTPStatus.EXPECTATION_FAILED: {},
    HTTPStatus.TOO_MANY_REQUESTS: {"Retry-After": "Seconds until a request is allowed again."},
    HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE: {},
    HTTPStatus.INTERNAL_SERVER_ERROR: {},
    HTTPStatus.BAD_GATEWAY: {},
    HTTPStatus.SERVICE_UNAVAILABLE: {},
    HTTPStatus.GATEWAY_TIMEOUT: {},
}
#: And, on a method that takes a body: one without a length (411), or too long (413).
BODY_ANSWERS = (HTTPStatus.LENGTH_REQUIRED, HTTPStatus.REQUEST_ENTITY_TOO_LARGE)


def openapi_path(route_path: str) -> str:
    """A Starlette path (``/customers/{id:int}``) as an OpenAPI template (``/customers/{id}``)."""
    return _CONVERTER.sub(r"{\1}", route_path)


def served(routes: Iterable[BaseRoute], settings: Settings) -> dict[str, list[str]]:
    """OpenAPI path -> the methods the app answers there (HEAD with GET, OPTIONS, TRACE)."""
    found: dict[str, set[str]] = {}
    for route in routes:
        if isinstance(route, Route) and route.methods:
            found.setdefault(openapi_path(route.path), set()).update(route.methods)
    result: dict[str, list[str]] = {}
    for path, methods in found.items():
        methods |= {"OPTIONS", "TRACE"}
        if "GET" in methods:
            methods.add("HEAD")
        methods -= settings.disabled_methods
        result[path] = [m for m in _METHOD_ORDER if m in methods]
    return result


def _hyper_content(schema_name: str) -> dict[str, Any]:
    if schema_name in ("Resource", "Status"):
        schema = ref("HalResource")
    elif schema_name.endswith("Any"):
        base = schema_name.removesuffix("Any")
        schema = {"anyOf": [ref(f"{base}1"), ref(f"{base}2")]}
    else:
        schema = ref(schema_name)
    shapes = {
        "application/vnd.siren+json": ref("SirenEntity"),
        "application/vnd.api+json": ref("JsonApiDocument"),
        "application/xml": {"type": "string"},
    }
    return {media: {"schema": shapes.get(media, schema)} for media in OFFERED}


def _content(body: str) -> dict[str, Any]:
    if body == "problem":
        return PROBLEM_CONTENT
    if body == "csv":
        return {
            ops.CSV: {"schema": {"type": "string"}},
            "multipart/byteranges": {"schema": {"type": "string"}},
        }
    if body == "multistatus":
        return {
            "application/xml": {"schema": {"type": "string"}},
            "application/json": {"schema": ref("Multistatus")},
        }
    if body == "token":
        return {"application/json": {"schema": ref("Token")}}
    if body == "openapi":
        return {"application/json": {"schema": ref("OpenApi")}}
    if body == "text":
        return {"text/plain": {"schema": {"type": "string"}}}
    if body == "html":
        return {"text/html": {"schema": {"type": "string"}}}
    if body == oauth_ops.ERROR:
        return {"application/json": {"schema": ref("OAuthError")}, **PROBLEM_CONTENT}
    if body == oauth_ops.ERROR_OR_PAGE:
        return {
            "application/json": {"schema": ref("OAuthError")},
            "text/html": {"schema": {"type": "string"}},
            **PROBLEM_CONTENT,
        }
    if body.startswith("json:"):
        return {"application/json": {"schema": ref(body.removeprefix("json:"))}}
    if body == "json":
        return {"application/json": {"schema": {}}}
    if body == "png":
        return {"image/png": {"schema": {"type": "string", "contentMediaType": "image/png"}}}
    if body == "bytes":
        return {"application/octet-stream": {"schema": {"type": "string"}}}
    if body == "event-stream":
        # OpenAPI 3.1 cannot say what each event of a stream is; the Event schema does.
        return {
            "text/event-stream": {
                "schema": {"type": "string", "description": "data: lines are Event objects."}
            }
        }
    content = _hyper_content(body)
    if body == "Status":
        content = {**content, "text/plain": {"schema": {"type": "string"}}}
        content["application/json"] = {
            "schema": {"anyOf": [ref("HalResource"), ref("Multistatus")]}
        }
    return content


def _headers(names: tuple[str, ...], required: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in names:
        description, schema = ops.HEADERS[name]
        out[name] = {"description": description, "schema": schema, "required": name in required}
    return out


def _reply(reply: Reply, with_body: bool) -> dict[str, Any]:
    doc: dict[str, Any] = {"description": reply.description}
    if reply.headers:
        doc["headers"] = _headers(reply.headers, reply.required)
    if reply.body is not None and with_body:
        doc["content"] = _content(reply.body)
    return doc


def _problem(status: int, with_body: bool, **headers: str) -> dict[str, Any]:
    doc: dict[str, Any] = {"description": phrase(status) + " (problem details)."}
    if with_body:
        doc["content"] = PROBLEM_CONTENT
    if headers:
        doc["headers"] = {
            name: {"description": text, "schema": {"type": "string"}, "required": True}
            for name, text in headers.items()
        }
    return doc


def _parameter(name: str, collection: str | None) -> dict[str, Any]:
    required = name.endswith("!")
    name = name.rstrip("!")
    if name == "sort" and collection is not None:
        return {
            "name": "sort",
            "in": "query",
            "description": "Sort fields, '-' for descending.",
            "schema": ops.sort_schema(collection),
        }
    where, description, schema = ops.PARAMETERS.get(name) or extras.PARAMETERS[name]
    param: dict[str, Any] = {
        "name": QUERY_ALIASES.get(name, name),
        "in": where,
        "description": description,
        "schema": schema,
    }
    if required:
        param["required"] = True
    return param


def _collection_of(path: str) -> str | None:
    first = path.strip("/").split("/", 1)[0]
    return first if first in ops.KINDS else None


def _security(path: str, method: str, secured: bool, oauth: bool) -> list[dict[str, list[str]]]:
    """Who may: the credentials where a role is needed, and the OAuth scope if one grants it."""
    if not secured:
        return []
    scope = rule_for(path).scope(method)
    if not oauth or scope is None:
        return CREDENTIALS
    return [*CREDENTIALS, {"oauth2": [] if scope == ANY_TOKEN else [scope]}]


def _operation(
    path: str,
    method: str,
    version: int | None,
    secured: bool,
    data: DataOperations | None,
    oauth: bool = False,
) -> dict[str, Any]:
    lookup = "GET" if method == "HEAD" else method
    op = ops.operation(path, lookup, version)
    if op is None and data is not None:
        op = data.operation(path, lookup, version)
    if op is None:
        raise LookupError(f"The OpenAPI table does not describe {method} {path}.")
    with_body = method != "HEAD"
    collection = _collection_of(path)
    params = [_parameter(name, collection) for name in (*op.query, *op.headers)]
    for name, schema in op.path_params.items():
        params.append({"name": name, "in": "path", "required": True, "schema": schema})
    params.extend(op.parameters)
    if version is None and collection is not None and lookup in ("GET", "DELETE"):
        # Custom-Header selects a version too, but is not listed beside ``version``:
        # OpenAPI cannot say "not both with different values" (400). It is in
        # components.parameters, and the description says where it applies.
        params.append(_parameter("version", None))
    responses: dict[str, Any] = {str(r.status): _reply(r, with_body) for r in op.replies}
    for status in op.problems:
        responses.setdefault(str(status), _problem(status, with_body))
    if lookup == "GET" and path != "/openapi.json":
        responses.setdefault(
            str(HTTPStatus.NOT_MODIFIED),
            {"description": "Not Modified: the cached copy is still good."},
        )
        responses.setdefault(
            str(HTTPStatus.NOT_ACCEPTABLE), _problem(HTTPStatus.NOT_ACCEPTABLE, with_body)
        )
    # A token sent to an operation open to anyone may still be refused: 401 when it does
    # not hold, 403 when its scopes do not reach the operation.
    scoped = oauth and rule_for(path).scope(method) not in (None, ANY_TOKEN)
    if secured or scoped:
        responses.setdefault(
            "401",
            _problem(
                HTTPStatus.UNAUTHORIZED, with_body, **{"WWW-Authenticate": "The schemes accepted."}
            ),
        )
        responses.setdefault("403", _problem(HTTPStatus.FORBIDDEN, with_body))
    _add_layer_answers(responses, method, with_body)
    doc: dict[str, Any] = {
        "summary": op.summary,
        "operationId": _operation_id(method, path, version),
        "responses": responses,
        "security": _security(path, method, secured, oauth),
    }
    if op.description:
        doc["description"] = op.description
    if params:
        doc["parameters"] = params
    if op.body is not None and method not in ("GET", "HEAD", "DELETE"):
        content = {media: {"schema": op.body} for media in op.body_types}
        content.update({media: {"schema": schema} for media, schema in op.extra_bodies.items()})
        doc["requestBody"] = {"required": op.body_required, "content": content}
    return doc


def _add_layer_answers(responses: dict[str, Any], method: str, with_body: bool) -> None:
    """Add what the layers may answer on any ``method`` request (:data:`LAYER_ANSWERS`)."""
    for status, headers in LAYER_ANSWERS.items():
        responses.setdefault(str(status), _problem(status, with_body, **headers))
    if method in _BODY_METHODS:
        for status in BODY_ANSWERS:
            responses.setdefault(str(status), _problem(status, with_body))


def _operation_id(method: str, path: str, version: int | None) -> str:
    words = [w for w in re.split(r"[^A-Za-z0-9]+", path) if w]
    prefix = f"v{version}_" if version else ""
    return prefix + method.lower() + "_" + ("_".join(words) or "root")


def _options(path: str, params: list[dict[str, Any]], secured: bool) -> dict[str, Any]:
    """OPTIONS, answered by the method layer where a route matches.

    Where none matches (``/orders/-1``), the request goes on like any other:
    to authentication on a protected path (401), then to the router (404).
    """
    doc: dict[str, Any] = {
        **({"parameters": params} if params else {}),
        "summary": "The methods this path allows",
        "operationId": _operation_id("OPTIONS", path, None),
        "security": [],
        "responses": {
            "204": {
                "description": "No Content; Allow lists the methods.",
                "headers": _headers(("Allow",), ("Allow",)),
            },
        },
    }
    responses = doc["responses"]
    responses[str(HTTPStatus.NOT_FOUND)] = _problem(HTTPStatus.NOT_FOUND, True)
    if secured:
        responses[str(HTTPStatus.UNAUTHORIZED)] = _problem(
            HTTPStatus.UNAUTHORIZED, True, **{"WWW-Authenticate": "The schemes accepted."}
        )
        responses[str(HTTPStatus.FORBIDDEN)] = _problem(HTTPStatus.FORBIDDEN, True)
    _add_layer_answers(responses, "OPTIONS", with_body=True)
    return doc


def _trace(path: str, params: list[dict[str, Any]]) -> dict[str, Any]:
    doc: dict[str, Any] = {
        **({"parameters": params} if params else {}),
        "summary": "The request as the server received it (credentials masked)",
        "operationId": _operation_id("TRACE", path, None),
        "security": [],
        "responses": {
            "200": {
                "description": "The request.",
                "content": {"message/http": {"schema": {"type": "string"}}},
            },
        },
    }
    _add_layer_answers(doc["responses"], "TRACE", with_body=True)
    return doc


def _path_parameters(path: str, method: str) -> list[dict[str, Any]]:
    """The path parameters of ``path`` as OPTIONS and TRACE take them.

    The method layer answers those two before any resource checks a value:
    OPTIONS wherever a route matches (digits for an ``int`` id), TRACE anywhere.
    """
    params = []
    for name in re.findall(r"\{(\w+)\}", path):
        schema: Schema = {"type": "string"}
        if name == "id" and method == "OPTIONS":
            schema = {"type": "integer", "minimum": 0}
        params.append({"name": name, "in": "path", "required": True, "schema": schema})
    return params


def _path_item(
    path: str,
    methods: list[str],
    version: int | None,
    data: DataOperations | None = None,
    oauth: bool = False,
) -> dict[str, Any]:
    item: dict[str, Any] = {}
    shown = path if version is None else f"/v{version}{path}"
    for method in methods:
        if method == "OPTIONS":
            secured = required_role(method, path) is not None
            item["options"] = _options(shown, _path_parameters(path, method), secured)
        elif method == "TRACE":
            item["trace"] = _trace(shown, _path_parameters(path, method))
        else:
            secured = required_role(method, path) is not None
            item[method.lower()] = _operation(path, method, version, secured, data, oauth)
    return item


class DataOperations(Protocol):
    """The operations of ``--data`` collections (:mod:`mock_server.userdata.openapi`)."""

    names: frozenset[str]
    components: dict[str, Schema]

    def operation(self, path: str, method: str, version: int | None) -> Op | None:
        """The operation of ``method`` on ``path``, if it is one of theirs."""


def build_document(
    routes: Iterable[BaseRoute], settings: Settings, data: DataOperations | None = None
) -> dict[str, Any]:
    """The OpenAPI 3.1 document of the app whose routes are ``routes``.

    ``data`` describes the collections of ``--data``, if any.
    """
    paths: dict[str, Any] = {}
    # Literal segments before templated ones, so /customers/batch is not read as /customers/{id}.
    by_path = sorted(served(routes, settings).items(), key=lambda kv: kv[0].replace("{", "~"))
    for path, methods in by_path:
        paths[path] = _path_item(path, methods, None, data, settings.oauth)
        in_data = data is not None and path.split("/")[1] in data.names
        if versions.is_versioned_path(path) or in_data:
            for version in versions.SUPPORTED_VERSIONS:
                paths[f"/v{version}{path}"] = _path_item(
                    path, methods, version, data, settings.oauth
                )
    schemas: dict[str, Schema] = {**COMPONENTS, **events.COMPONENTS}
    security_schemes = dict(SECURITY_SCHEMES)
    if settings.oauth:
        schemas.update(oauth_ops.SCHEMAS)
        security_schemes["oauth2"] = oauth_ops.SECURITY_SCHEME
    if data is not None:
        schemas.update(data.components)
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "restwalk-mock",
            "version": "1.0.0",
            "description": "A complete REST/HTTP teaching service: hypermedia (HAL, Siren, "
            "JSON:API, XML), versions, paging, conditional requests, authentication, every "
            "status code. Start at / and follow the links. Versions: /v1/..., /v2/..., "
            "?version=N, or the request header Custom-Header: api-version=N (see "
            "components.parameters) on customers, products and orders; two markers that "
            "disagree answer 400.",
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "webhooks": events.WEBHOOKS,
        "components": {
            "schemas": schemas,
            "securitySchemes": security_schemes,
            "parameters": {"Custom-Header": _parameter("Custom-Header", None)},
        },
    }
