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

A person may edit the file while the server runs, as json-server's users do:
the store looks at the file (its size, time and inode, one ``stat``) before
each use, and when someone else changed it, serves it as it is now (a write
then goes on top of the edit, never over it). An edit it cannot take (a file
half-saved or no longer valid, collections added or removed, which need a
restart for their routes) is said once in the log; reads go on from what was
read last, and writes answer 503 until the file is good again, so nothing is
ever written over a person's edit.
"""

from __future__ import annotations

import copy
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mock_server.store import Collection, Record, Store
from mock_server.store.errors import StoreUnavailable
from mock_server.store.store import Change, Persistence
from mock_server.store.write_guard import Expected
from mock_server.userdata import datafile
from mock_server.userdata.datafile import Rows
from mock_server.userdata.model import DataModel

logger = logging.getLogger("mock_server")
#: What identifies one version of the file: modification time, size, inode.
Signature = tuple[int, int, int] | None
#: Seconds a write refused because of the file's state says to wait before trying again.
RETRY_AFTER = 1


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
        self.data_path: Path = path
        self.read_only = read_only
        self._lock = None if read_only else datafile.claim(path)
        self._tables = tables
        self.model = DataModel.infer(tables)
        self.data_names: tuple[str, ...] = tuple(table.name for table in tables)
        try:
            self._loaded_at = path.stat().st_mtime
        except OSError:
            self._loaded_at = 0.0
        #: The version of the file last read or written here.
        self._seen = _signature(path)
        #: Why the file as it is now cannot be served (None: it can).
        self._unreadable: str | None = None
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

    def _sync(self) -> None:
        super()._sync()
        self._follow_file()

    def _follow_file(self) -> None:
        """Serve the file as it is now when someone else changed it (see the module's doc)."""
        now = _signature(self.data_path)
        if now == self._seen:
            return
        self._seen = now  # decided once for each version of the file
        path = self.data_path
        try:
            tables = datafile.read(path)
        except datafile.DataError as error:
            self._unreadable = (
                f"{path} was changed on disk and cannot be read now ({error}); the server "
                "serves it as it last read it and writes nothing over it until it is good again"
            )
            logger.warning("%s", self._unreadable)
            return
        names = [table.name for table in tables]
        if sorted(names) != sorted(self.data_names):
            self._unreadable = (
                f"{path} was changed on disk and now has the collections "
                f"{', '.join(names) or 'none'} instead of {', '.join(self.data_names)}: "
                "restart the server to serve them; until then it writes nothing over the file"
            )
            logger.warning("%s", self._unreadable)
            return
        self._unreadable = None
        self._tables = tables
        self._loaded_at = path.stat().st_mtime if now is not None else self._loaded_at
        self._collections.update(self._fresh())
        self._generation += 1  # what was made from the old records is stale
        logger.info("%s was changed on disk: serving it as it is now", path)

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
        self._seen = _signature(self.data_path)

    @contextmanager
    def _saving(self, name: str) -> Iterator[Collection]:
        """The collection ``name``, changed in the block and saved after it, or not at all.

        The file as it is now first: a person's edit is what the write goes on top of.
        """
        self._follow_file()
        if self._unreadable is not None:
            raise StoreUnavailable(self._unreadable, RETRY_AFTER)
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
        """The seed, and the data file's collections as last read (saved back)."""
        self._follow_file()
        if self._unreadable is not None:
            raise StoreUnavailable(self._unreadable, RETRY_AFTER)
        super().reset()
        self._collections.update(self._fresh())
        self.save()


def _by_id(record: Record) -> int:
    return record.id


def _signature(path: Path) -> Signature:
    """The version of the file at ``path`` (None when it is not there)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return (found.st_mtime_ns, found.st_size, found.st_ino)
