"""``GET /``: the entry point. Everything else is reachable by its links."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from mock_server.events.wire import EVENT_STREAM
from mock_server.http.versions import is_versioned_path
from mock_server.representations.model import Link, Resource
from mock_server.representations.respond import respond
from mock_server.representations.urls import href, template_href
from mock_server.service import Service
from mock_server.userdata import data_entities

EVENTS = "/events"
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
    ("rw:statuses", "/status", "Every status code restwalk teaches", False),
    ("rw:reports", "/reports", "Order reports: async jobs, CSV with ranges (credential)", False),
    ("rw:redirect", "/redirect/{n}", "Redirect chains (n hops) and 301-308 demos", True),
    ("rw:clients", "/clients", "The old address of customers (301)", False),
    ("rw:faults", "/faults", "Connection faults: reset, close, wrong length, trickle, hang", False),
    ("rw:journal", "/_journal", "Every request received (admin)", False),
    ("rw:httpbin", "/httpbin", "httpbin's endpoints: /anything, /headers, /delay/{n}...", False),
    ("service-desc", "/openapi.json", "OpenAPI description", False),
    ("service-doc", "/docs/rels", "Link relations, explained", False),
    # An event stream never ends: a client that reads every link's body in turn (a
    # crawl) meets it last. Its link's type says what it is.
    ("rw:events", EVENTS, "Every change, as it happens (server-sent events)", False),
    ("rw:webhooks", "/webhooks", "Webhooks: changes POSTed to your URL (credential)", False),
]


def entry_href(request: Request, path: str, templated: bool) -> str:
    """The href of an entry link: versioned paths keep the request's version style."""
    if not is_versioned_path(path.partition("{")[0]):
        return path
    if templated and "{?" in path:
        base, _, variables = path.partition("{?")
        return template_href(request, base, tuple(variables.rstrip("}").split(",")))
    return href(request, path)


#: The entry point's link to the OAuth server's metadata, when it is on.
OAUTH_LINK = (
    "rw:oauth",
    "/.well-known/oauth-authorization-server",
    "OAuth 2.0: the authorization server's metadata (RFC 8414)",
)


def data_links(request: Request, service: Service) -> list[Link]:
    """Links to the collections of ``--data`` and their searches (none without it)."""
    links: list[Link] = []
    for entity in data_entities(service.store):
        path = entity.listing.path
        links.append(Link(entity.collection, href(request, path), title=entity.collection))
        links.append(
            Link(
                f"{entity.kind}-search",
                template_href(request, path, entity.listing.template_variables()),
                title=f"Search {entity.collection}",
                templated=True,
            )
        )
    return links


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
                Link(
                    rel,
                    entry_href(request, path, templated),
                    title=title,
                    templated=templated,
                    type=EVENT_STREAM if path == EVENTS else None,
                )
                for rel, path, title, templated in ENTRY_LINKS
            ]
            + ([Link(*OAUTH_LINK)] if service.settings.oauth else [])
            + data_links(request, service),
        )
        return respond(request, resource, headers={"Cache-Control": "max-age=60"})

    return [Route("/", root, methods=["GET"])]
