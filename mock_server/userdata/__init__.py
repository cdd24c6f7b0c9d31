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

from typing import TYPE_CHECKING

from mock_server.settings import Settings
from mock_server.store import Store
from mock_server.store.store import Persistence

if TYPE_CHECKING:
    from mock_server.userdata.entity import DataEntity
    from mock_server.userdata.store import DataStore

__all__ = ["data_entities", "data_names", "data_store", "open_data_store"]


def open_data_store(settings: Settings, persistence: Persistence | None) -> DataStore:
    """The store for ``settings.data``; :class:`~mock_server.userdata.datafile.DataError`
    (one line) if the file is bad."""
    from mock_server.userdata import datafile
    from mock_server.userdata.store import DataStore

    assert settings.data is not None
    return DataStore(
        settings.data,
        datafile.read(settings.data),
        read_only=settings.read_only_data,
        seed_size=settings.seed_size,
        persistence=persistence,
    )


def data_store(store: Store) -> DataStore | None:
    """``store`` when it serves a ``--data`` file (a :class:`DataStore`), else None.

    The one place the data file's modules are imported, but by :func:`open_data_store`:
    without ``--data`` the server starts without them (its model's dataclasses, sqlite3
    for the file's lock: some 5 ms), for only a data store has a ``data_path``.
    """
    if store.data_path is None:
        return None
    from mock_server.userdata.store import DataStore

    return store if isinstance(store, DataStore) else None


def data_names(store: Store) -> frozenset[str]:
    """The names of the data file's collections in ``store`` (none without ``--data``)."""
    data = data_store(store)
    return frozenset(data.data_names) if data is not None else frozenset()


def data_entities(store: Store) -> list[DataEntity]:
    """One entity per collection of the data file in ``store``, in file order (none without
    ``--data``)."""
    data = data_store(store)
    if data is None:
        return []
    from mock_server.userdata.entity import DataEntity  # (with the data store: see above)

    return [DataEntity(data.model, data.model.collections[name], data) for name in data.data_names]
