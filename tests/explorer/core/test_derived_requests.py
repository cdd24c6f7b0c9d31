"""The one rule of derived requests: secrets keep to the origin they were given for.

Pure tests of :func:`explorer.core.session.derived.derive` and what reads it (the
session's followed links, a ``.http`` URL an answer chose), and the core client's
redirects over real sockets: two servers, two origins.
"""

from __future__ import annotations

import httpx
import pytest

from explorer.core.http import secret_rules
from explorer.core.http.client import Client
from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest
from explorer.core.http.request import BasicAuth, BearerAuth, CookieSession, LoginFlow, RequestSpec
from explorer.core.http.secret_rules import is_secret_header, is_secret_name, may_receive
from explorer.core.httpfile import parse_http
from explorer.core.httpfile.resolve import resolve_request
from explorer.core.httpfile.variables import VariableSources
from explorer.core.session import Page, Session
from explorer.core.session.derived import derive, scoped_to
from tests.explorer.origin_servers import two_origins

A = "http://a.test"
B = "http://b.test"
SECRETS = (
    ("X-Api-Key", "k-1"),
    ("Private-Token", "glpat-1"),
    ("Cookie", "sid=s-1"),
    ("Accept", "application/hal+json"),
    ("X-Amz-Security-Token", "st-1"),
)


# --- which names, which origins ------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "Authorization",
        "Proxy-Authorization",
        "Cookie",
        "X-Api-Key",
        "Api-Key",
        "Private-Token",
        "X-Auth-Token",
        "X-Access-Token",
        "X-Csrf-Token",
        "X-Amz-Security-Token",
        "X-Goog-Api-Key",
        "Ocp-Apim-Subscription-Key",
        "X-Hub-Signature-256",
        # Issue 23 checked again: these went to another origin and into the history.
        "X-Auth",
        "Auth",
        "X-Session-Id",
        "X-Jwt-Assertion",
        "Cf-Access-Jwt-Assertion",
        "X-Authorization",
        "X-Forwarded-Authorization",
        "X-Passcode",
        "Key",
        # A key the login dialog sends under the API's own header name.
        "X-Key",
        "Authorization-Key",
    ],
)
def test_secret_headers(name: str) -> None:
    assert is_secret_header(name)


@pytest.mark.parametrize(
    "name",
    [
        "Accept",
        "Idempotency-Key",
        "X-Idempotency-Key",
        "Sec-WebSocket-Key",
        "X-Request-Id",
        "WWW-Authenticate",
        "Access-Control-Allow-Credentials",  # CORS's rule ("true"), no credential
        "X-Auth-User",  # Swift's and Cloudflare's: the user beside the key, not the key
        "X-Auth-Email",
        "Session-Timeout",
        "X-Client-Id",
    ],
)
def test_headers_that_are_no_secret(name: str) -> None:
    assert not is_secret_header(name)


def test_names_secret_in_a_url_only() -> None:
    for name in ("code", "key", "sig", "auth"):
        assert is_secret_name(name, in_url=True)
        assert not is_secret_name(name)  # "code": "NOT_FOUND" in a JSON body stays
    for name in ("next_token", "pageToken", "NextToken", "token_type", "tokens_left"):
        assert not is_secret_name(name, in_url=True)
    for name in ("accessToken", "APIKey", "csrfmiddlewaretoken", "password_confirmation"):
        assert is_secret_name(name)


@pytest.mark.parametrize(
    ("given_for", "target", "receives"),
    [
        ("http://a.test/x", "http://a.test:80/y", True),
        ("http://a.test/", "https://a.test/", True),  # the upgrade, as httpx allows it
        ("https://a.test/", "http://a.test/", False),
        ("http://a.test:8000/", "https://a.test:8443/", False),
        ("http://127.0.0.1:1/", "http://127.0.0.1:2/", False),
        ("http://a.test/", "http://b.test/", False),
        ("http://a.test/", "http://x.a.test/", False),
        ("", "http://a.test/", False),
    ],
)
def test_which_origin_may_receive(given_for: str, target: str, receives: bool) -> None:
    assert may_receive(given_for, target) is receives


def test_a_url_asked_about_again_is_not_parsed_again() -> None:
    """A followed link asks whether the page's secrets may go with it, and the client each
    exchange whether its cookies may: the page's URL parsed once, not at every ask (httpx
    parses a URL in some 60 us); an ``httpx.URL`` given is used as it is."""
    given = httpx.URL("http://b.test/")
    secret_rules._parsed.cache_clear()
    assert may_receive("http://a.test/x", "http://a.test/y") is True
    assert may_receive("http://a.test/x", "http://a.test/y") is True
    assert may_receive("http://a.test/x", given) is False
    assert may_receive(given, "not a url") is False
    parses = secret_rules._parsed.cache_info()
    assert (parses.misses, parses.hits) == (3, 3)


