"""restwalk-mock: one concrete service that implements the whole REST/HTTP spec.

The public surface is small:

- :func:`create_app` builds the ASGI application from :class:`Settings`;
- :class:`BackgroundServer` serves it on a free 127.0.0.1 port in a thread
  (the explorer's default start and the tests use it);
- ``restwalk-mock`` / ``python -m mock_server`` run it from the command line.

Its packages, outermost first: :mod:`~mock_server.transport` (sockets, HTTP/1.1 and
HTTP/2 protocols, TLS), :mod:`~mock_server.layers` (one ASGI middleware per
cross-cutting rule), :mod:`~mock_server.resources` (the routes),
:mod:`~mock_server.representations` (HAL, Siren, JSON:API, XML),
:mod:`~mock_server.domain` (what the entities are), :mod:`~mock_server.store` (the
records, in memory or in a database), with :mod:`~mock_server.http` (HTTP's rules as
pure functions) and :mod:`~mock_server.auth` used across them; :mod:`~mock_server.events`
tells every change of the store's data, on event streams and to webhooks.
"""

from __future__ import annotations

from mock_server.app import create_app
from mock_server.serving import BackgroundServer
from mock_server.settings import Settings

__all__ = ["BackgroundServer", "Settings", "create_app"]
