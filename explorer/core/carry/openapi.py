"""The operations of an OpenAPI 3.0 or 3.1 document, and a request for each.

:func:`read_document` parses the text (JSON, or YAML with PyYAML installed)
and :func:`describe` lists the operations: method, path, summary,
operationId, parameters, an example body and the security schemes each
takes. :func:`operation_request` makes the request the composer opens on.

References are followed, bounded against cycles, and examples built from
schemas in :mod:`~explorer.core.carry.openapi_schema`.

The maintained libraries were weighed: ``openapi-spec-validator`` and
``openapi-core`` validate documents and requests (with jsonschema and its
referencing stack, a dozen packages); listing operations needs neither, and
their reference resolution reads external files and URLs, which restwalk
must not do on a server's word. This module reads only what it lists.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urljoin

import orjson

from explorer.core.carry.openapi_schema import (
    MAX_DEPTH,
    Resolver,
    example_of,
    example_text,
    first_example,
)
from explorer.core.http.errors import InvalidRequest
from explorer.core.http.request import (
    BasicAuth,
    BearerAuth,
    CookieSession,
    LoginFlow,
    RequestSpec,
)

__all__ = [
    "MAX_DEPTH",
    "ApiDescription",
    "OpenApiError",
    "Operation",
    "Parameter",
    "SecurityScheme",
    "describe",
    "operation_request",
    "read_document",
]

#: The most operations listed from one document.
MAX_OPERATIONS = 5000
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


class OpenApiError(InvalidRequest):
    """The document cannot be read as OpenAPI 3; the message says why."""

    explanation = "This is not an OpenAPI 3 document restwalk can read."
    hint = ""


@dataclass(frozen=True)
class Parameter:
    """One parameter of an operation: where it goes, whether it must, an example value."""

    name: str
    location: str  # path, query, header, cookie
    required: bool = False
    description: str = ""
    example: str | None = None
    type: str = ""


@dataclass(frozen=True)
class SecurityScheme:
    """A way to authenticate, as ``components.securitySchemes`` names it."""

    name: str
    type: str  # http, apiKey, oauth2, openIdConnect, mutualTLS
    scheme: str = ""  # for http: bearer, basic...
    location: str = ""  # for apiKey: header, query, cookie
    key_name: str = ""  # for apiKey: the header, parameter or cookie name
    #: For oauth2: the password flow's ``tokenUrl`` (as written: relative to the server).
    token_url: str = ""

    @property
    def label(self) -> str:
        """``bearer (http)``, ``api_key: header X-API-Key``."""
        if self.type == "http":
            return f"{self.name}: HTTP {self.scheme or 'auth'}"
        if self.type == "apiKey":
            return f"{self.name}: API key in {self.location} {self.key_name}"
        if self.token_url:
            return f"{self.name}: OAuth 2.0 password, token at {self.token_url}"
        return f"{self.name}: {self.type}"


@dataclass(frozen=True)
class Operation:
    """One operation: a method on a path, and what it takes."""

    method: str
    path: str
    summary: str = ""
    operation_id: str = ""
    parameters: tuple[Parameter, ...] = ()
    body_media_type: str | None = None
    body_example: str | None = None
    body_required: bool = False
    security: tuple[SecurityScheme, ...] = ()
    deprecated: bool = False
    #: What was not read of it (an external $ref...), in words.
    notes: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """One line: ``GET /pets/{id}  Find pet by ID``."""
        text = f"{self.method} {self.path}"
        said = self.summary or self.operation_id
        return f"{text}  {said}" if said else text


@dataclass(frozen=True)
class ApiDescription:
    """What a document describes: its title, servers and operations."""

    title: str
    version: str
    openapi: str
    servers: tuple[str, ...]
    operations: tuple[Operation, ...] = field(default_factory=tuple)


# --- reading the text --------------------------------------------------------------------


def read_document(data: bytes, *, name: str = "the document") -> dict[str, Any]:
    """The document in ``data``: JSON, or YAML when it is not JSON (needs PyYAML).

    Raises :class:`OpenApiError` for text that is neither, a document that is not
    an object, a Swagger 2.0 document, or one with no ``openapi: 3.x``; each
    message is one sentence naming ``name``.
    """
    try:
        document = orjson.loads(data)
    except orjson.JSONDecodeError:
        document = _yaml(data, name)
    if not isinstance(document, dict):
        raise OpenApiError(
            f"{name} is not an OpenAPI 3 document: it is not an object with an "
            "'openapi: 3.x' field."
        )
    if "swagger" in document:
        raise OpenApiError(
            f"{name} is a Swagger {document.get('swagger')} document; restwalk reads "
            "OpenAPI 3.0 and 3.1.",
            hint="Convert it (for instance with swagger2openapi) first.",
        )
    version = document.get("openapi")
    if version is None:
        raise OpenApiError(f"{name} is not an OpenAPI 3 document: it has no 'openapi' field.")
    if not isinstance(version, str) or not version.startswith("3."):
        raise OpenApiError(
            f"{name} is not an OpenAPI 3 document: its 'openapi' field says {version!r}."
        )
    return document


#: A top-level ``openapi:`` (or ``swagger:``) key, as a YAML description starts.
_OPENAPI_KEY = re.compile(rb"^[\"']?(?:openapi|swagger)[\"']?\s*:", re.MULTILINE)


def _yaml(data: bytes, name: str) -> Any:
    try:
        import yaml
    except ImportError:
        if _OPENAPI_KEY.search(data) is None:
            raise OpenApiError(
                f"{name} is not an OpenAPI document: it is neither JSON nor YAML with an "
                "'openapi:' key."
            ) from None
        raise OpenApiError(
            f"{name} is an OpenAPI document in YAML, and reading YAML needs PyYAML.",
            hint="pip install 'restwalk[yaml]'",
        ) from None
    try:
        # libyaml's safe loader when PyYAML was built with it: ten times faster.
        return yaml.load(data, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (at line {where.line + 1})" if where is not None else ""
        raise OpenApiError(
            f"{name} is not an OpenAPI document: it is neither JSON nor YAML{line}."
        ) from None


# --- operations -------------------------------------------------------------------------


def _parameters(
    raw: Any, inherited: tuple[Parameter, ...], resolver: Resolver
) -> tuple[Parameter, ...]:
    found = {(p.name, p.location): p for p in inherited}
    for item in raw[:200] if isinstance(raw, list) else []:
        node, seen = resolver.resolve(item)
        if not isinstance(node, Mapping):
            continue
        name, location = node.get("name"), node.get("in")
        if not isinstance(name, str) or not isinstance(location, str):
            continue
        schema = node.get("schema")
        has, example = first_example(node, resolver)
        if not has:
            example = example_of(schema, resolver, seen)
        schema_node, _ = resolver.resolve(schema, seen)
        kind = schema_node.get("type", "") if isinstance(schema_node, Mapping) else ""
        found[(name, location)] = Parameter(
            name=name,
            location=location,
            required=bool(node.get("required")) or location == "path",
            description=str(node.get("description") or "").strip(),
            example=None if example is None else example_text(example),
            type=str(kind) if isinstance(kind, str) else "",
        )
    return tuple(found.values())


_BODY_PREFERENCE = ("application/json", "application/x-www-form-urlencoded", "multipart/form-data")


def _body(raw: Any, resolver: Resolver) -> tuple[str | None, str | None, bool]:
    """The request body's media type, an example of it, and whether it is required."""
    node, seen = resolver.resolve(raw)
    if not isinstance(node, Mapping) or not isinstance(node.get("content"), Mapping):
        return None, None, False
    content = node["content"]
    media = next((m for m in _BODY_PREFERENCE if m in content), None)
    media = media or next((m for m in content if "json" in m), None) or next(iter(content), None)
    if media is None:
        return None, None, False
    entry, _ = resolver.resolve(content[media], seen)
    example: Any = None
    if isinstance(entry, Mapping):
        has, example = first_example(entry, resolver)
        if not has:
            example = example_of(entry.get("schema"), resolver, seen)
    text = None
    if example is not None:
        if media == "application/x-www-form-urlencoded" and isinstance(example, dict):
            from urllib.parse import urlencode

            text = urlencode({k: example_text(v) for k, v in example.items() if v is not None})
        elif "json" in media or not isinstance(example, str):
            text = json.dumps(example, indent=2, ensure_ascii=False)
        else:
            text = example
    return str(media), text, bool(node.get("required"))


