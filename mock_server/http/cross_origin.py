"""Which state-changing requests a browser sent from another origin (cross-site forgery).

A browser sends some requests to any server without asking it first: a form's
POST, a ``fetch`` whose method is GET, HEAD or POST with a form or plain-text
body and no header of its own. It sends the browser's cookies and cached Basic
credentials with them. A page on another origin (another site, or another port
of localhost: the same *site*, so even ``SameSite=Lax`` cookies go) can make the
mock place an order, log a person in, or switch maintenance on. Every other
cross-origin request is preflighted (CORS), and the CORS layer decides those.

The rule is the one Go's ``net/http.CrossOriginProtection`` applies, from the
Fetch Metadata and Origin headers a browser sets and a page cannot:

- a safe method (GET, HEAD, OPTIONS, TRACE) always passes;
- ``Sec-Fetch-Site: same-origin`` or ``none`` (typed by the person) passes;
- without ``Sec-Fetch-Site``, an ``Origin`` naming the ``Host`` the request was
  sent to passes, and so does no ``Origin`` at all (curl, scripts, old
  browsers: not a page);
- an origin ``--cors`` lists passes (its pages may use the server);
- with ``--cors`` for any origin, a request that had to be preflighted passes
  (a method other than POST, or a body type a form cannot send): the
  preflight already asked;
- anything else is refused. ``Origin: null`` (a sandboxed page, a file, or a
  page whose ``Referrer-Policy`` is ``no-referrer``) passes only when
  ``Sec-Fetch-Site`` says the request came from the same origin.

Pure functions over header values: no request object, no socket.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Methods that change nothing, and so need no protection.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
#: ``Sec-Fetch-Site`` values that mean the request did not come from another origin.
FIRST_PARTY = frozenset({"same-origin", "none"})
#: Body types a form (or a ``fetch`` without preflight) can send (Fetch: CORS-safelisted).
SIMPLE_BODY_TYPES = frozenset(
    {"application/x-www-form-urlencoded", "multipart/form-data", "text/plain"}
)
ANY_ORIGIN = "*"


def _authority(origin: str) -> str:
    """``host[:port]`` of a serialized origin (``scheme://host[:port]``), lower case."""
    return origin.partition("://")[2].lower()


def preflighted(method: str, content_type: str | None) -> bool:
    """True when a browser asks the server (CORS preflight) before sending this request."""
    if method != "POST":
        return True
    essence = (content_type or "").partition(";")[0].strip().lower()
    return bool(essence) and essence not in SIMPLE_BODY_TYPES


def refused_origin(
    method: str, headers: Mapping[str, str], trusted: tuple[str, ...] | None
) -> str | None:
    """The origin a browser sent this request from, when it must be refused; None: it passes.

    ``headers`` has lower-case names; ``trusted`` is ``--cors``'s list (None: off).
    The origin returned is what to name in the refusal (``null``, or the site's).
    """
    if method in SAFE_METHODS:
        return None
    fetch_site = headers.get("sec-fetch-site")
    origin = headers.get("origin")
    if fetch_site is not None and fetch_site.lower() in FIRST_PARTY:
        return None
    if fetch_site is None:
        if origin is None:
            return None
        host = headers.get("host", "").lower()
        if origin != "null" and host and _authority(origin) == host:
            return None
    shown = origin or "another site"
    if trusted is not None:
        if origin is not None and origin != "null" and origin in trusted:
            return None
        if ANY_ORIGIN in trusted and preflighted(method, headers.get("content-type")):
            return None
    return shown
