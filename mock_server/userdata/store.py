"""The store with a data file's collections beside the built-in ones.

The built-in collections keep their own persistence (memory, or ``--db``).
The data file's collections live in memory and, unless ``read_only``, every
write to one of them saves the whole file atomically before the write is
acknowledged; if saving fails, the write is undone in memory too, so what
the server said and what the file holds never differ. Deleted ids answer 410
while the server runs; the file, json-server's format, has no place to keep
them across a restart.

A data file is one process's: a store that writes it holds its lock
(:func:`~mock_server.userdata.datafile.claim`) until :meth:`DataStore.close`
or the process ends, so a second writer on the same file is refused, and
``--workers`` above 1 needs ``--read-only-data`` (the command line says so).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mock_server.store import Collection, Record, Store
from mock_server.store.store import Change, Persistence
from mock_server.store.write_guard import Expected
from mock_server.userdata import datafile
from mock_server.userdata.datafile import Rows
from mock_server.userdata.model import DataModel


class DataStore(Store):
    """A :class:`Store` that also serves the collections of a data file."""

    def __init__(
        self,
        path: Path,
        tables: list[Rows],
        *,
        read_only: bool,
        seed_size: int = 1,
        persistence: Persistence | None = None,
    ) -> None:
        self.data_path = path
        self.read_only = read_only
        self._lock = None if read_only else datafile.claim(path)
        self._tables = tables
        self.model = DataModel.infer(tables)
        self.data_names: tuple[str, ...] = tuple(table.name for table in tables)
        try:
            self._loaded_at = path.stat().st_mtime
        except OSError:
            self._loaded_at = 0.0
        super().__init__(seed_size, persistence)
        self._collections.update(self._fresh())

    def _fresh(self) -> dict[str, Collection]:
        """The data file's collections as they were read at start."""
        found: dict[str, Collection] = {}
        for table in self._tables:
            collection = Collection(table.name)
            for record_id, data in table.rows:
                collection.written[record_id] = Record(
                    record_id, copy.deepcopy(data), self._loaded_at, self._loaded_at
                )
            collection.next_id = max(collection.written, default=0) + 1
            found[table.name] = collection
        return found

    def _reload(self) -> None:
        # The built-in collections come back from the database; these are not in it.
        kept = {name: self._collections[name] for name in self.data_names}
        super()._reload()
        self._collections.update(kept)

    def close(self) -> None:
        """Let another writer have the file (this store writes no more)."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None
            self.read_only = True

    def save(self) -> None:
        """Write the data collections to the file (nothing with ``read_only``)."""
        if self.read_only:
            return
        rows = {
            name: [(r.id, r.data) for r in sorted(self._collections[name].all(), key=_by_id)]
            for name in self.data_names
        }
        datafile.write_atomically(self.data_path, datafile.render(self.data_path, rows))

    @contextmanager
    def _saving(self, name: str) -> Iterator[Collection]:
        """The collection ``name``, changed in the block and saved after it, or not at all."""
        collection = self._collections[name]
        before = (dict(collection.written), set(collection.deleted), collection.next_id)
        before_deletion = collection.last_deletion
        try:
            yield collection
            self.save()
        except BaseException:
            collection.restore(*before)
            collection.last_deletion = before_deletion
            raise

    def create(self, name: str, data: dict[str, Any], now: float) -> Record:
        if name not in self.data_names:
            return super().create(name, data, now)
        with self._saving(name) as collection:
            record = collection.create(data, now)
        self._told(Change(name, record, "created"))
        return record

    def put(
        self,
        name: str,
        record_id: int,
        data: dict[str, Any],
        now: float,
        expected: Expected | None = None,
        *,
        action: str | None = None,
    ) -> tuple[Record, bool]:
        if name not in self.data_names:
            return super().put(name, record_id, data, now, expected, action=action)
        with self._saving(name) as collection:
            self._check(collection, record_id, expected)
            record, created = collection.put(record_id, data, now)
        self._told(Change(name, record, action or ("created" if created else "replaced")))
        return record, created

    def delete(
        self, name: str, record_id: int, now: float = 0.0, expected: Expected | None = None
    ) -> None:
        if name not in self.data_names:
            super().delete(name, record_id, now, expected)
            return
        with self._saving(name) as collection:
            self._check(collection, record_id, expected)
            before = collection.get(record_id)
            collection.delete(record_id, now)
        self._told(Change(name, before, "deleted"))

    def reset(self) -> None:
        """The seed, and the data file's collections as read at start (saved back)."""
        super().reset()
        self._collections.update(self._fresh())
        self.save()


def _by_id(record: Record) -> int:
    return record.id
