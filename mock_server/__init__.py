"""restwalk-mock: one concrete service that implements the whole REST/HTTP spec.

The public surface is small:

- :func:`create_app` builds the ASGI application from :class:`Settings`;
- :class:`BackgroundServer` serves it on a free 127.0.0.1 port in a thread
  (the explorer's default start and the tests use it);
- ``restwalk-mock`` / ``python -m mock_server`` run it from the command line.
"""

from __future__ import annotations

from mock_server.app import create_app
from mock_server.server import BackgroundServer
from mock_server.settings import Settings

__all__ = ["BackgroundServer", "Settings", "create_app"]
