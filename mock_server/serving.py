"""Serving the mock: the app factory's app on a socket, in the foreground or in a thread.

:func:`serve` serves in the foreground until SIGINT or SIGTERM, in one process or
in ``--workers`` processes (each rebuilds the app from the settings, passed in the
environment: :func:`app_from_environment`); :class:`BackgroundServer` serves on a
free port in a background thread, for the explorer's default start and the tests.
The socket and uvicorn's configuration are :mod:`mock_server.transport.server`'s;
with ``settings.http2`` the same app is served by Hypercorn instead
(:mod:`mock_server.transport.http2`); with ``settings.tls``, over TLS
(:mod:`mock_server.transport.tls`).
"""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import signal
import socket
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

import uvicorn
from uvicorn.supervisors import Multiprocess

from mock_server.app import MockApp, create_app
from mock_server.settings import OAuthClientSpec, RateLimit, Settings
from mock_server.transport.server import (
    bind_socket,
    certificate_of,
    configure_logging,
    tls_options,
    url_of,
    uvicorn_config,
)

if TYPE_CHECKING:
    from mock_server.transport.http2 import HypercornServer
    from mock_server.transport.tls import CertificateFiles, SelfSigned

_SETTINGS_ENV = "RESTWALK_MOCK_SETTINGS"


class BackgroundServer:
    """The mock server on a free 127.0.0.1 port in a background thread.

    ``with BackgroundServer() as server: httpx.get(server.url)``. The explorer's
    default start and the tests use it; ``server.app.service`` is the live state.
    With ``settings.http2`` it is served by Hypercorn; with ``settings.tls``,
    over TLS, and ``server.certificate.ca`` is the certificate to trust when
    the server made its own.
    """

    def __init__(self, settings: Settings | None = None, app: MockApp | None = None) -> None:
        self.settings = settings or Settings(host="127.0.0.1", port=0)
        self.app = app or create_app(self.settings)
        self._server: uvicorn.Server | HypercornServer | None = None
        self._thread: threading.Thread | None = None
        self._made: SelfSigned | None = None
        self.certificate: CertificateFiles | None = None
        self.url = ""

    def start(self, sock: socket.socket | None = None) -> str:
        """Start serving; returns the base URL once the server accepts connections.

        ``sock``: a listening socket to serve on (it is then the server's, closed when
        it stops), rather than one bound now at the settings' host and port: one bound
        by another process, which knew the address before this one had even started.
        """
        if sock is None:
            sock = bind_socket(self.settings.host, self.settings.port)
        self.url = url_of(sock, tls=self.settings.tls)
        self.certificate, self._made = certificate_of(self.settings)
        quiet = dataclasses.replace(self.settings, log_level="warning")
        server: uvicorn.Server | HypercornServer
        if self.settings.http2:
            from mock_server.transport.http2 import HypercornServer

            server = HypercornServer(self.app, quiet, self.certificate)
        else:
            server = uvicorn.Server(
                uvicorn_config(self.app, quiet, **tls_options(self.certificate))
            )
        self._server = server

        def run() -> None:
            try:
                server.run(sockets=[sock])
            finally:
                sock.close()

        self._thread = threading.Thread(target=run, name="restwalk-mock", daemon=True)
        self._thread.start()
        while not server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the mock server stopped while starting")
            self._thread.join(0.001)  # start-up takes ~10 ms: a coarser poll wastes ~5 of them
        return self.url

    def stop(self) -> None:
        """Stop serving and wait for the thread to end (open event streams end first)."""
        if self._server is not None:
            self._server.should_exit = True
            self.app.service.close()
        if self._thread is not None:
            self._thread.join(10)
        if self._made is not None:
            self._made.close()
        self._server = None
        self._thread = None
        self._made = None

    def __enter__(self) -> BackgroundServer:
        self.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


#: The settings that are paths (JSON has no such type).
_PATHS = ("db", "data", "cert", "key", "openapi", "tape", "replay")


def settings_to_env(settings: Settings) -> str:
    """``settings`` as JSON, for worker processes to rebuild."""
    data = dataclasses.asdict(settings)
    for name in _PATHS:
        value = getattr(settings, name)
        data[name] = str(value) if value else None
    data["disabled_methods"] = sorted(settings.disabled_methods)
    return json.dumps(data)


def settings_from_env(raw: str) -> Settings:
    """The inverse of :func:`settings_to_env`."""
    data = json.loads(raw)
    for name in _PATHS:
        data[name] = Path(data[name]) if data[name] else None
    data["disabled_methods"] = frozenset(data["disabled_methods"])
    data["fault_kinds"] = tuple(data["fault_kinds"])
    data["api_keys"] = tuple(data["api_keys"])
    data["oauth_clients"] = tuple(OAuthClientSpec(**spec) for spec in data["oauth_clients"])
    data["webhook_allow"] = tuple(data["webhook_allow"])
    data["webhook_retries"] = tuple(data["webhook_retries"])
    data["allowed_hosts"] = tuple(data["allowed_hosts"])
    if data["cors_origins"] is not None:
        data["cors_origins"] = tuple(data["cors_origins"])
    if data["rate_limit"] is not None:
        data["rate_limit"] = RateLimit(**data["rate_limit"])
    return Settings(**data)


def app_from_environment() -> MockApp:
    """The app factory a worker process calls (``--workers N``): a process of its own,
    so its logging is set up here too (it printed no access line before)."""
    settings = settings_from_env(os.environ[_SETTINGS_ENV])
    configure_logging(settings.log_level)
    return settled(create_app(settings))


def settled(app: MockApp) -> MockApp:
    """``app`` with its seeded store moved out of the garbage collector's sight.

    The seed is millions of objects with ``--seed-size`` in the hundred
    thousands, and every full collection walked them all: a request that
    happened to trigger one waited a second. Frozen objects are still freed by
    reference counting; only cycles among them would stay (the store has none).
    For a process that serves one app until it ends, not for in-process use.
    """
    gc.freeze()
    return app


def _stopped(signum: int, frame: FrameType | None) -> None:
    """SIGTERM after uvicorn's graceful shutdown: already done, nothing to do."""


def serve(
    settings: Settings, sock: socket.socket, certificate: CertificateFiles | None = None
) -> None:
    """Serve on ``sock`` in the foreground until SIGINT or SIGTERM.

    uvicorn shuts down gracefully on either signal, then raises the signal again
    so the previous handler runs: SIGINT becomes KeyboardInterrupt (the CLI
    suppresses it); for SIGTERM the handler installed here makes it a normal
    return, so the process exits 0 instead of dying by the signal.
    """
    configure_logging(settings.log_level)
    if settings.http2:
        from mock_server.transport.http2 import serve_http2

        serve_http2(settled(create_app(settings)), settings, sock, certificate)
        return
    tls = tls_options(certificate)
    previous = signal.signal(signal.SIGTERM, _stopped)
    try:
        if settings.workers == 1:
            config = uvicorn_config(settled(create_app(settings)), settings, **tls)
            uvicorn.Server(config).run(sockets=[sock])
            return
        os.environ[_SETTINGS_ENV] = settings_to_env(settings)
        config = uvicorn_config(
            "mock_server.serving:app_from_environment",
            settings,
            factory=True,
            workers=settings.workers,
            **tls,
        )
        Multiprocess(config, sockets=[sock]).run()
    finally:
        signal.signal(signal.SIGTERM, previous)
