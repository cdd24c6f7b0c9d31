"""``--store postgresql://USER@HOST/DB``: instances on many hosts share one PostgreSQL.

- :mod:`~mock_server.store.postgresql.schema`: the tables, made or migrated at start;
- :mod:`~mock_server.store.postgresql.connection`: the pool, and 503s while the
  database is away;
- :mod:`~mock_server.store.postgresql.listener`: LISTEN/NOTIFY, how an instance
  hears the others' writes;
- :mod:`~mock_server.store.postgresql.persistence`: the store's writes as
  transactions, and catching up with the others';
- :mod:`~mock_server.store.postgresql.credentials` and
  :mod:`~mock_server.store.postgresql.shared`: tokens, sessions, the rate
  limit's windows and the request journal, shared;
- :mod:`~mock_server.store.postgresql.events`: the event log and the webhook
  subscriptions, so a stream served by any instance tells every write;
- :mod:`~mock_server.store.postgresql.oauth`: what the OAuth server remembers,
  so a flow's steps may land on any instance.

Importing this package imports psycopg: the mock imports it only for
``--store postgresql://`` (``pip install 'restwalk[postgresql]'``).
"""

from __future__ import annotations

from mock_server.store.postgresql.persistence import PostgresPersistence

__all__ = ["PostgresPersistence"]
