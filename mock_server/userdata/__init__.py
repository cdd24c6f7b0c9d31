"""Your own resources: ``restwalk-mock --data db.json`` serves a json-server style file.

- :mod:`~mock_server.userdata.datafile` reads and atomically writes the file, and
  keeps it to one writer (a lock beside it);
- :mod:`~mock_server.userdata.model` infers field types and relations from it;
- :mod:`~mock_server.userdata.entity` makes each collection an Entity, so the
  built-in machinery (representations, paging, ETags, versions) serves it;
- :mod:`~mock_server.userdata.store` keeps the collections and saves writes;
- :mod:`~mock_server.userdata.openapi` gives them their part of the OpenAPI document.

Their routes are :mod:`mock_server.resources.userdata`'s.
"""

from __future__ import annotations

from mock_server.settings import Settings
from mock_server.store import Store
from mock_server.store.store import Persistence
from mock_server.userdata import datafile
from mock_server.userdata.datafile import DataError
from mock_server.userdata.entity import DataEntity
from mock_server.userdata.store import DataStore

__all__ = ["DataError", "DataStore", "data_entities", "data_names", "open_data_store"]


def open_data_store(settings: Settings, persistence: Persistence | None) -> DataStore:
    """The store for ``settings.data``; :class:`DataError` (one line) if the file is bad."""
    assert settings.data is not None
    return DataStore(
        settings.data,
        datafile.read(settings.data),
        read_only=settings.read_only_data,
        seed_size=settings.seed_size,
        persistence=persistence,
    )


def data_names(store: Store) -> frozenset[str]:
    """The names of the data file's collections in ``store`` (none without ``--data``)."""
    return frozenset(store.data_names) if isinstance(store, DataStore) else frozenset()


def data_entities(store: Store) -> list[DataEntity]:
    """One entity per collection of the data file in ``store``, in file order (none without
    ``--data``)."""
    if not isinstance(store, DataStore):
        return []
    return [
        DataEntity(store.model, store.model.collections[name], store) for name in store.data_names
    ]
