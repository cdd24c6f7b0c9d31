"""The listening socket and uvicorn's configuration, which every way of serving shares.

The listening socket is bound here, before uvicorn starts, so a port in use is
one clear error and a test can ask for port 0 and learn the port it got. The
certificate is chosen here too (``settings.tls``: :mod:`mock_server.transport.tls`).
What is served on them, and how (in the foreground, with workers, in a thread),
is :mod:`mock_server.serving`'s; with ``settings.http2`` Hypercorn serves instead of
uvicorn (:mod:`mock_server.transport.http2`).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from typing import TYPE_CHECKING, Any

import uvicorn

from mock_server.settings import Settings
from mock_server.transport import access_log
from mock_server.transport.http1 import MockConfig
from mock_server.transport.httptools_protocol import MockHttpToolsProtocol

if TYPE_CHECKING:
    from mock_server.transport.tls import CertificateFiles, SelfSigned


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
    # Imported here, with TLS asked for: cleartext, as the bundled mock serves, starts
    # without it (its certificates' dataclasses, tempfile, shutil: some 1.5 ms).
    from mock_server.transport.tls import CertificateFiles, SelfSigned

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
    http: type[asyncio.Protocol] = MockHttpToolsProtocol
    if settings.http_parser == "h11":
        # (imported only when asked for: h11 is some 9 ms of the usual start)
        from mock_server.transport.h11_protocol import MockH11Protocol

        http = MockH11Protocol
    return MockConfig(
        app,
        settings,
        http=http,
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
    """Access lines at ``level``, secrets masked; uvicorn's start-up chatter only when
    debugging."""
    logging.basicConfig(level=level.upper(), format="%(levelname)s %(name)s: %(message)s")
    access_log.install()
    chatter = logging.DEBUG if level == "debug" else logging.WARNING
    logging.getLogger("uvicorn.error").setLevel(chatter)
