"""How to connect: TLS checks, proxy, HTTP/2, timeouts and bounds, redirects; one client
built from them.

``restwalk request``, ``restwalk links`` and the TUI take the same connection
options, and each becomes one :class:`ConnectionSettings`.
"""

from __future__ import annotations

import ssl
from typing import NamedTuple

from explorer.core.http.client import Client
from explorer.core.http.errors import TLSError
from explorer.core.http.limits import (
    DEFAULT_MAX_BODY,
    DEFAULT_MAX_REDIRECTS,
    DEFAULT_MAX_TIME,
    DEFAULT_TIMEOUT,
)

__all__ = ["ConnectionSettings", "ca_file_context"]


def ca_file_context(path: str) -> ssl.SSLContext:
    """A context trusting the CA certificates in the PEM file ``path`` (``--cacert``)."""
    try:
        return ssl.create_default_context(cafile=path)
    except (OSError, ssl.SSLError) as exc:
        raise TLSError(
            f"The CA certificates in {path!r} could not be loaded.",
            hint="--cacert needs a PEM file of one or more certificates.",
            detail=str(getattr(exc, "strerror", None) or exc),
        ) from None


class ConnectionSettings(NamedTuple):
    """The connection options. ``verify``: True checks certificates against the default
    CA bundle (read at the first handshake: :class:`explorer.core.http.tls.DefaultContext`),
    a context against its own CAs (``--cacert``), False not at all."""

    http2: bool = False
    http2_prior_knowledge: bool = False
    verify: ssl.SSLContext | bool = True
    proxy: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    follow_redirects: bool = True
    max_redirects: int = DEFAULT_MAX_REDIRECTS
    max_time: float = DEFAULT_MAX_TIME
    max_body: int = DEFAULT_MAX_BODY
    #: Start with the session's cache on (``restwalk --cache``).
    cache: bool = False

    @classmethod
    def of(cls, client: Client) -> ConnectionSettings:
        """How ``client`` connects now: its protocol (changed since it was built, maybe),
        TLS check, proxy, bounds and redirects."""
        return cls(
            http2=client.http2,
            http2_prior_knowledge=client.http2_prior_knowledge,
            verify=client.checks_tls,
            proxy=client.proxy,
            timeout=client.timeout,
            follow_redirects=client.follow_redirects,
            max_redirects=client.max_redirects,
            max_time=client.max_time,
            max_body=client.max_body,
            cache=client.caching,
        )

    def client(self) -> Client:
        """A new client that connects as these settings say."""
        client = Client(
            http2=self.http2,
            http2_prior_knowledge=self.http2_prior_knowledge,
            verify=self.verify,
            proxy=self.proxy,
            timeout=self.timeout,
            follow_redirects=self.follow_redirects,
            max_redirects=self.max_redirects,
            max_time=self.max_time,
            max_body=self.max_body,
        )
        if self.cache:
            client.set_caching(True)
        return client
