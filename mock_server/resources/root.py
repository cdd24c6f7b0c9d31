"""``GET /``: the entry point. Everything else is reachable by its links."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.representations.model import Link, Resource
from mock_server.resources.respond import respond
from mock_server.resources.urls import href, template_href
from mock_server.service import Service
from mock_server.versions import is_versioned_path

#: The entry point's links: (rel, path, title, templated). Paths of versioned
#: resources keep the request's version style; the others are used as they are.
#: A templated path's ``{?a,b}`` part lists its query variables.
ENTRY_LINKS: list[tuple[str, str, str, bool]] = [
    ("rw:customers", "/customers", "Customers", False),
    ("rw:products", "/products", "Products", False),
    ("rw:orders", "/orders", "Orders (needs a credential)", False),
    (
        "rw:customer-search",
        "/customers{?name,city,sort,limit,offset}",
        "Search customers",
        True,
    ),
    (
        "rw:product-search",
        "/products{?minCost,maxCost,name,sort,limit,offset}",
        "Search products",
        True,
    ),
    ("rw:order-search", "/orders{?status,customerId,sort,limit,offset}", "Search orders", True),
    ("rw:auth", "/auth", "Log in: the forms for tokens and sessions", False),
    ("rw:status", "/status/{code}", "Any status code, explained", True),
    ("rw:statuses", "/status", "Every status code of the spec", False),
    ("rw:reports", "/reports", "Order reports: async jobs, CSV with ranges (credential)", False),
    ("rw:redirect", "/redirect/{n}", "Redirect chains (n hops) and 301-308 demos", True),
    ("rw:clients", "/clients", "The old address of customers (301)", False),
    ("rw:faults", "/faults", "Connection faults: reset, close, wrong length, trickle, hang", False),
    ("rw:journal", "/_journal", "Every request received (admin)", False),
    # httpbin's endpoints, with httpbin's names and answers.
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
    ("service-desc", "/openapi.json", "OpenAPI description", False),
    ("service-doc", "/docs/rels", "Link relations, explained", False),
]


def entry_href(request: Request, path: str, templated: bool) -> str:
    """The href of an entry link: versioned paths keep the request's version style."""
    if not is_versioned_path(path.partition("{")[0]):
        return path
    if templated and "{?" in path:
        base, _, variables = path.partition("{?")
        return template_href(request, base, tuple(variables.rstrip("}").split(",")))
    return href(request, path)


def routes(service: Service) -> list[BaseRoute]:
    """The entry point's routes."""

    async def root(request: Request) -> Response:
        resource = Resource(
            kind="root",
            properties={
                "name": "restwalk-mock",
                "description": "A complete REST/HTTP teaching service. Follow the links.",
            },
            links=[Link("self", href(request, "/"), title="Entry point")]
            + [
                Link(rel, entry_href(request, path, templated), title=title, templated=templated)
                for rel, path, title, templated in ENTRY_LINKS
            ],
        )
        return respond(request, resource, headers={"Cache-Control": "max-age=60"})

    return [Route("/", root, methods=["GET"])]
