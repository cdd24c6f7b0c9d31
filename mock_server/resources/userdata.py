"""``/{name}`` and ``/{name}/{id}`` for each collection of the ``--data`` file.

The uniform interface of each collection, via :mod:`mock_server.resources.crud`;
the collections themselves are :mod:`mock_server.userdata`'s.
"""

from __future__ import annotations

from starlette.routing import BaseRoute

from mock_server.resources import crud
from mock_server.service import Service
from mock_server.userdata import data_entities


def routes(service: Service) -> list[BaseRoute]:
    """Each data collection's routes (none without ``--data``)."""
    found: list[BaseRoute] = []
    for entity in data_entities(service.store):
        found.extend(crud.routes(entity, service))
    return found
