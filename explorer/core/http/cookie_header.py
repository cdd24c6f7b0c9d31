"""The Cookie header of a request: the jar's cookies for its URL, and any given by hand.

A cookie goes back as the server set it. A server may set one whose value is
not ASCII (RFC 6265 allows none, and browsers send such a value back as it came):
the header is then sent as bytes, Latin-1 when the text came from Latin-1 (as
httpx decodes a header that is not UTF-8), else UTF-8. httpx's own way, through
``Cookies.set_cookie_header``, encodes the header as ASCII and fails on such a
cookie, which would make every later request to that server fail.
"""

from __future__ import annotations

import urllib.request
from http.cookiejar import Cookie, CookieJar

import httpx

__all__ = ["attach_cookies", "restore"]


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


def restore(jar: CookieJar, cookies: list[Cookie]) -> None:
    """Put ``jar`` back to holding exactly ``cookies``."""
    jar.clear()
    for cookie in cookies:
        jar.set_cookie(cookie)
