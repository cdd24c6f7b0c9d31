"""Connection layer: hands the layers inside the client's connection, for faults.

The mock can break a connection on purpose (``/faults/reset``, ``--fault-kind
reset``): that needs the transport, which ASGI does not carry. uvicorn's
``send`` leads to it (:func:`mock_server.transport.connection_faults.transport_of`);
this outermost layer, the only one that sees the server's own ``send``, puts
it in the scope's extensions. Nothing else here reads or writes the connection.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from mock_server.service import Service
from mock_server.transport.connection_faults import EXTENSION, transport_of


class ConnectionLayer:
    """Puts the connection's transport in ``scope["extensions"]`` when the server has one."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        transport = transport_of(send) if scope["type"] == "http" else None
        if transport is not None:
            scope["extensions"] = {**(scope.get("extensions") or {}), EXTENSION: transport}
        await self.app(scope, receive, send)