def _schemes(document: Mapping[str, Any], resolver: Resolver) -> dict[str, SecurityScheme]:
    components = document.get("components")
    raw = components.get("securitySchemes") if isinstance(components, Mapping) else None
    schemes: dict[str, SecurityScheme] = {}
    if not isinstance(raw, Mapping):
        return schemes
    for name, value in raw.items():
        node, _ = resolver.resolve(value)
        if isinstance(node, Mapping):
            schemes[str(name)] = SecurityScheme(
                name=str(name),
                type=str(node.get("type", "")),
                scheme=str(node.get("scheme", "")).lower(),
                location=str(node.get("in", "")),
                key_name=str(node.get("name", "")),
                token_url=_password_token_url(node.get("flows")),
            )
    return schemes


def _password_token_url(flows: object) -> str:
    """An OAuth 2.0 scheme's password flow's ``tokenUrl`` ("" for none)."""
    password = flows.get("password") if isinstance(flows, Mapping) else None
    url = password.get("tokenUrl") if isinstance(password, Mapping) else None
    return url.strip() if isinstance(url, str) else ""


def _security(
    requirements: Any, schemes: Mapping[str, SecurityScheme]
) -> tuple[SecurityScheme, ...]:
    """The schemes of the security requirements, the first requirement's first."""
    if not isinstance(requirements, list):
        return ()
    found: dict[str, SecurityScheme] = {}
    for requirement in requirements:
        if isinstance(requirement, Mapping):
            for name in requirement:
                if name in schemes:
                    found.setdefault(name, schemes[name])
    return tuple(found.values())


