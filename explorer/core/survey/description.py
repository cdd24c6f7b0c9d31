"""The paths an API's own description lists: OpenAPI 3 or Swagger 2, in JSON.

An API that links its description (``rel="service-desc"``, RFC 8631) says what
resources it has; the audit compares those with the ones its links reach. Only
the paths with a ``get`` operation count: the others cannot be reached by
following links. A path's prefix comes from the first OpenAPI ``servers`` URL
or Swagger's ``basePath``.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import orjson

__all__ = ["described_paths", "is_description"]

#: Top-level keys that make a JSON document a description of an API, not a page of it.
_DESCRIPTION_KEYS = (b'"openapi"', b'"swagger"', b'"$schema"', b'"asyncapi"')


def is_description(body: bytes) -> bool:
    """True for a JSON body that describes an API (OpenAPI, Swagger, a JSON Schema): read
    cheaply, from the keys near its start."""
    head = body[:2048].lstrip()
    return head.startswith(b"{") and any(key in head for key in _DESCRIPTION_KEYS)


def described_paths(body: bytes) -> list[str] | None:
    """The GET paths of an OpenAPI or Swagger JSON document, prefix included; None when
    ``body`` is no such document."""
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
    found = []
    for path, operations in paths.items():
        if isinstance(path, str) and isinstance(operations, dict) and "get" in operations:
            found.append(prefix + path if path.startswith("/") else f"{prefix}/{path}")
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
