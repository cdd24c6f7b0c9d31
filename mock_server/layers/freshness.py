"""Freshness layer: each request sees the data as the database has it when it begins.

With ``--store postgresql://`` other instances write to the same database;
this layer starts a new view of the store for each request (see
:mod:`mock_server.store.freshness`), so a write acknowledged by any instance
before a request arrives is in what the request reads. It costs nothing
without a shared database, and one round trip per request (made lazily, at
the first look at the data) with one.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from mock_server.service import Service
from mock_server.store.freshness import begin_view


class FreshnessLayer:
    """Begins a new view of the store for each request."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            begin_view()
        await self.app(scope, receive, send)
