"""How another tool is told to connect as restwalk does: the connection settings as the
options curl and HTTPie take (``--http2-prior-knowledge``, ``--http2``, ``-k``, ``-L``...).

``restwalk request --as curl`` (from its options and config.toml) and the TUI's copy
menu (from the session's client, whose protocol the palette may have changed) both go
through :func:`tool_options`, so a copied line speaks the protocol the session speaks:
h2c by prior knowledge, HTTP/2 by ALPN, or HTTP/1.1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from explorer.core.carry.curl import CurlOptions

if TYPE_CHECKING:
    from explorer.core.http.connection import ConnectionSettings

__all__ = ["tool_options"]


def tool_options(settings: ConnectionSettings, *, cacert: str | None = None) -> CurlOptions:
    """The options of another tool that connect as ``settings`` say.

    The protocol, the TLS check (``cacert``: the CA file given, if any), the proxy
    and redirects always; the time and redirect bounds only where they are not
    restwalk's defaults (curl's own have none, and a line is easier to read short).
    """
    from explorer.core.http.limits import DEFAULT_MAX_REDIRECTS, DEFAULT_MAX_TIME

    follows = settings.follow_redirects
    return CurlOptions(
        insecure=settings.verify is False,
        location=follows,
        max_time=settings.max_time if settings.max_time != DEFAULT_MAX_TIME else None,
        max_redirs=(
            settings.max_redirects
            if follows and settings.max_redirects != DEFAULT_MAX_REDIRECTS
            else None
        ),
        proxy=settings.proxy,
        cacert=cacert if settings.verify is not False else None,
        http2=settings.http2,
        http2_prior_knowledge=settings.http2_prior_knowledge,
    )
