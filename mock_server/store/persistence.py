"""Where the store keeps its writes: nowhere (in memory), SQLite, or PostgreSQL.

``--store`` names it: ``memory`` (the default), ``sqlite:FILE`` (the same as
``--db FILE``), or a ``postgresql://`` URL. PostgreSQL's driver is an optional
dependency, imported only when one is named.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mock_server.store.errors import PersistenceError
from mock_server.store.store import Persistence

#: What the command line says when psycopg is not installed.
POSTGRESQL_MISSING = "--store postgresql:// needs: pip install 'restwalk[postgresql]'"
#: The URL schemes that name a PostgreSQL database (libpq takes both).
POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True)
class StoreLocation:
    """Where ``--store`` says the data is: a SQLite file, a PostgreSQL URL, or memory."""

    db: Path | None = None
    url: str | None = None


def parse_store(value: str) -> StoreLocation:
    """``memory``, ``sqlite:FILE`` or ``postgresql://...``; ValueError for anything else."""
    if value == "memory":
        return StoreLocation()
    if value.startswith("sqlite:"):
        path = value.removeprefix("sqlite:")
        if not path:
            raise ValueError("sqlite: needs a file name: sqlite:FILE")
        return StoreLocation(db=Path(path))
    if value.startswith(POSTGRESQL_SCHEMES):
        return StoreLocation(url=value)
    raise ValueError(f"expected memory, sqlite:FILE or postgresql://USER@HOST/DB, got {value!r}")


def open_persistence(db: Path | None, url: str | None = None) -> Persistence | None:
    """The database for ``--db``/``--store`` (None keeps everything in memory).

    :class:`PersistenceError` (one line) when it cannot be used.
    """
    if url is not None:
        try:
            from mock_server.store.postgresql import PostgresPersistence
        except ImportError as error:
            if (error.name or "psycopg").split(".")[0] not in ("psycopg", "psycopg_pool"):
                raise
            raise PersistenceError(POSTGRESQL_MISSING) from None
        return PostgresPersistence(url)
    if db is None:
        return None
    from mock_server.store.sqlite import SQLitePersistence

    return SQLitePersistence(db)
