"""The routes of a data file's collections: the uniform interface of each, via crud."""

from __future__ import annotations

from starlette.routing import BaseRoute

from mock_server.resources import crud
from mock_server.service import Service
from mock_server.userdata.entity import DataEntity
from mock_server.userdata.store import DataStore


def entities(store: DataStore) -> list[DataEntity]:
    """One entity per collection of the data file, in file order."""
    return [
        DataEntity(store.model, store.model.collections[name], store) for name in store.data_names
    ]


def routes(service: Service) -> list[BaseRoute]:
    """``/{name}`` and ``/{name}/{id}`` for each collection (none without ``--data``)."""
    store = service.store
    if not isinstance(store, DataStore):
        return []
    found: list[BaseRoute] = []
    for entity in entities(store):
        found.extend(crud.routes(entity, service))
    return found
