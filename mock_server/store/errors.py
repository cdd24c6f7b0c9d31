"""What can go wrong with the database behind the store, as the server tells it.

- :class:`PersistenceError`: at start, the database cannot be used at all (a
  file that is no database, a server that cannot be reached, a schema made by
  a newer restwalk-mock). The command line says it in one line and exits 2.
- :class:`StoreUnavailable`: while serving, the database went away (a
  PostgreSQL restart, a network cut). The request is answered 503 with
  ``Retry-After``; nothing it did was half-written, and the server goes on
  once the database is back.
"""

from __future__ import annotations


class PersistenceError(ValueError):
    """The database cannot be used; the message says which one and why."""


class StoreUnavailable(Exception):
    """The database cannot be reached now; try again in ``retry_after`` seconds."""

    def __init__(self, detail: str, retry_after: int) -> None:
        super().__init__(detail)
        self.detail = detail
        self.retry_after = retry_after
