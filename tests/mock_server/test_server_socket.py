"""The listening socket: accepted connections get TCP_NODELAY.

Without it, uvicorn's separate writes of headers and body meet Nagle's
algorithm and delayed ACKs, and every response over a real socket waits
about 40 ms (22 requests/s instead of over a thousand).
"""

from __future__ import annotations

import asyncio
import socket

from mock_server.transport.server import bind_socket


async def test_accepted_connections_have_tcp_nodelay() -> None:
    listening = bind_socket("127.0.0.1", 0)
    accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            accepted.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    server = await asyncio.get_running_loop().create_server(Probe, sock=listening)
    try:
        host, port = listening.getsockname()[:2]
        _, writer = await asyncio.open_connection(host, port)
        assert await asyncio.wait_for(accepted, 5) != 0
        writer.close()
    finally:
        server.close()
        await server.wait_closed()
