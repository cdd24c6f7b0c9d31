"""A kept exchange (from the history) reopened as a page, and the request to send it again.

The page shows the response as it was kept; its links are read from the kept
body, so they work as on any page. ``r`` then sends :func:`spec_of` the kept
request: the method, URL, the headers the person chose and the body. The
headers restwalk or the connection add by themselves are left for them to add
again (``Host``, ``Content-Length``, ``User-Agent``, ``Accept-Encoding``...), and
so are cookies (the session's jar sends its own) and a credential the history
masked (the session's credential for the server is used instead).
"""

from __future__ import annotations

from explorer.core.exchange import Exchange, SentRequest
from explorer.core.request import USER_AGENT, RequestSpec
from explorer.core.session.history import Page
from explorer.core.storage.masking import MASK

__all__ = ["page_of", "spec_of"]

#: Headers a client or the connection sets by itself: not the person's to send again.
_ADDED = frozenset(
    {
        "host",
        "content-length",
        "connection",
        "keep-alive",
        "transfer-encoding",
        "accept-encoding",
        "cookie",
        "te",
        "upgrade",
        "http2-settings",
    }
)
#: Added by restwalk when a request says nothing else.
_DEFAULTS = frozenset({("user-agent", USER_AGENT), ("accept", "*/*")})


def _kept(name: str, value: str) -> bool:
    lname = name.lower()
    if lname in _ADDED or name.startswith(":") or (lname, value) in _DEFAULTS:
        return False
    return not (lname in ("authorization", "proxy-authorization") and value.endswith(MASK))


def spec_of(request: SentRequest) -> RequestSpec:
    """The request to send ``request`` again: its method, URL, own headers and body."""
    return RequestSpec(
        method=request.method,
        url=request.url,
        headers=tuple((name, value) for name, value in request.headers if _kept(name, value)),
        body=request.body if request.body else None,
    )


def page_of(exchange: Exchange, via: str = "history") -> Page:
    """``exchange`` as a page to show (its links still to be read)."""
    return Page(spec_of(exchange.request), exchange=exchange, via=via, reading=True)
