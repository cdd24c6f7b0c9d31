"""How one exchange is to be sent: what a call chose over its client's defaults.

:meth:`~explorer.core.http.client.Client.send` and its kin fill one :class:`Sending`
and hand it down with the request: to the trip (:func:`explorer.core.http.trip.follow`:
redirects, timeouts, a reload) and to each hop
(:func:`explorer.core.http.one_hop.send_hop`: the cookie jar, a stream, the body's
progress). The bounds that hold for every exchange (its deadline, a body's size) are the
client's own.
"""

from __future__ import annotations

from typing import NamedTuple

import httpx

from explorer.core.http.limits import DEFAULT_MAX_REDIRECTS, DEFAULT_TIMEOUT
from explorer.core.http.one_hop import Streams
from explorer.core.http.progress import BodyProgress

__all__ = ["Sending"]


class Sending(NamedTuple):
    """The choices of one exchange. ``timeout``: seconds for each of connect, read,
    write and pool (an ``httpx.Timeout`` says each); ``cookies`` false leaves the cookie
    jar out (none of its cookies sent, none the answer sets kept); ``streams``: what
    becomes of a body that does not end; ``revalidate``: every hop asks the cache to check
    with the server (a reload); ``progress`` counts each hop's body as it comes."""

    follow_redirects: bool
    max_redirects: int = DEFAULT_MAX_REDIRECTS
    timeout: float | httpx.Timeout = DEFAULT_TIMEOUT
    cookies: bool = True
    streams: Streams = Streams()
    revalidate: bool = False
    progress: BodyProgress | None = None
