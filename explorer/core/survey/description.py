"""What an API's own description says: OpenAPI 3 or Swagger 2, in JSON.

An API that links its description (``rel="service-desc"``, RFC 8631) says what
resources it has; the audit compares those with the ones its links reach. Only
the paths with a ``get`` operation count: the others cannot be reached by
following links. A path's prefix comes from the first OpenAPI ``servers`` URL
or Swagger's ``basePath``. The description's query and header parameters tell
the audit how a version is asked for where no link shows it (``?version=2``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

import orjson

__all__ = ["Description", "Parameter", "is_description", "read_description"]

_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
#: Where a parameter goes, its name, and the operation it belongs to (``GET /x``;
#: ``shared by its operations`` for one defined once for several: OpenAPI's
#: ``components``).
Parameter = tuple[str, str, str]


@dataclass(frozen=True)
class Description:
    """What an API's OpenAPI or Swagger description tells the audit."""

    #: The paths with a GET operation, prefix included.
    paths: list[str]
    #: Its query and header parameters, each once per operation.
    parameters: list[Parameter]


#: Top-level keys that make a JSON document a description of an API, not a page of it.
_DESCRIPTION_KEYS = (b'"openapi"', b'"swagger"', b'"$schema"', b'"asyncapi"')


def is_description(body: bytes) -> bool:
    """True for a JSON body that describes an API (OpenAPI, Swagger, a JSON Schema): read
    cheaply, from the keys near its start."""
    head = body[:2048].lstrip()
    return head.startswith(b"{") and any(key in head for key in _DESCRIPTION_KEYS)


def read_description(body: bytes) -> Description | None:
    """The description in ``body``; None when it is no OpenAPI or Swagger JSON document."""
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(doc, dict) or not ("openapi" in doc or "swagger" in doc):
        return None
    paths = doc.get("paths")
    if not isinstance(paths, dict):
        return None
    prefix = _prefix(doc)
    found: list[str] = []
    parameters: list[Parameter] = []
    shared = _shared_parameters(doc)
    parameters.extend(_parameters(shared.values(), {}, "shared by its operations"))
    for path, operations in paths.items():
        if not isinstance(path, str) or not isinstance(operations, dict):
            continue
        if "get" in operations:
            found.append(prefix + path if path.startswith("/") else f"{prefix}/{path}")
        common = operations.get("parameters")
        for method in _METHODS:
            operation = operations.get(method)
            if not isinstance(operation, dict):
                continue
            listed = [*_listed(common), *_listed(operation.get("parameters"))]
            parameters.extend(_parameters(listed, shared, f"{method.upper()} {path}"))
    return Description(found, parameters)


def _shared_parameters(doc: dict[str, object]) -> dict[str, object]:
    """The parameters defined once, by the ``$ref`` that names them (OpenAPI 3's
    ``components.parameters``, Swagger's ``parameters``)."""
    components = doc.get("components")
    table = components.get("parameters") if isinstance(components, dict) else None
    if isinstance(table, dict):
        return {f"#/components/parameters/{key}": value for key, value in table.items()}
    table = doc.get("parameters")
    if isinstance(table, dict):
        return {f"#/parameters/{key}": value for key, value in table.items()}
    return {}


def _listed(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _parameters(listed: Iterable[object], shared: dict[str, object], where: str) -> list[Parameter]:
    """The query and header parameters of ``listed`` (a ``$ref`` looked up in ``shared``)."""
    found: list[Parameter] = []
    for parameter in listed:
        if isinstance(parameter, dict) and isinstance(parameter.get("$ref"), str):
            parameter = shared.get(parameter["$ref"])
        if not isinstance(parameter, dict):
            continue
        place, name = parameter.get("in"), parameter.get("name")
        if place in ("query", "header") and isinstance(name, str):
            found.append((place, name, where))
    return found


def _prefix(doc: dict[str, object]) -> str:
    """The path every described path is under: Swagger's basePath, OpenAPI's first server."""
    base = doc.get("basePath")
    if isinstance(base, str):
        return base.rstrip("/")
    servers = doc.get("servers")
    if isinstance(servers, list) and servers and isinstance(servers[0], dict):
        url = servers[0].get("url")
        if isinstance(url, str) and "{" not in url:
            try:
                return urlsplit(url).path.rstrip("/")
            except ValueError:
                return ""
    return ""
