"""Speaking HTTP/1.1 (and HTTP/2 by prior knowledge) by hand over a socket.

httpx would refuse (or repair) most of what these tests send: malformed
request lines, odd versions, unknown methods, lying Content-Length. Every
call has a timeout, so a server that fails to answer fails the test instead
of hanging it.
"""

from __future__ import annotations

import socket
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import h2.config
import h2.connection
import h2.events
import orjson

TIMEOUT = 5.0


@dataclass
class RawResponse:
    """One response as read off the wire."""

    status: int
    head: str
    headers: dict[str, str]
    body: bytes

    def problem(self) -> dict[str, object]:
        """The problem document of a problem+json response (asserting it is one)."""
        # The app says charset=utf-8; answers made by the protocol itself may not.
        media_type = self.headers.get("content-type", "").split(";")[0]
        assert media_type == "application/problem+json", self.head
        document = orjson.loads(self.body)
        assert isinstance(document, dict)
        assert document["status"] == self.status
        return document


def connect(url: str, timeout: float = TIMEOUT) -> socket.socket:
    """A TCP connection to the server at ``url``."""
    parts = urlsplit(url)
    assert parts.hostname == "127.0.0.1"
    return socket.create_connection((parts.hostname, parts.port or 80), timeout=timeout)


class Reader:
    """Reads responses from a socket, keeping what arrives early for the next one."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def _fill(self) -> bool:
        chunk = self.sock.recv(65536)
        self.buffer += chunk
        return bool(chunk)

    def head(self) -> bytes:
        """The next response head (through the blank line)."""
        while b"\r\n\r\n" not in self.buffer:
            if not self._fill():
                raise ConnectionError(f"connection closed; got {self.buffer!r}")
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        return head

    def response(self, *, head_request: bool = False) -> RawResponse:
        """The next complete response (interim 1xx ones included, as responses)."""
        head = self.head().decode("latin-1")
        lines = head.split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(":") for line in lines[1:])
        }
        length = 0 if head_request or status < 200 else int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            if not self._fill():
                raise ConnectionError("connection closed inside a body")
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return RawResponse(status, head, headers, body)

    def closed(self, within: float = TIMEOUT) -> bool:
        """True if the server closes the connection within ``within`` seconds."""
        deadline = time.monotonic() + within
        self.sock.settimeout(within)
        try:
            while time.monotonic() < deadline:
                if not self._fill():
                    return True
        except TimeoutError:
            return False
        except ConnectionResetError:
            return True
        return False


def exchange(url: str, data: bytes, *, half_close: bool = False) -> RawResponse:
    """Send ``data`` on a new connection and read one response."""
    with connect(url) as sock:
        sock.sendall(data)
        if half_close:
            sock.shutdown(socket.SHUT_WR)
        return Reader(sock).response()


def request(
    method: str, target: str, *headers: str, body: bytes = b"", version: str = "1.1"
) -> bytes:
    """The bytes of a request with the given header lines (and a Host unless given) and body."""
    host = [] if any(h.lower().startswith("host:") for h in headers) else ["Host: 127.0.0.1"]
    lines = [f"{method} {target} HTTP/{version}", *host, *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def h2_exchange(
    url: str, path: str, *headers: tuple[str, str], authority: str = "127.0.0.1"
) -> RawResponse:
    """``GET path`` over HTTP/2 by prior knowledge, sent as given (h2 checks nothing).

    The response's ``head`` is its status line alone; ``headers`` are its fields.
    """
    client = h2.connection.H2Connection(
        h2.config.H2Configuration(client_side=True, validate_outbound_headers=False)
    )
    client.initiate_connection()
    pseudo = [(":method", "GET"), (":scheme", "http"), (":authority", authority), (":path", path)]
    client.send_headers(1, [*pseudo, *headers], end_stream=True)
    status, fields, body = 0, {}, b""
    with connect(url) as sock:
        sock.sendall(client.data_to_send())
        while True:
            data = sock.recv(65536)
            if not data:
                raise ConnectionError("connection closed before the end of the answer")
            for event in client.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived):
                    fields = {n.decode(): v.decode("latin-1") for n, v in event.headers}
                    status = int(fields.pop(":status"))
                elif isinstance(event, h2.events.DataReceived):
                    body += event.data
                    client.acknowledge_received_data(event.flow_controlled_length, 1)
                elif isinstance(event, h2.events.StreamEnded):
                    return RawResponse(status, f"HTTP/2 {status}", fields, body)
            sock.sendall(client.data_to_send())
