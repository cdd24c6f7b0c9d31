"""The resources: one module per resource, each contributing its routes.

Only routes live here (``routes(service)`` in each module, :func:`build_routes` for
all of them; the OAuth routes' handlers, loaded with the first OAuth request, in
:mod:`.oauth_handlers`; the ``--data`` collections' routes in :mod:`.userdata`); what
the entities are is in :mod:`mock_server.domain`, how they are rendered in
:mod:`mock_server.representations`, HTTP's rules in :mod:`mock_server.http`, what an
event is called in :mod:`mock_server.events`.
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from mock_server.domain.entity import Entity
from mock_server.resources import (
    admin,
    auth,
    batch,
    customers,
    docs,
    events,
    faults_demo,
    httpbin,
    httpbin_streams,
    icon,
    journal,
    maintenance,
    oauth,
    openapi,
    orders,
    products,
    redirects,
    reports,
    reset,
    root,
    status_demo,
    userdata,
    webhooks,
)
from mock_server.service import Service

#: The route of the pages a problem document's ``type`` names (``/problems/404``).
PROBLEM_PAGES = "/problems/{code}"
#: The teaching API's entities, whose writes the event streams tell.
ENTITIES: tuple[Entity, ...] = (customers.ENTITY, products.ENTITY, orders.ENTITY)


def build_routes(service: Service) -> list[BaseRoute]:
    """Every route of the mock server, for ``service``.

    With your API (``service.guest``), its routes, then the few the mock keeps
    beside it (:data:`mock_server.guest.KEPT_PREFIXES`) instead of the teaching API.
    """
    routes: list[BaseRoute] = []
    if service.guest is not None:
        routes.extend(service.guest.routes())
        for module in (auth, journal, reset):
            routes.extend(module.routes(service))
        # The pages its problem documents' "type" links name.
        routes.extend(
            r for r in status_demo.routes(service) if getattr(r, "path", "") == PROBLEM_PAGES
        )
        return routes
    for module in (
        root,
        customers,
        products,
        orders,
        events,
        webhooks,
        docs,
        status_demo,
        auth,
        oauth,
        admin,
        redirects,
        reports,
        maintenance,
        batch,
        openapi,
        icon,
        journal,
        faults_demo,
        httpbin,
        httpbin_streams,
        reset,
        userdata,
    ):
        routes.extend(module.routes(service))
    return routes
