"""The mock's OpenAPI 3.1 description, built from its own routes."""

from __future__ import annotations

from mock_server.openapi.document import build_document

__all__ = ["build_document"]
