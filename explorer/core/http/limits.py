"""How long and how much a client allows by default: timeouts, a body's size, redirects.

Their own module so that the settings (:mod:`explorer.core.config`,
:mod:`explorer.core.http.connection`) name them without importing the client.
"""

from __future__ import annotations

__all__ = ["DEFAULT_MAX_BODY", "DEFAULT_MAX_REDIRECTS", "DEFAULT_MAX_TIME", "DEFAULT_TIMEOUT"]

#: Seconds allowed for each of connect, read, write and pool acquisition.
DEFAULT_TIMEOUT = 30.0
#: Seconds allowed for a whole exchange: redirects, a login and every byte of the body.
DEFAULT_MAX_TIME = 60.0
#: Bytes of one body kept in memory, counted decoded.
DEFAULT_MAX_BODY = 100 * 1000 * 1000
DEFAULT_MAX_REDIRECTS = 10
