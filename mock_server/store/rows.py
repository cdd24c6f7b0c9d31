"""Collections from database rows, and one record's row applied: what every database shares.

SQLite (``--db``) and PostgreSQL (``--store postgresql://``) keep the same
tables: a head per collection (name, unique field, next id), the written
records as JSON, the deleted ids, and the rounds of a computed seed. Both
read them back into :class:`~mock_server.store.collection.Collection` objects
here, the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from mock_server.store.collection import Collection, Record
from mock_server.store.seed import seed_tables

#: A row as a driver gives it: a collection's head (name, unique field or None, next id),
#: a written record (collection, id, data as JSON text, created, updated), a deleted id
#: (collection, id), or a record's columns (data, created, updated).
Row = tuple[Any, ...]


def record_of(record_id: int, data: str | bytes, created: float, updated: float) -> Record:
    """A record from its stored columns (``data`` is its JSON text)."""
    return Record(int(record_id), orjson.loads(data), float(created), float(updated))


def build_collections(
    heads: Iterable[Row],
    seed_rounds: int | None,
    records: Iterable[Row],
    deleted: Iterable[Row],
) -> dict[str, Collection] | None:
    """The collections the rows describe; None when there are no heads (nothing saved yet)."""
    tables = seed_tables(seed_rounds) if seed_rounds else {}
    collections: dict[str, Collection] = {}
    for name, unique, next_id in heads:
        collection = Collection(str(name), None if unique is None else str(unique))
        collection.next_id = int(next_id)
        collection.seed = tables.get(collection.name)
        collections[collection.name] = collection
    if not collections:
        return None
    for name, record_id, data, created, updated in records:
        record = record_of(record_id, data, created, updated)
        collections[str(name)].written[record.id] = record
    for name, record_id in deleted:
        collections[str(name)].deleted.add(int(record_id))
    return collections


def apply_row(collection: Collection, record_id: int, row: Row | None) -> None:
    """Record ``record_id`` as another process left it: ``row`` (data, created, updated),
    or None when it is deleted."""
    if row is None:
        collection.take_deletion(record_id)
    else:
        collection.take(record_of(record_id, *row))
