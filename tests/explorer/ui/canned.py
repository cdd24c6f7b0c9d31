"""A small fixed API for the snapshot tests, so their pictures change only with the UI.

The functional tests run against the real mock server, whose pages grow as it
does; a snapshot needs the same bytes every time. These answers are shaped like
the mock server's (HAL, problem details, HAL-FORMS), but frozen.
"""

from __future__ import annotations

import json

import httpx

ROOT = {
    "name": "restwalk-mock",
    "description": "A complete REST/HTTP teaching service. Follow the links.",
    "_links": {
        "self": {"href": "/", "title": "Entry point"},
        "rw:customers": {"href": "/customers", "title": "Customers"},
        "rw:products": {"href": "/products", "title": "Products"},
        "rw:orders": {"href": "/orders", "title": "Orders (needs a credential)"},
        "rw:customer-search": {
            "href": "/customers{?name,city,limit,offset}",
            "templated": True,
            "title": "Search customers",
        },
        "rw:token": {"href": "/auth/token", "title": "Get a bearer token"},
        "curies": [{"name": "rw", "href": "/docs/rels/{rel}", "templated": True}],
    },
}

CUSTOMERS = {
    "count": 2,
    "total": 2,
    "limit": 20,
    "offset": 0,
    "_links": {
        "self": {"href": "/customers?limit=20&offset=0"},
        "up": {"href": "/"},
    },
    "_embedded": {
        "customers": [
            {
                "id": 1,
                "name": "Ada Lovelace",
                "address": "12 St James's Square, London, LDN SW1Y 4JH",
                "_links": {"self": {"href": "/customers/1", "title": "Ada Lovelace"}},
            },
            {
                "id": 2,
                "name": "Grace Hopper",
                "address": "1 Navy Way, Arlington, VA 22201",
                "_links": {"self": {"href": "/customers/2", "title": "Grace Hopper"}},
            },
        ]
    },
    "_templates": {
        "create": {
            "title": "Create a customer",
            "method": "POST",
            "target": "/customers",
            "contentType": "application/json",
            "properties": [
                {"name": "name", "type": "text", "required": True, "prompt": "Name"},
                {"name": "address", "type": "text", "required": True, "prompt": "Address"},
            ],
        }
    },
}

UNAUTHORIZED = {
    "type": "/problems/401",
    "title": "Unauthorized",
    "status": 401,
    "detail": "GET /orders needs a credential: a Bearer token from /auth/token.",
    "instance": "/orders",
}


def _json(status: int, document: object, content_type: str, **headers: str) -> httpx.Response:
    return httpx.Response(
        status,
        content=json.dumps(document).encode(),
        # the mock names itself in every answer (its advice is given on its answers only)
        headers={"Content-Type": content_type, "Server": "restwalk-mock/0.1.0", **headers},
    )


def handler(request: httpx.Request) -> httpx.Response:
    """The fixed answer for ``request``'s path."""
    path = request.url.path
    if path == "/":
        return _json(200, ROOT, "application/hal+json", **{"Cache-Control": "max-age=60"})
    if path == "/customers":
        return _json(200, CUSTOMERS, "application/hal+json", ETag='"c-1"')
    if path == "/orders":
        return _json(
            401,
            UNAUTHORIZED,
            "application/problem+json",
            **{"WWW-Authenticate": 'Bearer realm="restwalk", Basic realm="restwalk"'},
        )
    return _json(404, {"title": "Not Found", "status": 404}, "application/problem+json")


def transport() -> httpx.MockTransport:
    """A transport that answers every request from :func:`handler`."""
    return httpx.MockTransport(handler)