# --- derive --------------------------------------------------------------------------------


def test_a_note_names_a_url_without_an_origin_as_it_is() -> None:
    """A ``.http`` URL an answer made invalid said "Authorization not sent to : ..."."""
    step = derive(RequestSpec(url=f"{A}/", auth=BasicAuth("a", "b")), "<http://b.test/x>")
    assert step.note == (
        "Authorization not sent to '<http://b.test/x>': given for http://a.test only"
    )


def test_a_header_named_like_a_credential_stays_with_its_origin() -> None:
    given = RequestSpec(
        url=f"{A}/",
        headers=(("X-Auth", "xa-1"), ("X-Session-Id", "sid-1"), ("X-Client-Id", "c-1")),
    )
    step = derive(given, f"{B}/x")
    assert step.spec.headers == (("X-Client-Id", "c-1"),)
    assert step.withheld == ("X-Auth", "X-Session-Id")


def test_another_origin_gets_no_credential_cookie_or_secret_header() -> None:
    given = RequestSpec(url=f"{A}/", headers=SECRETS, auth=BasicAuth("alice", "pw"))
    step = derive(given, f"{B}/x")
    assert step.spec.auth is None
    assert step.spec.headers == (("Accept", "application/hal+json"),)
    assert step.withheld == (
        "Authorization",
        "X-Api-Key",
        "Private-Token",
        "Cookie",
        "X-Amz-Security-Token",
    )
    assert step.note == (
        "Authorization, X-Api-Key, Private-Token, Cookie and X-Amz-Security-Token not sent "
        "to http://b.test: given for http://a.test only"
    )


def test_the_same_origin_gets_everything_but_the_body() -> None:
    given = RequestSpec(
        method="POST",
        url=f"{A}/",
        headers=SECRETS,
        auth=BearerAuth("t"),
        body=b"{}",
        query=(("page", "2"),),
    )
    step = derive(given, f"{A}/next", method="GET")
    assert (step.spec.method, step.spec.url) == ("GET", f"{A}/next")
    assert step.spec.headers == SECRETS
    assert step.spec.auth == BearerAuth("t")
    assert (step.spec.body, step.spec.query, step.withheld, step.note) == (None, (), (), "")


@pytest.mark.parametrize(
    ("auth", "header"),
    [
        (LoginFlow(f"{A}/login", "alice", "pw"), "Authorization"),
        (CookieSession((("sid", "s"),)), "Cookie"),
        (BearerAuth("t"), "Authorization"),
    ],
)
def test_every_kind_of_credential_stays(auth: LoginFlow, header: str) -> None:
    step = derive(RequestSpec(url=f"{A}/", auth=auth), f"{B}/")
    assert (step.spec.auth, step.withheld) == (None, (header,))
    assert derive(RequestSpec(url=f"{A}/", auth=auth), f"{A}/2").spec.auth == auth


def test_the_password_of_the_url_is_a_credential_too() -> None:
    given = RequestSpec(url="http://alice:pw@a.test/")
    assert derive(given, f"{A}/2").spec.auth == BasicAuth("alice", "pw")
    away = derive(given, f"{B}/")
    assert (away.spec.auth, away.withheld) == (None, ("Authorization",))


@pytest.mark.parametrize("url", ["http://a.test/", "http://a.test/users/@me?at=x@y"])
def test_a_url_without_userinfo_is_no_credential(url: str) -> None:
    derived = derive(RequestSpec(url=url), f"{B}/")
    assert (derived.spec.auth, derived.withheld) == (None, ())


def test_a_url_an_answer_chose_keeps_the_secrets_to_the_asked_origin() -> None:
    spec = RequestSpec(url=f"{B}/items/1", headers=SECRETS[:1], auth=BearerAuth("t"))
    scoped = scoped_to(spec, f"{A}/items")
    assert scoped.spec.url == f"{B}/items/1"
    assert (scoped.spec.auth, scoped.spec.headers) == (None, ())
    assert scoped.withheld == ("Authorization", "X-Api-Key")
    assert scoped_to(replace_url(spec, f"{A}/items/1"), f"{A}/items").spec == replace_url(
        spec, f"{A}/items/1"
    )


