"""Starting the bundled mock server, at the port it prefers or, when that is taken, at a
free one (:mod:`explorer.core.bundled` says which and why).

``restwalk`` with no URL binds its socket (:func:`listen`) and serves the TUI's start
page from it in a process of its own (:mod:`~explorer.cli.bundled_child`), started
before the UI is imported; ``restwalk bookmarks NAME`` walks a bookmark made on it from
one started in-process for the walk (:func:`start_bundled_mock`).
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Mapping
from typing import TYPE_CHECKING

from explorer.core.bundled.port import PORT_ENV

if TYPE_CHECKING:
    from explorer.core.bundled.rebase import BundledMock
    from mock_server import BackgroundServer

__all__ = [
    "base_url",
    "bundled_mock_at",
    "environ_port",
    "listen",
    "reset_mock_data",
    "serve_mock_on",
    "start_bundled_mock",
]

# What binding a port that is someone else's raises.
_TAKEN = frozenset({errno.EADDRINUSE, errno.EACCES})


def start_bundled_mock(port: int) -> tuple[BackgroundServer, BundledMock]:
    """The bundled mock server started in-process on 127.0.0.1 at ``port`` (0: a free
    one), or at a free port when ``port`` is taken; the :class:`BundledMock` says where,
    and why there.

    Raises ``OSError`` or ``RuntimeError`` when it cannot start at all.
    """
    sock, taken = listen(port)
    base = base_url(sock)
    return serve_mock_on(sock), bundled_mock_at(base, port, taken)


def listen(port: int) -> tuple[socket.socket, bool]:
    """A socket listening on 127.0.0.1 at ``port`` (0: a free one), or at a free port when
    ``port`` is taken, and whether it was. Raises ``OSError`` when none can be had.

    Its address is known before any server serves on it, and connections made meanwhile
    wait in its queue: ``restwalk`` binds the bundled mock's socket itself, and its UI
    starts while the mock's process is still starting (:mod:`~explorer.cli.bundled_child`).
    """
    try:
        return _listening(port), False
    except OSError as error:
        if port == 0 or error.errno not in _TAKEN:
            raise
    return _listening(0), True


def _listening(port: int) -> socket.socket:
    # proto=IPPROTO_TCP, as the mock's own sockets (mock_server.transport.server.bind_socket):
    # asyncio sets TCP_NODELAY on accepted connections only then, and without it every
    # response waits ~40 ms for delayed ACKs.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen(socket.SOMAXCONN)
    except OSError:
        sock.close()
        raise
    return sock


def serve_mock_on(sock: socket.socket) -> BackgroundServer:
    """The mock server serving on ``sock`` (a listening socket, from :func:`listen`) in a
    thread of this process; the socket is the server's from now on.

    Raises ``OSError`` or ``RuntimeError`` when it cannot start.
    """
    from mock_server import BackgroundServer, Settings

    host, port = sock.getsockname()[:2]
    try:
        server = BackgroundServer(Settings(host=host, port=port))
    except BaseException:
        sock.close()
        raise
    server.start(sock)
    return server


def base_url(sock: socket.socket) -> str:
    """The base URL of the bundled mock listening on ``sock``."""
    host, port = sock.getsockname()[:2]
    return f"http://{host}:{port}"


def bundled_mock_at(base: str, port: int, taken: bool) -> BundledMock:
    """The bundled mock answering at ``base``, asked for at ``port``, which was ``taken``."""
    # (Here, not at the top: the mock's own process, which imports this module to start
    # the server, then imports none of restwalk's client, httpx neither.)
    from explorer.core.bundled.rebase import BundledMock
    from explorer.core.http.secret_rules import origin_of

    if not taken:
        return BundledMock(origin_of(base))
    note = (
        f"Port {port} is taken (another restwalk, or another server), so the bundled mock "
        f"server answers at {base} this time. History entries and bookmarks made on it "
        f"follow it there. ${PORT_ENV} chooses another port."
    )
    return BundledMock(origin_of(base), note)


def environ_port(environ: Mapping[str, str]) -> int:
    """The port ``environ`` asks for (see :func:`~explorer.core.bundled.port.preferred_port`);
    a bad one is bad usage."""
    from explorer.cli.errors import UsageError
    from explorer.core.bundled.port import preferred_port

    try:
        return preferred_port(environ)
    except ValueError as error:
        raise UsageError(str(error)) from None


def reset_mock_data(server: BackgroundServer) -> None:
    """Put ``server``'s data back to its seed (a lesson's fresh start), from any thread but
    the server's own: no request goes over the wire, so none is in the learner's
    exchanges or history. The TUI's bundled mock does it in its own process, when the
    course asks (:meth:`~explorer.cli.bundled_child.BundledProcess.resetter`)."""
    service = server.app.service
    service.store.reset()
    if service.guest is not None:
        service.guest.reset()