def _servers(document: Mapping[str, Any], url: str | None) -> tuple[str, ...]:
    """The servers' URLs, variables at their defaults, resolved against where the
    document came from."""
    servers: list[str] = []
    raw = document.get("servers")
    for server in raw if isinstance(raw, list) else []:
        if not isinstance(server, Mapping) or not isinstance(server.get("url"), str):
            continue
        text = server["url"]
        variables = server.get("variables")
        if isinstance(variables, Mapping):
            for name, variable in variables.items():
                if isinstance(variable, Mapping) and "default" in variable:
                    text = text.replace("{" + str(name) + "}", str(variable["default"]))
        servers.append(urljoin(url, text) if url else text)
    if not servers and url:
        servers.append(urljoin(url, "/"))
    return tuple(servers)


def _operations(document: Mapping[str, Any], resolver: Resolver) -> Iterator[Operation]:
    paths = document.get("paths")
    if not isinstance(paths, Mapping):
        return
    schemes = _schemes(document, resolver)
    top_security = document.get("security")
    count = 0
    for path, raw_item in paths.items():
        item, _ = resolver.resolve(raw_item)
        if not isinstance(item, Mapping):
            continue
        shared = _parameters(item.get("parameters"), (), resolver)
        for method in METHODS:
            node = item.get(method)
            if not isinstance(node, Mapping):
                continue
            count += 1
            if count > MAX_OPERATIONS:
                return
            resolver.notes = []
            parameters = _parameters(node.get("parameters"), shared, resolver)
            media, example, required = _body(node.get("requestBody"), resolver)
            security = node.get("security", top_security)
            yield Operation(
                method=method.upper(),
                path=str(path),
                summary=str(node.get("summary") or "").strip(),
                operation_id=str(node.get("operationId") or ""),
                parameters=parameters,
                body_media_type=media,
                body_example=example,
                body_required=required,
                security=_security(security, schemes),
                deprecated=bool(node.get("deprecated")),
                notes=tuple(dict.fromkeys(resolver.notes)),
            )