def replace_url(spec: RequestSpec, url: str) -> RequestSpec:
    from dataclasses import replace

    return replace(spec, url=url)


# --- the session: a followed link and the next page -----------------------------------------


def page(url: str) -> Page:
    sent = SentRequest("GET", url, ())
    response = ReceivedResponse(200, "OK", "HTTP/1.1", (), b"{}", url)
    return Page(RequestSpec(url=url), exchange=Exchange(sent, sent, response))


def test_a_link_to_another_origin_names_what_stays_behind() -> None:
    session = Session()
    session.set_credential(f"{A}/", BasicAuth("alice", "pw"))
    session.keep_headers(f"{A}/", (("X-Api-Key", "k"), ("Accept-Language", "fr")))
    session.arrived(page(f"{A}/"))
    away = session.following(f"{B}/x")
    assert away.spec == RequestSpec(url=f"{B}/x")
    assert session.prepare(away.spec) == away.spec  # nothing of a.test goes
    assert (
        away.note
        == "Authorization and X-Api-Key not sent to http://b.test: given for http://a.test only"
    )
    here = session.following(f"{A}/2", "HEAD")
    assert here.note == ""
    sent = session.prepare(here.spec)
    assert sent.auth == BasicAuth("alice", "pw")
    assert ("X-Api-Key", "k") in sent.headers


def test_a_page_a_redirect_led_to_another_origin_is_that_origins() -> None:
    """Issue 23 checked again: on ``b.test``'s page, reached by a redirect from ``a.test``,
    the badge said ``alice (basic)`` and a link back to ``a.test`` said nothing stayed."""
    session = Session()
    session.set_credential(f"{A}/", BasicAuth("alice", "pw"))
    sent = SentRequest("GET", f"{A}/r", ())
    landed = ReceivedResponse(200, "OK", "HTTP/1.1", (), b"{}", f"{B}/landed")
    session.arrived(Page(RequestSpec(url=f"{A}/r"), exchange=Exchange(sent, sent, landed)))
    assert session.badge(f"{B}/landed") == "🔑 for a.test only"
    assert session.following(f"{B}/x").note == ""  # b.test to b.test: it had nothing
    back = session.following(f"{A}/2")
    assert back.given_for == f"{B}/landed"
    assert session.prepare(back.spec).auth == BasicAuth("alice", "pw")  # a.test's own, again


def test_a_server_with_its_own_credential_misses_nothing() -> None:
    session = Session()
    session.set_credential(f"{A}/", BearerAuth("a"))
    session.set_credential(f"{B}/", BearerAuth("b"))
    session.arrived(page(f"{A}/"))
    assert session.following(f"{B}/x").note == ""


# --- .http: a URL whose origin an answer gave -------------------------------------------------


class Answers:
    def value(self, name: str, part: str, kind: str, path: str) -> str | None:
        return {"created": f"{B}/items/1", "id": "7"}.get(name)


@pytest.mark.parametrize(
    ("url", "origin_from"),
    [
        ("{{created.response.headers.Location}}", ("created",)),
        ("http://{{created.response.body.$.host}}/x", ("created",)),
        ("http://a.test{{created.response.body.$.path}}", ("created",)),  # "@b.test/..." could
        ("http://a.test/items/{{id.response.body.$.id}}", ()),
        ("http://a.test/items", ()),
    ],
)
def test_which_answers_made_the_origin(url: str, origin_from: tuple[str, ...]) -> None:
    http_file = parse_http(f"GET {url}\nX-Api-Key: k\n")
    (request,) = http_file.requests
    resolved = resolve_request(request, http_file, VariableSources(responses=Answers()))
    assert resolved.origin_from == origin_from


# --- the client's redirects, over sockets ----------------------------------------------------


async def test_a_redirect_to_another_origin_says_what_it_went_without() -> None:
    with two_origins() as (a, b):
        landed = b.page("/landed")
        start = a.page("/r", status=308, headers=(("location", landed),))
        spec = RequestSpec(url=start, headers=SECRETS, auth=BearerAuth("tok-123456"))
        async with Client() as client:
            exchange = await client.send(spec)
    assert exchange.response.url == landed
    assert a.secrets_received().keys() == {"authorization", "x-api-key", "private-token", "cookie"}
    assert b.secrets_received() == {}
    assert b.seen[0].headers["accept"] == "application/hal+json"
    assert exchange.withheld == (
        f"X-Api-Key, Private-Token, X-Amz-Security-Token, Authorization and Cookie not sent "
        f"to {b.url}: given for {a.url} only"
    )
