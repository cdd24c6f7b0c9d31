"""Serving the app with Hypercorn, for HTTP/2 (``restwalk-mock --http2``).

uvicorn speaks HTTP/1.x only, so ``--http2`` hands the same app to Hypercorn,
which serves on one port:

- HTTP/1.1 (h11), as without ``--http2``;
- h2c by prior knowledge: a client that opens with the HTTP/2 preface
  (``curl --http2-prior-knowledge``);
- the h2c upgrade (RFC 7540 §3.2): a request without a body carrying
  ``Upgrade: h2c`` and ``HTTP2-Settings`` gets a real ``101 Switching
  Protocols``, and its answer comes as HTTP/2 stream 1. A request *with* a
  body is answered over HTTP/1.1, the upgrade ignored, as RFC 7540 allows;
- over TLS, h2 or http/1.1 as the client picks by ALPN.

What Hypercorn's HTTP/1.1 does differently from the uvicorn protocol of
:mod:`mock_server.transport.h11_protocol`, all before the app sees a request (the app's
layers give every other answer the same way on both engines):

- a request h11 cannot parse (a malformed line, ``HTTP/2.5`` in a request
  line, a head over the size limit) gets a bare ``400`` with no body, not a
  problem body with 400, 414, 431 or 505;
- ``100 Continue`` is sent as soon as the head arrives, not when the app
  first reads the body;
- a client that stops sending in the middle of a head is disconnected after
  the keep-alive time without a ``408``.

A body's deadlines (``408``) hold on both engines: under Hypercorn they are
kept by :class:`~mock_server.transport.body_guard.BodyGuard`, around the app.

The listening socket is the one :func:`mock_server.transport.server.bind_socket` made,
handed over by file descriptor.

**Errors of a connection** are one log line (:func:`one_line_per_connection`).
A connection whose handling fails inside Hypercorn (an ``HTTP2-Settings``
header that is not base64url, say) is closed, and asyncio would log the
error with a traceback; here it is one warning naming the error, with the
traceback only at ``--log-level debug``. And Hypercorn 0.18 leaves the task
of an HTTP/2 response waiting for good when its client goes away while the
response still has bytes to send (the stream's buffer is never closed).
Such tasks wait until shutdown, where Hypercorn cancels what the graceful
time did not finish; on Python before 3.12, asyncio then logs each cancelled
connection as an error with a traceback (CPython gh-113538). A connection
cancelled at shutdown is no error: nothing is logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from typing import Any

from hypercorn.asyncio import serve
from hypercorn.config import Config

from mock_server.settings import Settings
from mock_server.transport.body_guard import BodyGuard
from mock_server.transport.tls import CertificateFiles

logger = logging.getLogger(__name__)


def one_line_per_connection(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's exception handler: a connection's error in one line, or none.

    Nothing for a connection cancelled at shutdown (gh-113538); one warning
    for a connection that failed; the default handling for anything else.
    """
    error = context.get("exception")
    if isinstance(error, asyncio.CancelledError):
        return
    if isinstance(error, Exception) and "client_connected_cb" in context.get("message", ""):
        causes = "; ".join(f"{_name(type(e))}: {e}" for e in _leaves(error))
        logger.warning("a connection was closed on an error: %s", causes)
        logger.debug("the connection's error", exc_info=error)
        return
    loop.default_exception_handler(context)


def _name(kind: type[BaseException]) -> str:
    """``KeyError``, ``binascii.Error``: the module unless it is the builtins."""
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


def _leaves(error: BaseException) -> list[BaseException]:
    """The errors inside ``error``, through any exception groups (a TaskGroup raises one)."""
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


def hypercorn_config(
    settings: Settings, sock: socket.socket, certificate: CertificateFiles | None
) -> Config:
    """Hypercorn's configuration for serving ``settings`` on ``sock`` (which it takes over).

    Like the uvicorn configuration: no ``Server`` or ``Date`` header of the
    engine's (the app sets both), the same keep-alive time and head size limit,
    and logging through the ``hypercorn.access`` and ``hypercorn.error`` loggers.
    """
    config = Config()
    # detach(): Hypercorn closes the socket it wraps around the descriptor; the
    # socket object here must not close the same number again later.
    config.bind = [f"fd://{sock.detach()}"]
    config.include_server_header = False
    config.include_date_header = False
    config.keep_alive_timeout = settings.keep_alive_seconds
    config.h11_max_incomplete_size = settings.max_header_size + settings.max_uri_length + 1024
    config.accesslog = logging.getLogger("hypercorn.access")
    config.errorlog = logging.getLogger("hypercorn.error")
    if certificate is not None:
        config.certfile = str(certificate.cert)
        config.keyfile = str(certificate.key)
        config.alpn_protocols = ["h2", "http/1.1"]
    return config


class HypercornServer:
    """Hypercorn with the part of ``uvicorn.Server``'s interface :class:`BackgroundServer` uses.

    ``run(sockets=[sock])`` serves until :attr:`should_exit` is set (from any
    thread); :attr:`started` is true once the listening socket is served.
    """

    def __init__(
        self, app: Any, settings: Settings, certificate: CertificateFiles | None = None
    ) -> None:
        self.app = app
        self.settings = settings
        self.certificate = certificate
        self.started = False
        self._should_exit = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._exit = asyncio.Event()

    @property
    def should_exit(self) -> bool:
        """Set it to true, from any thread, to shut down gracefully."""
        return self._should_exit

    @should_exit.setter
    def should_exit(self, value: bool) -> None:
        self._should_exit = value
        if value and self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has ended already
                self._loop.call_soon_threadsafe(self._exit.set)

    def run(self, sockets: list[socket.socket]) -> None:
        """Serve on ``sockets[0]`` until :attr:`should_exit`; blocks."""
        asyncio.run(self._serve(sockets[0]))

    async def _serve(self, sock: socket.socket) -> None:
        config = hypercorn_config(self.settings, sock, self.certificate)
        self._loop = asyncio.get_running_loop()
        self._loop.set_exception_handler(one_line_per_connection)
        if self._should_exit:  # asked before the loop ran: nobody called the setter's set()
            self._exit.set()
        self.started = True  # the socket listens already: connections wait in its backlog
        app: Any = BodyGuard(self.app, self.settings)  # Any: the ASGI types differ in name only
        await serve(app, config, shutdown_trigger=self._exit.wait, mode="asgi")


def serve_http2(
    app: Any, settings: Settings, sock: socket.socket, certificate: CertificateFiles | None
) -> None:
    """Serve ``app`` on ``sock`` in the foreground until SIGINT or SIGTERM, then return.

    Both signals shut down gracefully (requests in progress are finished, event
    streams ended) and the process exits 0.
    """
    chatter = logging.DEBUG if settings.log_level == "debug" else logging.WARNING
    logging.getLogger("hypercorn.error").setLevel(chatter)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(one_line_per_connection)

        def stopping() -> None:
            stop.set()
            service = getattr(app, "service", None)
            if service is not None:
                service.close()  # open event streams end, so the graceful stop is quick

        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stopping)
        config = hypercorn_config(settings, sock, certificate)
        guarded: Any = BodyGuard(app, settings)  # Any: the ASGI types differ in name only
        await serve(guarded, config, shutdown_trigger=stop.wait, mode="asgi")

    asyncio.run(main())
