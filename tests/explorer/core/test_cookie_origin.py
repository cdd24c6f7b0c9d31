"""A cookie a server sets goes back to that server's origin only (issue 23, item 1).

RFC 6265 sends a cookie to every port of its host, and over plain http when it
lacks ``Secure``: restwalk sent the session cookie of ``127.0.0.1:18801`` to
``127.0.0.1:18802`` when a link or a redirect led there. The client here talks
to a function (``httpx.MockTransport``): no network, every request seen.
"""

from __future__ import annotations

from http.cookiejar import Cookie, CookieJar

import httpx

from explorer.core.http.client import Client
from explorer.core.http.cookie_header import forget_host, sets_cookies
from explorer.core.http.request import RequestSpec


class Origins:
    """Every server at once: ``/set`` sets the cookie given by ``?c=``, ``/go`` redirects
    to ``?to=``; each request's Cookie header is kept by the URL it went to."""

    def __init__(self) -> None:
        self.cookies: dict[str, str | None] = {}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.cookies[str(request.url.copy_with(query=None))] = request.headers.get("cookie")
        if request.url.path == "/set":
            return httpx.Response(200, headers={"Set-Cookie": request.url.params["c"]})
        if request.url.path == "/go":
            return httpx.Response(302, headers={"Location": request.url.params["to"]})
        return httpx.Response(200, json={})


async def _walk(*urls: str) -> dict[str, str | None]:
    origins = Origins()
    async with Client(transport=httpx.MockTransport(origins)) as client:
        for url in urls:
            await client.send(RequestSpec("GET", url))
    return origins.cookies


async def test_a_cookie_goes_to_another_port_of_its_host_never() -> None:
    seen = await _walk(
        "http://127.0.0.1:18801/set?c=sid%3Ds-1%3B%20Path%3D%2F",
        "http://127.0.0.1:18802/other",
        "http://127.0.0.1:18801/again",
    )
    assert seen["http://127.0.0.1:18802/other"] is None
    assert seen["http://127.0.0.1:18801/again"] == "sid=s-1"


async def test_a_redirect_to_another_port_goes_without_the_cookie() -> None:
    seen = await _walk(
        "http://127.0.0.1:18801/set?c=sid%3Ds-1",
        "http://127.0.0.1:18801/go?to=http://127.0.0.1:18802/landed",
    )
    assert seen["http://127.0.0.1:18801/go"] == "sid=s-1"
    assert seen["http://127.0.0.1:18802/landed"] is None


async def test_a_domain_attribute_does_not_widen_it() -> None:
    seen = await _walk(
        "http://api.example.test/set?c=sid%3Ds-1%3B%20Domain%3Dexample.test",
        "http://evil.example.test/x",
        "http://api.example.test/y",
    )
    assert seen["http://evil.example.test/x"] is None
    assert seen["http://api.example.test/y"] == "sid=s-1"


async def test_a_cookie_set_over_https_never_goes_over_http() -> None:
    seen = await _walk("https://a.test/set?c=sid%3Ds-1", "http://a.test/plain", "https://a.test/y")
    assert seen["http://a.test/plain"] is None
    assert seen["https://a.test/y"] == "sid=s-1"


async def test_a_server_cannot_name_the_origin_its_cookie_goes_to() -> None:
    seen = await _walk(
        "http://a.test/set?c=sid%3Ds-1%3B%20restwalk-origin%3Dhttp%3A%2F%2Fb.test",
        "http://b.test/x",
    )
    assert seen["http://b.test/x"] is None


async def test_an_expired_cookie_is_forgotten_as_before() -> None:
    seen = await _walk(
        "http://a.test/set?c=sid%3Ds-1",
        "http://a.test/set?c=sid%3D%3B%20Max-Age%3D0",
        "http://a.test/y",
    )
    assert seen["http://a.test/y"] is None


def _cookie(domain: str, name: str) -> Cookie:
    return Cookie(
        0, name, "v", None, False, domain, True, domain.startswith("."), "/", True,
        False, None, False, None, None, {},
    )  # fmt: skip


def test_a_logout_forgets_the_cookies_sent_to_its_host_only() -> None:
    """Its host's own (``shop.local``: http.cookiejar's name for a dotless host's), a
    domain's above it; not another host's, nor a subdomain's."""
    jar = CookieJar()
    for domain, name in [
        ("shop.local", "own"),
        ("api.example.com", "api"),
        (".example.com", "parent"),
        ("other.example.com", "sibling"),
        ("v2.api.example.com", "below"),
    ]:
        jar.set_cookie(_cookie(domain, name))
    assert forget_host(jar, "shop") == 1
    assert forget_host(jar, "api.example.com") == 2
    assert sorted(cookie.name for cookie in jar) == ["below", "sibling"]


def test_only_an_answer_that_sets_cookies_goes_to_the_jar() -> None:
    """The jar reads Set-Cookie and Set-Cookie2 only; any other answer is not handed to it
    (it would copy every header twice to find nothing, on every page)."""
    assert sets_cookies(httpx.Headers({"Set-Cookie": "sid=1"}))
    assert sets_cookies(httpx.Headers({"set-cookie2": 'sid="1"; Version="1"'}))
    assert not sets_cookies(httpx.Headers({"Content-Type": "application/json", "Vary": "Cookie"}))
