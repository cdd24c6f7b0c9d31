"""The mock's own OpenAPI 3.1 description, built from its own routes.

:mod:`.document` builds it: it walks the app's routes and asks each operation's
:class:`~mock_server.openapi.model.Op` (an operation as data, :mod:`.model`) of
:mod:`.operations` (the teaching API's, falling back to :mod:`.extras` for the test
backend's, :mod:`.oauth` and :mod:`.events`), with the bodies' JSON Schemas of
:mod:`.schemas`. Not your API's description: that is :mod:`mock_server.contract`.
"""

from __future__ import annotations

from mock_server.openapi.document import build_document

__all__ = ["build_document"]
