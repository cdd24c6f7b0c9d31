"""Serving the app with uvicorn: in the foreground, or in a background thread.

The listening socket is bound here, before uvicorn starts, so a port in use is
one clear error and a test can ask for port 0 and learn the port it got.
With ``settings.http2`` the same app is served by Hypercorn instead
(:mod:`mock_server.transport.http2`); with ``settings.tls``, over TLS
(:mod:`mock_server.transport.tls`).
"""

from __future__ import annotations

import dataclasses
import gc
import json
import logging
import os
import signal
import socket
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import uvicorn
from uvicorn.supervisors import Multiprocess

from mock_server.app import MockApp, create_app
from mock_server.settings import OAuthClientSpec, RateLimit, Settings
from mock_server.transport.h11_protocol import MockConfig, MockH11Protocol
from mock_server.transport.httptools_protocol import MockHttpToolsProtocol
from mock_server.transport.tls import CertificateFiles, SelfSigned

if TYPE_CHECKING:
    from mock_server.transport.http2 import HypercornServer

_SETTINGS_ENV = "RESTWALK_MOCK_SETTINGS"


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: a free one). Raises OSError."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto=IPPROTO_TCP matters: asyncio sets TCP_NODELAY on accepted connections only
    # then, and without it every response waits ~40 ms for delayed ACKs (Nagle).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket, tls: bool = False) -> str:
    """The base URL a client uses to reach ``sock`` (``https`` with ``tls``)."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"{'https' if tls else 'http'}://{shown}:{port}"


def certificate_of(settings: Settings) -> tuple[CertificateFiles | None, SelfSigned | None]:
    """The certificate to serve ``settings`` with, and the made one to remove when done.

    None without TLS; the given files with ``cert`` and ``key``; else a
    certificate made now for the loopback names.
    """
    if not settings.tls:
        return None, None
    if settings.cert is not None and settings.key is not None:
        return CertificateFiles(cert=settings.cert, key=settings.key), None
    made = SelfSigned()
    return made.files, made


def tls_options(certificate: CertificateFiles | None) -> dict[str, Any]:
    """uvicorn's options for serving with ``certificate`` (none: cleartext)."""
    if certificate is None:
        return {}
    return {"ssl_certfile": str(certificate.cert), "ssl_keyfile": str(certificate.key)}


def uvicorn_config(app: Any, settings: Settings, **extra: Any) -> uvicorn.Config:
    """The uvicorn configuration every way of serving shares.

    The protocol is :class:`~mock_server.transport.httptools_protocol.MockHttpToolsProtocol`
    (llhttp, handing what it refuses to h11), or with ``http_parser="h11"``
    :class:`~mock_server.transport.h11_protocol.MockH11Protocol` alone; both answer
    unparseable requests with problem bodies and read ``settings`` from the
    config. ``proxy_headers`` is off: the mock server is nobody's backend, and
    a trusted ``X-Forwarded-For`` would let any local client pick the address
    the rate limit counts it under. WebSockets are off (``ws="none"``): the mock
    speaks plain HTTP, answers an ``Upgrade: websocket`` request as HTTP, and
    starts without importing a WebSocket library. The event loop is uvicorn's
    "auto": uvloop, a dependency wherever it builds, else asyncio's.
    """
    return MockConfig(
        app,
        settings,
        http=MockH11Protocol if settings.http_parser == "h11" else MockHttpToolsProtocol,
        ws="none",
        lifespan="off",
        log_config=None,
        # None: uvicorn leaves logger levels alone; configure_logging() sets them.
        log_level=None,
        timeout_keep_alive=max(1, round(settings.keep_alive_seconds)),
        h11_max_incomplete_event_size=settings.max_header_size + settings.max_uri_length + 1024,
        server_header=False,
        date_header=False,  # the app sets Date (ErrorLayer), from its clock
        proxy_headers=False,
        **extra,
    )


def configure_logging(level: str) -> None:
    """Access lines at ``level``; uvicorn's own start-up chatter only when debugging."""
    logging.basicConfig(level=level.upper(), format="%(levelname)s %(name)s: %(message)s")
    chatter = logging.DEBUG if level == "debug" else logging.WARNING
    logging.getLogger("uvicorn.error").setLevel(chatter)


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

    def start(self) -> str:
        """Start serving; returns the base URL once the server accepts connections."""
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
    """The app factory a worker process calls (``--workers N``)."""
    return settled(create_app(settings_from_env(os.environ[_SETTINGS_ENV])))


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
            "mock_server.transport.server:app_from_environment",
            settings,
            factory=True,
            workers=settings.workers,
            **tls,
        )
        Multiprocess(config, sockets=[sock]).run()
    finally:
        signal.signal(signal.SIGTERM, previous)
