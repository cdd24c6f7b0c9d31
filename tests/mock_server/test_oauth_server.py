"""The OAuth server's documents, pages and rules: metadata checked against the RFCs
(with Authlib's validators), discovery from a 401 alone, the consent page's safety
(escaping, framing, CSRF), registration, and the server turned off."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from authlib.oauth2 import rfc8414, rfc9207
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from joserfc import jwt
from joserfc.jwk import KeySet

from mock_server import BackgroundServer, create_app
from mock_server.auth.policy import ANY_TOKEN, ScopeRefusal, rule_for, scope_refusal
from mock_server.cli import main
from mock_server.oauth import csrf
from mock_server.oauth.clients import SEEDED, redirect_matches
from mock_server.oauth.endpoints import user_code_of
from mock_server.oauth.metadata import SEEDED_CLIENT_IDS
from mock_server.oauth.state import (
    ClientRecord,
    CodeRecord,
    DeviceRecord,
    GrantRecord,
    MemoryState,
    OAuthState,
    OAuthStateKeeper,
)
from mock_server.settings import OAuthClientSpec
from tests.mock_server.conftest import StoreUnderTest, asgi_client, make_settings
from tests.mock_server.oauth_browser import Browser, Page, query_of

RESOURCE_METADATA = re.compile(r'resource_metadata="([^"]+)"')


@pytest.fixture(scope="module")
def server() -> Iterator[BackgroundServer]:
    settings = make_settings(
        oauth_clients=(OAuthClientSpec("my-app", "my-secret", "https://app.example/cb"),)
    )
    with BackgroundServer(settings) as running:
        yield running


def authorization_url(server: BackgroundServer, **extra: str) -> str:
    params = {
        "response_type": "code",
        "client_id": "restwalk-cli",
        "redirect_uri": "http://127.0.0.1:4321/callback",
        "scope": "orders:read",
        "state": "s1",
        "code_challenge": create_s256_code_challenge("v" * 43),
        "code_challenge_method": "S256",
        **extra,
    }
    return str(httpx.URL(server.url + "/oauth/authorize", params=params))


# Discovery ----------------------------------------------------------------------------


def test_metadata_is_what_rfc_8414_requires(server: BackgroundServer) -> None:
    document = httpx.get(server.url + "/.well-known/oauth-authorization-server").json()
    metadata = rfc8414.AuthorizationServerMetadata(document)
    metadata.validate(metadata_classes=[rfc9207.AuthorizationServerMetadata])
    assert document["issuer"] == server.url  # the URL the document was fetched from
    assert document["code_challenge_methods_supported"] == ["S256"]
    assert set(document["grant_types_supported"]) == {
        "authorization_code",
        "client_credentials",
        "refresh_token",
        "urn:ietf:params:oauth:grant-type:device_code",
    }
    assert document["response_types_supported"] == ["code"]
    assert document["scopes_supported"] == [
        "customers:read",
        "customers:write",
        "orders:read",
        "orders:write",
        "reports:read",
    ]
    for name in ("device_authorization_endpoint", "service_documentation"):
        assert document[name].startswith(server.url + "/")
    docs = httpx.get(document["service_documentation"]).json()
    ids = [client["clientId"] for client in docs["clients"]]
    assert ids == ["restwalk-cli", "reports-service", "my-app"]


def test_the_root_links_the_metadata(server: BackgroundServer) -> None:
    link = httpx.get(server.url + "/").json()["_links"]["rw:oauth"]
    assert link["href"] == "/.well-known/oauth-authorization-server"
    assert link["title"]


def test_a_401_alone_leads_to_the_token_endpoint(server: BackgroundServer) -> None:
    refused = httpx.get(server.url + "/orders")
    assert refused.status_code == 401
    challenge = refused.headers["www-authenticate"]
    assert challenge.endswith('Basic realm="restwalk"')
    found = RESOURCE_METADATA.search(challenge)
    assert found is not None
    resource = httpx.get(found.group(1)).json()
    # RFC 9728 section 3.3: the resource is the one the metadata was asked for.
    assert resource["resource"] == server.url
    assert "orders:read" in resource["scopes_supported"]
    issuer = resource["authorization_servers"][0]
    metadata = httpx.get(issuer + "/.well-known/oauth-authorization-server").json()
    assert metadata["issuer"] == issuer
    assert metadata["token_endpoint"] == server.url + "/oauth/token"


def test_access_tokens_verify_with_the_published_keys(server: BackgroundServer) -> None:
    token = httpx.post(
        server.url + "/oauth/token",
        data={"grant_type": "client_credentials"},
        auth=("reports-service", "reports-secret"),
    ).json()["access_token"]
    jwks = httpx.get(server.url + "/oauth/jwks").json()
    assert all("d" not in key for key in jwks["keys"])  # public keys only
    decoded = jwt.decode(token, KeySet.import_key_set(jwks))
    assert decoded.header["typ"] == "at+jwt"
    assert decoded.header["kid"] == jwks["keys"][0]["kid"]
    assert set(decoded.claims) >= {"iss", "sub", "aud", "exp", "iat", "jti", "client_id", "scope"}


# The consent page ---------------------------------------------------------------------


def test_the_consent_page_shows_who_asks_for_what(server: BackgroundServer) -> None:
    with Browser(server.url) as browser:
        page = browser.open(authorization_url(server, scope="orders:read customers:write"))
    headers = page.response.headers
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert "script-src" not in headers["content-security-policy"]  # default-src 'none'
    assert headers["cache-control"] == "no-store"
    cookie = headers["set-cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie
    assert "restwalk (command line and TUI)" in page.text
    assert "orders:read" in page.text
    assert "customers:write" in page.text
    form = page.forms[0]
    assert set(form.buttons) == {"approve", "deny"}
    assert {"username", "password", "csrf_token"} <= set(form.fields)


def test_request_input_is_shown_as_text_never_markup(server: BackgroundServer) -> None:
    hostile = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    registered = httpx.post(
        server.url + "/oauth/register",
        json={
            "client_name": "<b>Evil</b> & <script>alert(3)</script>",
            "redirect_uris": ["http://127.0.0.1/cb"],
            "token_endpoint_auth_method": "none",
        },
    )
    assert registered.status_code == 201
    client_id = registered.json()["client_id"]
    assert "client_secret" not in registered.json()
    url = authorization_url(
        server, client_id=client_id, redirect_uri="http://127.0.0.1:9/cb", state=hostile
    )
    with Browser(server.url) as browser:
        page = browser.open(url)
    assert page.response.status_code == 200
    html = page.response.text
    assert "<script" not in html
    assert "<img" not in html
    assert "<b>" not in html
    assert "<b>Evil</b> & <script>alert(3)</script>" in page.text  # shown as text
    assert page.forms[0].fields["state"] == hostile  # and carried on unchanged


def test_approving_needs_the_right_password_and_deny_says_access_denied(
    server: BackgroundServer,
) -> None:
    with Browser(server.url) as browser:
        page = browser.open(authorization_url(server))
        wrong = browser.submit(page, "approve", {"username": "alice", "password": "nope"})
        assert wrong.status_code == 200
        assert "wrong" in wrong.text
        assert "nope" not in wrong.text
        denied = browser.submit(page, "deny")
    assert denied.status_code == 303
    found = query_of(denied.headers["location"])
    assert (found["error"], found["state"]) == ("access_denied", "s1")
    assert found["iss"] == server.url


def _forged(server: BackgroundServer, page: Page, **change: str) -> httpx.Response:
    values = {**page.forms[0].fields, "username": "alice", "password": "wonderland"}
    values["decision"] = "approve"
    values.update(change)
    return httpx.post(server.url + "/oauth/authorize", data=values)


def test_the_form_is_protected_from_cross_site_requests(server: BackgroundServer) -> None:
    with Browser(server.url) as browser:
        page = browser.open(authorization_url(server))
        # Another page's form, posted by this browser: another site's Origin (and, from a
        # browser without Fetch Metadata, the Origin alone).
        for sent in (
            {"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
            {"Origin": "http://evil.example", "Sec-Fetch-Site": ""},
        ):
            other_site = browser.submit(
                page,
                "approve",
                {"username": "alice", "password": "wonderland"},
                headers=sent,
            )
            assert other_site.status_code == 403
        # The form with a field changed after it was shown (a wider scope).
        widened = browser.submit(
            page,
            "approve",
            {"username": "alice", "password": "wonderland", "scope": "orders:write"},
        )
        assert widened.status_code == 403
        # Still good as shown.
        assert browser.submit(page, "deny").status_code == 303
    # Without the browser's cookie (another browser, or a cross-site POST).
    assert _forged(server, page).status_code == 403
    with Browser(server.url) as other:
        other.open(authorization_url(server))
        stolen = other.client.post(
            "/oauth/authorize",
            data={**page.forms[0].fields, "decision": "deny"},
        )
    assert stolen.status_code == 403
    assert "location" not in stolen.headers


def test_a_browser_says_where_the_form_comes_from_and_is_answered(
    server: BackgroundServer,
) -> None:
    # Under Referrer-Policy: no-referrer a browser's form POST says Origin: null, and the
    # cross-site check refused every consent in Chrome and Firefox alike.
    with Browser(server.url) as browser:
        page = browser.open(authorization_url(server))
        assert page.response.headers["referrer-policy"] == "same-origin"
        sent = Browser.provenance(page, server.url + "/oauth/authorize")
        assert sent == {"Origin": server.url, "Sec-Fetch-Site": "same-origin"}
        approved = browser.submit(page, "approve", {"username": "alice", "password": "wonderland"})
        assert approved.status_code == 303
        assert "code" in query_of(approved.headers["location"])
        # A browser that hides the origin still says, in Fetch Metadata, it came from here.
        again = browser.open(authorization_url(server))
        hidden = {"Origin": "null", "Sec-Fetch-Site": "same-origin"}
        assert browser.submit(again, "deny", headers=hidden).status_code == 303
        # A sandboxed page elsewhere says null too, but cross-site.
        third = browser.open(authorization_url(server))
        sandboxed = {"Origin": "null", "Sec-Fetch-Site": "cross-site"}
        assert browser.submit(third, "deny", headers=sandboxed).status_code == 403
    with Browser(server.url) as browser:
        device = httpx.post(
            server.url + "/oauth/device_authorization",
            data={"client_id": "restwalk-cli", "scope": "orders:read"},
        ).json()
        page = browser.open(device["verification_uri_complete"])
        assert page.response.headers["referrer-policy"] == "same-origin"
        done = browser.submit(page, "approve", {"username": "bob", "password": "builder"})
        assert done.status_code == 200
        assert "Approved" in done.text


def test_the_device_page_refuses_unknown_codes(server: BackgroundServer) -> None:
    with Browser(server.url) as browser:
        assert browser.open("/oauth/device").response.status_code == 200
        for typed in ("BCDF-GHJK", "not a code", "<script>"):
            page = browser.open(str(httpx.URL("/oauth/device", params={"user_code": typed})))
            assert page.response.status_code == 404
            assert "<script>" not in page.response.text


# Registration and clients -------------------------------------------------------------


@pytest.mark.parametrize(
    "document",
    [
        [],
        {"grant_types": [{"a": 1}]},
        {"redirect_uris": "http://x/cb"},
        {
            "grant_types": ["client_credentials"],
            "token_endpoint_auth_method": "client_secret_basic",
        },
        {"redirect_uris": ["javascript:alert(1)"]},
        {"redirect_uris": ["http://x/cb"], "scope": "everything"},
        {"redirect_uris": ["http://x/cb"], "token_endpoint_auth_method": "private_key_jwt"},
    ],
)
def test_registration_refuses_what_it_cannot_take(server: BackgroundServer, document: Any) -> None:
    answer = httpx.post(server.url + "/oauth/register", json=document)
    assert answer.status_code == 400
    assert answer.json()["error"] in ("invalid_client_metadata", "invalid_redirect_uri")


def test_a_client_given_on_the_command_line(server: BackgroundServer) -> None:
    token = httpx.post(
        server.url + "/oauth/token",
        data={"grant_type": "client_credentials", "scope": "customers:write"},
        auth=("my-app", "my-secret"),
    ).json()["access_token"]
    created = httpx.post(
        server.url + "/customers",
        json={"name": "Ada", "address": "1 Main Street"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert created.status_code == 201  # an editor for itself, with the scope


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("alice:s:https://x/cb", "is taken"),
        ("restwalk-cli::", "is taken"),
        (":secret:https://x/cb", "with an ID"),
        ("app:s:ftp://x/cb", "http(s) URL"),
    ],
)
def test_bad_oauth_client_flags_are_one_line_errors(
    argument: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--port", "0", "--oauth-client", argument])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1


# Off, and over plain HTTP elsewhere than loopback --------------------------------------


async def test_no_oauth_serves_none_of_it() -> None:
    app = create_app(make_settings(oauth=False))
    async with asgi_client(app) as client:
        assert (await client.get("/.well-known/oauth-authorization-server")).status_code == 404
        assert (await client.post("/oauth/token")).status_code == 404
        assert "rw:oauth" not in (await client.get("/")).json()["_links"]
        refused = await client.get("/orders")
        assert refused.headers["www-authenticate"] == (
            'Bearer realm="restwalk", Basic realm="restwalk"'
        )
        jwt_shaped = await client.get("/orders", headers={"Authorization": "Bearer a.b.c"})
        assert jwt_shaped.status_code == 401
        document = (await client.get("/openapi.json")).json()
    assert "oauth2" not in document["components"]["securitySchemes"]
    assert app.service.oauth is None


async def test_oauth_needs_tls_away_from_loopback() -> None:
    async with asgi_client(create_app(make_settings())) as client:  # http://mock.test
        answer = await client.post("/oauth/token", data={"grant_type": "client_credentials"})
    assert answer.status_code == 400
    assert answer.json()["error"] == "invalid_request"
    assert "TLS" in answer.json()["error_description"]


# The rules, without a server ----------------------------------------------------------


@pytest.mark.parametrize(
    ("registered", "asked", "matches"),
    [
        ("https://app.example/cb", "https://app.example/cb", True),
        ("https://app.example/cb", "https://app.example/cb/", False),
        ("https://app.example/cb", "https://app.example:8443/cb", False),
        ("http://127.0.0.1/callback", "http://127.0.0.1:53117/callback", True),
        ("http://[::1]/callback", "http://[::1]:53117/callback", True),
        ("http://127.0.0.1/callback", "http://localhost:53117/callback", False),
        ("http://127.0.0.1/callback", "http://127.0.0.1:53117/callback?x=1", False),
        ("http://127.0.0.1/callback", "http://127.0.0.1:99999/callback", False),
        ("http://127.0.0.1/callback", "http://127.0.0.1:x/callback", False),
        ("http://127.0.0.1/callback", "http://evil@127.0.0.1:5/callback", False),
    ],
)
def test_redirect_uris_match_exactly_but_the_loopback_port(
    registered: str, asked: str, matches: bool
) -> None:
    assert redirect_matches(registered, asked) is matches


def test_user_codes_are_read_as_a_person_types_them() -> None:
    assert user_code_of("bcdf-ghjk") == "BCDF-GHJK"
    assert user_code_of(" BCDF GHJK ") == "BCDF-GHJK"
    assert user_code_of("BCDF-GHJ") is None
    assert user_code_of("ABCD-EFGH") is None  # vowels are never in a code


def test_csrf_tokens_are_tied_to_the_browser_the_fields_and_the_time() -> None:
    key, fields = b"k" * 32, {"client_id": "c", "scope": "orders:read"}
    token = csrf.form_token(key, "nonce", "authorize", fields, now=1000)
    assert csrf.check(key, "nonce", "authorize", fields, token, now=1000 + csrf.MAX_AGE)
    assert not csrf.check(key, "nonce", "authorize", fields, token, now=1001 + csrf.MAX_AGE)
    assert not csrf.check(key, "other", "authorize", fields, token, now=1000)
    assert not csrf.check(key, None, "authorize", fields, token, now=1000)
    assert not csrf.check(key, "nonce", "device", fields, token, now=1000)
    assert not csrf.check(key, "nonce", "authorize", {**fields, "scope": "x"}, token, now=1000)
    assert not csrf.check(b"j" * 32, "nonce", "authorize", fields, token, now=1000)
    assert not csrf.check(key, "nonce", "authorize", fields, "garbage", now=1000)


def test_scopes_follow_the_policy_table() -> None:
    orders = frozenset({"orders:read"})
    assert scope_refusal("GET", "/orders/3", orders) is None
    assert scope_refusal("POST", "/orders", orders) == ScopeRefusal("orders:write")
    assert scope_refusal("GET", "/customers", orders) == ScopeRefusal("customers:read")
    assert scope_refusal("GET", "/products", orders) is None  # public, no scope names it
    assert scope_refusal("PUT", "/products/1", orders) == ScopeRefusal(None)  # not delegated
    assert scope_refusal("GET", "/admin", orders) == ScopeRefusal(None)
    assert scope_refusal("POST", "/anything-new", orders) == ScopeRefusal(None)
    assert rule_for("/auth/whoami").read_scope == ANY_TOKEN
    assert scope_refusal("GET", "/auth/whoami", frozenset()) is None


@pytest.fixture
def state(any_store: StoreUnderTest) -> OAuthState:
    """The OAuth records of each store: in memory, in the SQLite file, in PostgreSQL."""
    persistence = any_store.persistence()
    if persistence is None:
        return MemoryState()
    assert isinstance(persistence, OAuthStateKeeper)
    return persistence.oauth_state


def test_the_state_rotates_once_and_remembers_every_refresh_token(state: OAuthState) -> None:
    state.add_grant(GrantRecord("g", "c", "alice", "orders:read", "r1", expires=100.0))
    state.add_access_token("g", "jti-1", 50.0)
    assert state.rotate("g", "r1", "r2", 200.0)
    assert not state.rotate("g", "r1", "r3", 200.0)  # r1 is spent
    old = state.grant_of_refresh("r1")
    assert old is not None
    assert old.refresh_digest == "r2"
    state.revoke_grant("g")
    assert state.access_token_revoked("jti-1")
    assert not state.rotate("g", "r2", "r4", 200.0)
    state.purge(300.0)
    assert state.grant("g") is None
    assert state.grant_of_refresh("r2") is None


def test_the_state_uses_a_code_once_and_revokes_a_late_token_of_a_revoked_grant(
    state: OAuthState,
) -> None:
    code = CodeRecord("c", "restwalk-cli", "alice", "orders:read", None, "x", "S256", 100.0)
    state.add_code(code)
    assert state.code("c") == code
    assert state.use_code("c", "g1")
    assert not state.use_code("c", "g2")  # a second exchange loses, wherever it runs
    used = state.code("c")
    assert used is not None
    assert (used.used, used.grant_id) == (True, "g1")
    state.add_grant(GrantRecord("g1", "restwalk-cli", "alice", "orders:read", None, 100.0))
    state.add_access_token("g1", "jti-1", 50.0)
    state.revoke_grant("g1")
    # The exchange that won records its token after the loser revoked the grant.
    state.add_access_token("g1", "jti-2", 50.0)
    assert state.access_token_revoked("jti-1")
    assert state.access_token_revoked("jti-2")
    grant = state.grant("g1")
    assert grant is not None
    assert grant.revoked
    assert grant.access_tokens == {"jti-1": 50.0, "jti-2": 50.0}
    state.revoke_access_token("jti-3", 60.0)
    assert state.access_token_revoked("jti-3")
    assert not state.access_token_revoked("jti-4")
    state.purge(55.0)
    assert not state.access_token_revoked("jti-1")  # it has expired: no need to keep it
    assert state.access_token_revoked("jti-3")
    state.purge(200.0)
    assert state.code("c") is None


def test_the_state_keeps_registered_clients(state: OAuthState) -> None:
    client = ClientRecord(
        "client-1", "An app", "f" * 64, ("http://127.0.0.1/cb",), ("authorization_code",), ()
    )
    state.add_client(client)
    assert state.client("client-1") == client
    assert state.client("client-2") is None


def test_the_state_device_polling_slows_down(state: OAuthState) -> None:
    state.add_device(DeviceRecord("d", "BCDF-GHJK", "c", "", expires=100.0, interval=5))
    assert state.poll_device("d", 10.0) is None
    assert state.poll_device("d", 12.0) == 10  # too soon: 5 seconds more
    assert state.poll_device("d", 23.0) is None
    assert state.decide_device("BCDF-GHJK", "bob", approved=True)
    assert not state.decide_device("BCDF-GHJK", "bob", approved=False)  # decided once
    decided = state.device_by_user_code("BCDF-GHJK")
    assert decided == DeviceRecord(
        "d", "BCDF-GHJK", "c", "", 100.0, 10, last_poll=23.0, user="bob", approved=True
    )
    assert state.device("d") == decided
    assert state.poll_device("unknown", 30.0) is None
    state.remove_device("d")
    assert state.device_by_user_code("BCDF-GHJK") is None


def test_client_ids_given_at_start_must_be_free() -> None:
    assert tuple(client.client_id for client in SEEDED) == SEEDED_CLIENT_IDS
    for taken in ("bob", "reports-service"):
        with pytest.raises(ValueError, match="is taken"):
            create_app(make_settings(oauth_clients=(OAuthClientSpec(taken, "s"),)))
    twice = (OAuthClientSpec("app", "s"), OAuthClientSpec("app", ""))
    with pytest.raises(ValueError, match="is taken"):
        create_app(make_settings(oauth_clients=twice))


def test_a_persistence_that_keeps_oauth_records_is_used() -> None:
    """Where a store's persistence offers ``oauth_state`` (a database shared by several
    instances), the server keeps its codes and grants there, not in its own memory."""
    shared = MemoryState()

    class Keeper:
        oauth_state = shared

    app = create_app(make_settings())
    app.service.store.persistence = Keeper()  # type: ignore[assignment]
    server = app.service.oauth
    assert server is not None
    assert server.state is shared