def describe(document: Mapping[str, Any], url: str | None = None) -> ApiDescription:
    """The operations of an OpenAPI 3 ``document`` fetched from ``url`` (None: a file)."""
    info = document.get("info")
    info = info if isinstance(info, Mapping) else {}
    resolver = Resolver(document)
    return ApiDescription(
        title=str(info.get("title") or "untitled API"),
        version=str(info.get("version") or ""),
        openapi=str(document.get("openapi")),
        servers=_servers(document, url),
        operations=tuple(_operations(document, resolver)),
    )


# --- a request for an operation -------------------------------------------------------------


def _auth_for(
    scheme: SecurityScheme | None, server: str
) -> tuple[Any, tuple[tuple[str, str], ...], str]:
    """The credential (to fill in), headers and a note for the operation's first scheme;
    a ``tokenUrl`` is resolved against ``server`` (OpenAPI 3.1, section 4.8.27)."""
    if scheme is None:
        return None, (), ""
    if scheme.type == "oauth2" and scheme.token_url:
        token_url = _resolved(scheme.token_url, server)
        return (
            LoginFlow(token_url, "", "", style="form"),
            (),
            f"Security: {scheme.label}; give the user and password: restwalk logs in at "
            f"{token_url} for a token first.",
        )
    if scheme.type == "http" and scheme.scheme == "basic":
        return BasicAuth("", ""), (), f"Security: {scheme.label}; give the user and password."
    if scheme.type == "http" or scheme.type in ("oauth2", "openIdConnect"):
        return BearerAuth(""), (), f"Security: {scheme.label}; paste the token."
    if scheme.type == "apiKey" and scheme.location == "header" and scheme.key_name:
        return None, ((scheme.key_name, ""),), f"Security: {scheme.label}; fill in its value."
    if scheme.type == "apiKey" and scheme.location == "cookie" and scheme.key_name:
        auth = CookieSession(((scheme.key_name, ""),))
        return auth, (), f"Security: {scheme.label}; fill in its value."
    return None, (), f"Security: {scheme.label}; restwalk cannot fill it in for you."


def _resolved(url: str, server: str) -> str:
    """A URL of the description (a ``tokenUrl``) resolved against ``server``."""
    return urljoin(server.rstrip("/") + "/", url)


def password_token_url(description: ApiDescription) -> str | None:
    """Where the API gives a token for a user name and password: the ``tokenUrl`` of the
    first OAuth 2.0 password flow its operations use, resolved against its first server;
    None when none does."""
    server = description.servers[0] if description.servers else ""
    for operation in description.operations:
        for scheme in operation.security:
            if scheme.type == "oauth2" and scheme.token_url:
                return _resolved(scheme.token_url, server)
    return None


def operation_request(
    operation: Operation, server: str
) -> tuple[RequestSpec, str, tuple[str, ...]]:
    """The request to compose for ``operation`` on ``server``, a note for the person,
    and the path parameters still to fill in (as ``{name}`` in the URL).

    Query and header parameters become rows (an example value, or empty); the
    body is the example; the first security scheme is chosen as the credential.
    """
    url = server.rstrip("/") + "/" + operation.path.lstrip("/")
    query = tuple((p.name, p.example or "") for p in operation.parameters if p.location == "query")
    headers = tuple(
        (p.name, p.example or "") for p in operation.parameters if p.location == "header"
    )
    scheme = operation.security[0] if operation.security else None
    auth, auth_headers, auth_note = _auth_for(scheme, server)
    spec = RequestSpec(
        method=operation.method,
        url=url,
        query=query,
        headers=headers + auth_headers,
        auth=auth,
    )
    if operation.body_example is not None or operation.body_media_type is not None:
        spec = replace(
            spec, body=operation.body_example or "", content_type=operation.body_media_type
        )
    lines = [operation.title]
    for parameter in operation.parameters:
        need = "required" if parameter.required else "optional"
        said = f": {parameter.description}" if parameter.description else ""
        lines.append(
            f"{parameter.location} {parameter.name} ({parameter.type or 'any'}, {need}){said}"
        )
    if auth_note:
        lines.append(auth_note)
    lines.extend(operation.notes)
    path_names = tuple(p.name for p in operation.parameters if p.location == "path")
    return spec, "\n".join(lines), path_names
