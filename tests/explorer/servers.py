"""Small real servers on 127.0.0.1 for the explorer's protocol tests.

- :class:`RawServer`: a TCP server whose handler gets each connected socket,
  for misbehaving servers (closing mid-body, never answering).
- :class:`IdleClosingServer`: a keep-alive server that drops the second request of
  each connection unanswered, as one whose idle timeout fires just as it arrives.
- :class:`HypercornServer`: an ASGI app served by Hypercorn, over TLS with a
  trustme certificate (HTTP/2 by ALPN) or in cleartext (h2c prior knowledge).
- :class:`CuttingProxy`: a TCP proxy to a server, whose connections a test can break
  mid-body (a stream's connection dropped on the way).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import struct
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trustme
from hypercorn.asyncio import serve
from hypercorn.config import Config


def closed_port() -> int:
    """A 127.0.0.1 port nobody listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class RawServer:
    """Accepts connections on a free port and hands each socket to ``handler``."""

    def __init__(self, handler: Callable[[socket.socket], None]) -> None:
        self.handler = handler
        self._sock = socket.socket()
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(16)
        self._sock.settimeout(0.1)
        self.port = int(self._sock.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._connections: list[socket.socket] = []

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self._connections.append(conn)
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        with contextlib.suppress(OSError):
            self.handler(conn)

    def __enter__(self) -> RawServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join(5)
        self._sock.close()
        for conn in self._connections:
            conn.close()


def read_head(conn: socket.socket) -> bytes:
    """Read one request head (up to the blank line) from ``conn``."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


KEPT_ALIVE_OK = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"


def read_request(conn: socket.socket) -> bytes | None:
    """One request (head, and a body as long as its Content-Length), or None at EOF."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def reset(conn: socket.socket) -> None:
    """Close ``conn`` with a TCP reset (SO_LINGER 0) rather than a FIN."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


class IdleClosingServer(RawServer):
    """Answers each connection's first request, keeping it alive; the next request on
    it is read and then dropped unanswered by ``drop`` (a close, or a reset).

    ``later`` handles connections after the first (default: the same as the first).
    """

    def __init__(
        self,
        drop: Callable[[socket.socket], None] = socket.socket.close,
        later: Callable[[socket.socket], None] | None = None,
    ) -> None:
        self.received: list[tuple[int, bytes]] = []
        self._lock = threading.Lock()
        self._count = 0
        self._drop = drop
        self._later = later
        super().__init__(self._serve_one)

    def _serve_one(self, conn: socket.socket) -> None:
        with self._lock:
            self._count += 1
            number = self._count
        if number > 1 and self._later is not None:
            self._later(conn)
            return
        request = read_request(conn)
        if request is None:
            return
        self.received.append((number, request))
        conn.sendall(KEPT_ALIVE_OK)
        request = read_request(conn)
        if request is None:
            return
        self.received.append((number, request))
        self._drop(conn)

    @property
    def connections(self) -> int:
        return self._count


class HypercornServer:
    """``app`` served by Hypercorn on a free 127.0.0.1 port in a thread.

    With ``tls``, the certificate comes from a fresh trustme CA and
    :attr:`client_context` trusts it; the server offers h2 and http/1.1 by ALPN.
    Without, it speaks cleartext HTTP/1.1 and h2c with prior knowledge.
    """

    def __init__(self, app: Any, *, tls: bool, tmp_path: Path) -> None:
        self.app = app
        self.tls = tls
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = int(sock.getsockname()[1])
        scheme = "https" if tls else "http"
        self.url = f"{scheme}://127.0.0.1:{self.port}"
        self.config = Config()
        self.config.bind = [f"fd://{sock.detach()}"]
        self.config.accesslog = None
        self.config.errorlog = None
        self.client_context: ssl.SSLContext | None = None
        if tls:
            ca = trustme.CA()
            cert = ca.issue_cert("127.0.0.1", "localhost")
            cert_file = tmp_path / "server.pem"
            key_file = tmp_path / "server.key"
            cert.cert_chain_pems[0].write_to_path(str(cert_file))
            cert.private_key_pem.write_to_path(str(key_file))
            self.config.certfile = str(cert_file)
            self.config.keyfile = str(key_file)
            self.client_context = ssl.create_default_context()
            ca.configure_trust(self.client_context)
        self._loop = asyncio.new_event_loop()
        self._shutdown: asyncio.Event | None = None
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)

        async def main() -> None:
            self._shutdown = asyncio.Event()
            self._started.set()
            await serve(self.app, self.config, shutdown_trigger=self._shutdown.wait)

        self._loop.run_until_complete(main())
        self._loop.close()

    def __enter__(self) -> HypercornServer:
        self._thread.start()
        self._started.wait(5)
        # Wait until the port accepts connections.
        for _ in range(200):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    break
            threading.Event().wait(0.01)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._shutdown is not None:
            self._loop.call_soon_threadsafe(self._shutdown.set)
        self._thread.join(10)


class CuttingProxy:
    """A TCP proxy on a free 127.0.0.1 port to ``port``; :meth:`cut` breaks every
    connection it carries (the client sees its connection reset mid-body), and new ones
    are carried as before."""

    def __init__(self, port: int) -> None:
        self.target = port
        self._server = RawServer(self._carry)
        self.port = self._server.port
        self.url = self._server.url
        self._lock = threading.Lock()
        self._open: list[socket.socket] = []
        #: Connections carried so far.
        self.connections = 0

    def _carry(self, client: socket.socket) -> None:
        upstream = socket.create_connection(("127.0.0.1", self.target), timeout=10)
        with self._lock:
            self._open += [client, upstream]
            self.connections += 1
        back = threading.Thread(target=self._pump, args=(upstream, client), daemon=True)
        back.start()
        self._pump(client, upstream)
        back.join(10)
        upstream.close()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for sock in (source, sink):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        """Break every connection carried now (a reset to the client, a close upstream)."""
        with self._lock:
            doomed, self._open = self._open, []
        for sock in doomed:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> CuttingProxy:
        self._server.__enter__()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.cut()
        self._server.__exit__(*exc_info)
