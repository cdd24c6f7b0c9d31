"""The resources: one module per resource, each contributing its routes.

Only routes live here (``routes(service)`` in each module); what the entities are
is in :mod:`mock_server.domain`, how they are rendered in
:mod:`mock_server.representations`, HTTP's rules in :mod:`mock_server.http`.
"""

from __future__ import annotations

from starlette.routing import BaseRoute

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
    journal,
    maintenance,
    openapi,
    orders,
    products,
    redirects,
    reports,
    reset,
    root,
    status_demo,
    webhooks,
)
from mock_server.service import Service
from mock_server.userdata import routes as userdata


def build_routes(service: Service) -> list[BaseRoute]:
    """Every route of the mock server, for ``service``."""
    routes: list[BaseRoute] = []
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
        admin,
        redirects,
        reports,
        maintenance,
        batch,
        openapi,
        journal,
        faults_demo,
        httpbin,
        httpbin_streams,
        reset,
        userdata,
    ):
        routes.extend(module.routes(service))
    return routes
