"""Origins: the ``scheme://host:port`` a credential, a version or a kept header is for.

A browser scopes what it remembers (cookies, credentials, permissions) to an
origin (RFC 6454); the session does the same, so a token given to one server is
never sent to another.
"""

from __future__ import annotations

import httpx

__all__ = ["origin_of"]


def origin_of(url: str) -> str:
    """``scheme://host:port`` of ``url`` (empty when it is not an absolute URL)."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError, ValueError):
        return ""
    if not parsed.scheme or not parsed.host:
        return ""
    port = f":{parsed.port}" if parsed.port else ""
    return f"{parsed.scheme}://{parsed.host}{port}"
