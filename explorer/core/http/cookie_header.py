"""The Cookie header of a request: the jar's cookies for its URL, and any given by hand.

A cookie goes back as the server set it. A server may set one whose value is
not ASCII (RFC 6265 allows none, and browsers send such a value back as it came):
the header is then sent as bytes, Latin-1 when the text came from Latin-1 (as
httpx decodes a header that is not UTF-8), else UTF-8. httpx's own way, through
``Cookies.set_cookie_header``, encodes the header as ASCII and fails on such a
cookie, which would make every later request to that server fail.

A cookie goes back only to the origin (``scheme://host:port``) that set it
(:class:`OriginPolicy`), as every secret restwalk holds does
(:func:`~explorer.core.http.secret_rules.may_receive`). RFC 6265 lets a
cookie go to every port of its host, and to plain ``http`` when it lacks
``Secure``: the session cookie of an API on ``127.0.0.1:8000`` went with a
link or a redirect to whatever listened on ``127.0.0.1:9000``, and a cookie
set over ``https`` went over ``http`` in clear. A ``Domain`` attribute does
not widen it either: a cookie is the origin's that set it, as a credential
given with ``--cookie`` is.
"""

from __future__ import annotations

import urllib.request
from http.cookiejar import Cookie, CookieJar, DefaultCookiePolicy

import httpx

from explorer.core.http.secret_rules import may_receive, origin_of

__all__ = [
    "ORIGIN_ATTRIBUTE",
    "OriginPolicy",
    "attach_cookies",
    "forget_host",
    "restore",
    "sets_cookies",
]

#: The attribute a kept cookie holds the origin that set it in (a name no server sends:
#: a ``Set-Cookie`` attribute is never kept under it, see :meth:`OriginPolicy.set_ok`).
ORIGIN_ATTRIBUTE = "restwalk-origin"


class OriginPolicy(DefaultCookiePolicy):
    """The standard rules (RFC 6265 via :mod:`http.cookiejar`), and one more: a cookie goes
    back only to the origin that set it (see the module docstring)."""

    def set_ok(self, cookie: Cookie, request: urllib.request.Request) -> bool:
        """Keep ``cookie`` as the standard rules say, marked with the origin that set it."""
        if not super().set_ok(cookie, request):
            return False
        origin = origin_of(request.get_full_url())
        if not origin:
            return False
        cookie.set_nonstandard_attr(ORIGIN_ATTRIBUTE, origin)
        return True

    def return_ok(self, cookie: Cookie, request: urllib.request.Request) -> bool:
        """Send ``cookie`` as the standard rules say, and only to the origin that set it (a
        cookie without one, put in the jar by hand, goes by the standard rules)."""
        if not super().return_ok(cookie, request):
            return False
        origin = cookie.get_nonstandard_attr(ORIGIN_ATTRIBUTE)
        return origin is None or may_receive(origin, request.get_full_url())


def attach_cookies(
    request: httpx.Request, jar: CookieJar | None, explicit: str | None = None
) -> None:
    """Set ``request``'s Cookie header: the ``explicit`` cookies, then (with a ``jar``) the
    jar's for its URL; no header when there are none."""
    if "cookie" in request.headers:
        del request.headers["cookie"]
    from_jar = _jar_header(jar, str(request.url)) if jar is not None else None
    value = "; ".join(part for part in (explicit, from_jar) if part)
    if not value:
        return
    if value.isascii():
        request.headers["Cookie"] = value
        return
    try:
        raw = value.encode("latin-1")
    except UnicodeEncodeError:
        raw = value.encode("utf-8")
    request.headers = httpx.Headers([*request.headers.raw, (b"Cookie", raw)])


def _jar_header(jar: CookieJar, url: str) -> str | None:
    """What ``jar`` would send to ``url``, as text."""
    probe = urllib.request.Request(url)
    jar.add_cookie_header(probe)
    return probe.get_header("Cookie")


def sets_cookies(headers: httpx.Headers) -> bool:
    """Whether a response with ``headers`` has cookies for the jar: :mod:`http.cookiejar`
    reads only ``Set-Cookie`` and ``Set-Cookie2``, and handed an answer without either
    it still builds two ``email.message.Message`` copies of every header to find none
    (some 35 µs an answer, while the page waits to be shown)."""
    return "set-cookie" in headers or "set-cookie2" in headers


def restore(jar: CookieJar, cookies: list[Cookie]) -> None:
    """Put ``jar`` back to holding exactly ``cookies``."""
    jar.clear()
    for cookie in cookies:
        jar.set_cookie(cookie)


def forget_host(jar: CookieJar, host: str) -> int:
    """Drop every cookie ``jar`` would send to ``host``: its own (``host.local`` too, as
    :mod:`http.cookiejar` keeps a dotless host's) and those of a domain above it; returns
    how many went."""
    doomed = [
        cookie
        for cookie in jar
        if cookie.domain.lstrip(".") in (host, f"{host}.local")
        or host.endswith("." + cookie.domain.lstrip("."))
    ]
    for cookie in doomed:
        jar.clear(cookie.domain, cookie.path, cookie.name)
    return len(doomed)
