"""restwalk-mock: one concrete service that implements the whole REST/HTTP spec.

The public surface is small:

- :func:`create_app` builds the ASGI application from :class:`Settings`;
- :class:`BackgroundServer` serves it on a free 127.0.0.1 port in a thread
  (the explorer's default start and the tests use it);
- ``restwalk-mock`` / ``python -m mock_server`` run it from the command line.

Its packages, outermost first: :mod:`~mock_server.transport` (sockets, HTTP/1.1 and
HTTP/2 protocols, TLS, connection faults), :mod:`~mock_server.layers` (one ASGI
middleware per cross-cutting rule), :mod:`~mock_server.resources` (the routes, only
they), :mod:`~mock_server.representations` (HAL, Siren, JSON:API, XML),
:mod:`~mock_server.domain` (what the entities are), :mod:`~mock_server.store` (the
records, in memory or in a database), with :mod:`~mock_server.http` (HTTP's rules as
pure functions), :mod:`~mock_server.auth` (who is asking) and :mod:`~mock_server.oauth`
(the OAuth 2.0 authorization server) used across them; :mod:`~mock_server.events`
tells every change of the store's data, on event streams and to webhooks. Your API in
place of the teaching one: :mod:`~mock_server.contract` (``--openapi``) and
:mod:`~mock_server.tape` (``--record``/``--replay``), behind what the layers ask of it
(:mod:`~mock_server.guest`); your own collections: :mod:`~mock_server.userdata`
(``--data``); the mock's own description: :mod:`~mock_server.openapi`.

The modules at this level put them together: :mod:`~mock_server.app` (the app
factory: routes, layers, the guest), :mod:`~mock_server.serving` (serving it),
:mod:`~mock_server.service` (the state layers and resources share),
:mod:`~mock_server.request_journal`, :mod:`~mock_server.settings` and
:mod:`~mock_server.cli` (its flags: :mod:`~mock_server.cli_parser`). No package
imports another that imports it back (import-linter checks it).
"""

from __future__ import annotations

from mock_server.app import create_app
from mock_server.serving import BackgroundServer
from mock_server.settings import Settings

__all__ = ["BackgroundServer", "Settings", "create_app"]
