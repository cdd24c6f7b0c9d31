"""The default TLS context, its trusted CA certificates read at its first handshake.

Reading the CA bundle is most of what building an ``httpx`` client costs (some 25 ms
of CPU here, a tenth of the TUI's start), and a plain ``http://`` server (the bundled
mock, a local API) never needs it. So the client's default context is
:class:`DefaultContext`: made as ``httpx`` makes its own (``SSL_CERT_FILE`` and
``SSL_CERT_DIR`` honoured, else certifi's bundle), with the same checks (a
certificate required, the host name checked), but its certificates are read just
before the first handshake that needs them, never after it. A bundle that cannot be
read is then a :class:`~explorer.core.http.errors.TLSError` saying which variable to
fix, raised by that first ``https`` request; nothing falls back to checking less.
"""

from __future__ import annotations

import os
import ssl
import sys
import threading
from typing import Any

from explorer.core.http.errors import TLSError

__all__ = ["DefaultContext"]


class DefaultContext(ssl.SSLContext):
    """httpx's default client context, whose trusted CA certificates are read on first use.

    Everything but the certificates is set when it is made, as
    ``ssl.create_default_context`` sets it; :meth:`trust` reads them (once, whichever
    thread asks first), and every handshake (:meth:`wrap_bio`, :meth:`wrap_socket`)
    asks first. Until then it trusts no one: a handshake can only fail, never pass
    unchecked.
    """

    def __new__(cls) -> DefaultContext:
        return super().__new__(cls, ssl.PROTOCOL_TLS_CLIENT)

    def __init__(self) -> None:
        # PROTOCOL_TLS_CLIENT requires a certificate and checks the host name already;
        # said again, as ssl.create_default_context says it.
        self.verify_mode = ssl.CERT_REQUIRED
        self.check_hostname = True
        if sys.version_info >= (3, 13):  # (as create_default_context sets them since 3.13)
            self.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN | ssl.VERIFY_X509_STRICT
        keylog = os.environ.get("SSLKEYLOGFILE")  # (what create_default_context honours)
        if keylog and not sys.flags.ignore_environment:
            self.keylog_filename = keylog
        self._reading = threading.Lock()
        self._trusted = False

    def trust(self) -> None:
        """Read the trusted CA certificates, unless read already.

        Raises :class:`TLSError` naming where they were to come from when they cannot
        be read (then the next handshake tries again, and fails again).
        """
        if self._trusted:
            return
        with self._reading:
            if self._trusted:
                return
            name, cafile, capath = _ca_source()
            try:
                self.load_verify_locations(cafile=cafile, capath=capath)
            except (OSError, ssl.SSLError) as exc:
                raise TLSError(
                    f"The trusted CA certificates could not be loaded from {name}.",
                    hint="SSL_CERT_FILE must name a PEM file and SSL_CERT_DIR a directory "
                    "of certificates; unset them to use certifi's bundle.",
                    detail=str(exc),
                ) from None
            self._trusted = True

    def wrap_bio(self, *args: Any, **kwargs: Any) -> ssl.SSLObject:
        """A TLS connection over memory buffers (as anyio makes them), trusting the CAs."""
        self.trust()
        return super().wrap_bio(*args, **kwargs)

    def wrap_socket(self, *args: Any, **kwargs: Any) -> ssl.SSLSocket:
        """A TLS connection over a socket, trusting the CAs."""
        self.trust()
        return super().wrap_socket(*args, **kwargs)


def _ca_source() -> tuple[str, str | None, str | None]:
    """Where httpx reads the trusted CA certificates (``httpx.create_ssl_context``): its
    name for an error to say, and the file or the directory."""
    cert_file = os.environ.get("SSL_CERT_FILE")
    if cert_file:
        return f"SSL_CERT_FILE={cert_file}", cert_file, None
    cert_dir = os.environ.get("SSL_CERT_DIR")
    if cert_dir:
        return f"SSL_CERT_DIR={cert_dir}", None, cert_dir
    import certifi

    return "certifi's bundle", certifi.where(), None
