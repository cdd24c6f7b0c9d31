"""Redirects, one hop at a time: the request a 3xx asks for, and its Location kept safe.

The method changes the way browsers do it (303 → GET, 301/302 after a POST → GET,
307/308 keep it); the secrets go when a hop leaves the origin (but for http →
https on the same host): the credential and every header
:func:`~explorer.core.http.secret_rules.is_secret_header` names (``X-Api-Key``,
``Private-Token``...), as for any request derived from another
(:mod:`explorer.core.session.derived`); :func:`withheld_on_hop` names them. A
Location to another scheme than http(s) or to port 0 is refused by name. Pure
functions of httpx's requests and responses: no I/O.
"""

from __future__ import annotations

from http import HTTPStatus

import httpx

from explorer.core.http.errors import RedirectRefused
from explorer.core.http.secret_rules import is_secret_header, may_receive
from explorer.core.hypermedia.href_cleaning import clean_href
from explorer.core.text.lazy_pattern import LazyPattern

__all__ = [
    "HEADERS_KEPT",
    "REDIRECT_STATUSES",
    "header_text",
    "hold_location",
    "location_of",
    "next_hop",
    "raw_headers",
    "withheld_on_hop",
]

_FOLLOWED_SCHEMES = ("http", "https")

REDIRECT_STATUSES = frozenset(
    {
        HTTPStatus.MOVED_PERMANENTLY,
        HTTPStatus.FOUND,
        HTTPStatus.SEE_OTHER,
        HTTPStatus.TEMPORARY_REDIRECT,
        HTTPStatus.PERMANENT_REDIRECT,
    }
)

# Headers that describe a body: they go when a redirect turns the request into a GET.
_BODY_HEADERS = frozenset(
    {"content-length", "content-type", "transfer-encoding", "content-encoding"}
)


def _redirect_method(method: str, status: int) -> str:
    if status == HTTPStatus.SEE_OTHER and method != "HEAD":
        return "GET"
    if status in (HTTPStatus.MOVED_PERMANENTLY, HTTPStatus.FOUND) and method == "POST":
        return "GET"
    return method


def next_hop(request: httpx.Request, response: httpx.Response) -> httpx.Request | None:
    """The request a redirect asks for, or ``None`` when ``response`` is no redirect.

    Pure: the cookie header is left out, for the caller to fill from its jar. Raises
    :class:`RedirectRefused` for a scheme other than http(s) or port 0.
    """
    location = location_of(response)
    if response.status_code not in REDIRECT_STATUSES or location is None:
        return None
    location = clean_href(location.strip())  # (its control characters as a browser takes them)
    scheme = _SCHEME.match(location)
    if scheme is not None and scheme.group(1).lower() not in _FOLLOWED_SCHEMES:
        raise RedirectRefused(
            f"The server redirected to a {scheme.group(1)}: URL, which restwalk does not "
            "follow (only http and https).",
            url=str(request.url),
        )
    try:
        url = httpx.URL(location)
    except httpx.InvalidURL:
        return None  # not followable: the 3xx itself is the answer to show
    if url.port is not None and not 0 < url.port < _PORTS:
        raise RedirectRefused(
            f"The server redirected to port {url.port}, where nothing can listen.",
            hint="The server's Location is wrong; --no-redirects shows the 3xx itself.",
            browser_hint="The server's Location is wrong; the Trip tab (t) shows the 3xx.",
            url=str(request.url),
        )
    if url.scheme and not url.host:
        url = url.copy_with(host=request.url.host)
    if url.is_relative_url:
        url = request.url.join(url)
    if request.url.fragment and not url.fragment:
        url = url.copy_with(fragment=request.url.fragment)
    method = _redirect_method(request.method, response.status_code)
    keep_body = method == request.method
    drop = {"host", "cookie"}
    if not keep_body:
        drop |= _BODY_HEADERS
    secrets_go = may_receive(request.url, url)
    headers = [
        (k, v)
        for k, v in request.headers.raw
        if (name := k.decode("latin-1")).lower() not in drop
        and (secrets_go or not is_secret_header(name))
    ]
    content = request.content if keep_body else None
    return httpx.Request(
        method, url, headers=headers, content=content, extensions=dict(request.extensions)
    )


def withheld_on_hop(
    request: httpx.Request, following: httpx.Request, given_for: httpx.URL, cookie: str | None
) -> list[str]:
    """The secret headers of ``request`` its redirect ``following`` goes without: those
    :func:`next_hop` left out, and ``Cookie`` when the ``cookie`` given for ``given_for``
    (by hand, not the jar's) went with ``request`` and may not go with ``following``."""
    names = [
        header_text(name)
        for name in dict.fromkeys(k for k, _ in request.headers.raw)
        if name.lower() != b"cookie"
        and is_secret_header(header_text(name))
        and name.decode("latin-1") not in following.headers
    ]
    if cookie and may_receive(given_for, request.url) and not may_receive(given_for, following.url):
        names.append("Cookie")
    return names


_SCHEME = LazyPattern(r"([A-Za-z][A-Za-z0-9+.-]*):")
_PORTS = 1 << 16
# Where a redirect's headers are kept, Location included (see hold_location).
HEADERS_KEPT = "restwalk.headers"


async def hold_location(response: httpx.Response) -> None:
    """Take a redirect's Location out of httpx's sight, keeping the headers aside.

    httpx builds the next request of every redirect, even one it is told not to
    follow, and raises for a Location it cannot build (``javascript:alert(1)``),
    losing the response. Redirects are followed here, by :func:`next_hop`, which
    reads the Location kept aside and refuses such a one by name.
    """
    if response.has_redirect_location:
        response.extensions[HEADERS_KEPT] = list(response.headers.raw)
        del response.headers["Location"]


def raw_headers(response: httpx.Response) -> list[tuple[bytes, bytes]]:
    kept: list[tuple[bytes, bytes]] | None = response.extensions.get(HEADERS_KEPT)
    return kept if kept is not None else list(response.headers.raw)


def location_of(response: httpx.Response) -> str | None:
    for name, value in raw_headers(response):
        if name.lower() == b"location":
            return header_text(value)
    return None


def header_text(raw: bytes) -> str:
    """A header name or value as text: UTF-8 when it is, else Latin-1 (RFC 9110 obs-text)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")
