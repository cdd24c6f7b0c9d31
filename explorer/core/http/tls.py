"""The default TLS context, and loading it on a thread while the program starts.

Loading the CA bundle is most of what building an ``httpx`` client costs (about
20 ms of the TUI's start here), and OpenSSL does it with the GIL released. So
``restwalk`` starts it first and collects it when the client is built, by which
time it is ready. It is the context ``httpx`` would make (``SSL_CERT_FILE`` and
``SSL_CERT_DIR`` are honoured, else certifi's bundle); a bundle that cannot be
loaded is a :class:`~explorer.core.http.errors.TLSError` saying which variable to fix.
"""

from __future__ import annotations

import os
import ssl
import threading
from collections.abc import Callable

import httpx

from explorer.core.http.errors import TLSError

__all__ = ["default_context", "load_default_context"]

_CA_VARIABLES = ("SSL_CERT_FILE", "SSL_CERT_DIR")


def default_context() -> ssl.SSLContext:
    """httpx's default context: certificates verified against the trusted CA bundle."""
    try:
        return httpx.create_ssl_context()
    except (OSError, ssl.SSLError) as exc:
        # The first of these that is set is the one httpx read.
        source = next(
            (f"{name}={os.environ[name]}" for name in _CA_VARIABLES if os.environ.get(name)),
            "certifi's bundle",
        )
        raise TLSError(
            f"The trusted CA certificates could not be loaded from {source}.",
            hint="SSL_CERT_FILE must name a PEM file and SSL_CERT_DIR a directory of "
            "certificates; unset them to use certifi's bundle.",
            detail=str(exc),
        ) from None


def load_default_context() -> Callable[[], ssl.SSLContext]:
    """Start :func:`default_context` on a thread; call the result to wait for it.

    The call raises what loading raised, as building the client would have.
    """
    loaded: list[ssl.SSLContext] = []
    failed: list[TLSError] = []

    def load() -> None:
        try:
            loaded.append(default_context())
        except TLSError as exc:  # handed to the caller, in its thread
            failed.append(exc)

    thread = threading.Thread(target=load, name="restwalk-tls", daemon=True)
    thread.start()

    def result() -> ssl.SSLContext:
        thread.join()
        if failed:
            raise failed[0]
        return loaded[0]

    return result
