"""The listening socket: accepted connections get TCP_NODELAY.

Without it, uvicorn's separate writes of headers and body meet Nagle's
algorithm and delayed ACKs, and every response over a real socket waits
about 40 ms (22 requests/s instead of over a thousand).
"""

from __future__ import annotations

import asyncio
import socket

from mock_server import BackgroundServer, Settings
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


def test_a_background_server_serves_on_a_socket_bound_before_it() -> None:
    """The TUI's bundled mock: restwalk binds the port, and the mock's process serves on
    it; connections made before it serves wait in the socket's queue, then are answered."""
    listening = bind_socket("127.0.0.1", 0)
    host, port = listening.getsockname()[:2]
    early = socket.create_connection((host, port))  # (queued: nothing serves yet)
    server = BackgroundServer(Settings(host="127.0.0.1", port=0))
    try:
        assert server.start(listening) == f"http://127.0.0.1:{port}"
        early.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert early.makefile("rb").readline().startswith(b"HTTP/1.1 200 ")
    finally:
        early.close()
        server.stop()
    assert listening.fileno() == -1  # (the server's once given: closed when it stops)
