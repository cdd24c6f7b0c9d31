"""A reload, as a browser's: with caching on, the stored answer is checked with the server.

A person who presses reload wants the server's current answer, not the copy kept
a minute ago: a browser's reload sends its request with ``Cache-Control:
max-age=0``, so that its cache revalidates what it stored (a conditional request,
``If-None-Match`` or ``If-Modified-Since``) instead of reusing it. hishel, the
caching library, reads ``no-cache`` from a request (RFC 9111 §5.2.1.4: "not
without successful validation on the origin server"), the same demand, and not
``max-age=0``: a reload goes with ``no-cache``. A link followed is no reload: a
fresh stored answer is still reused for it ("from cache").

The client marks a reload's requests with the :data:`RELOAD` extension; the cache
(:class:`~explorer.core.http.cache.CacheTransport`) adds the field with
:func:`as_reload` before it decides. Without caching nothing is added: there is no
copy to check.
"""

from __future__ import annotations

import httpx

__all__ = ["RELOAD", "RELOAD_DIRECTIVE", "as_reload", "is_reload"]

#: The request extension that makes a request a reload.
RELOAD = "restwalk.reload"
#: The ``Cache-Control`` a reload is sent with.
RELOAD_DIRECTIVE = "no-cache"


def is_reload(request: httpx.Request) -> bool:
    """True when ``request`` is a reload's."""
    return bool(request.extensions.get(RELOAD))


def as_reload(request: httpx.Request) -> None:
    """Make ``request`` demand a check with the server: ``Cache-Control: no-cache`` added,
    after the person's own ``Cache-Control`` (kept as it is) unless that says it."""
    given = ",".join(request.headers.get_list("cache-control")).lower()
    directives = {part.split("=", 1)[0].strip() for part in given.split(",")}
    if RELOAD_DIRECTIVE not in directives:
        added = (b"Cache-Control", RELOAD_DIRECTIVE.encode("ascii"))
        request.headers = httpx.Headers([*request.headers.raw, added])
