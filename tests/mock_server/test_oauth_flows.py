"""The mock's OAuth server against Authlib's own client, over a real socket.

Every grant, and every refusal the RFCs name: a bad or missing PKCE verifier, a
code used twice (the tokens it got are revoked), a redirect URI not registered
(never redirected to), an expired token, a missing scope, a refresh token used
twice (its whole family is revoked), client authentication that fails. The
person's part, logging in and approving, is done on the consent page's HTML
form, as a browser submits it (:mod:`tests.mock_server.oauth_browser`).

One server for the module (the clock is moved and put back where a test needs
time to pass): each first password check costs a deliberately slow hash.
"""

from __future__ import annotations

import base64
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from authlib.common.security import generate_token
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session

from mock_server import BackgroundServer
from tests.mock_server.conftest import make_settings
from tests.mock_server.oauth_browser import Browser, query_of, read_page

CLI = "restwalk-cli"
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
NEW_CUSTOMER = {"name": "Ned Newcomer", "address": "1 Main Street, Springfield, IL 62701"}


@pytest.fixture(scope="module")
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(make_settings()) as running:
        yield running


@pytest.fixture(scope="module")
def metadata(server: BackgroundServer) -> dict[str, Any]:
    document: dict[str, Any] = httpx.get(
        server.url + "/.well-known/oauth-authorization-server"
    ).json()
    return document


@contextmanager
def later(server: BackgroundServer, seconds: float) -> Iterator[None]:
    """The server's clock ``seconds`` ahead, for the duration."""
    service = server.app.service
    original = service.clock
    now = original()
    service.clock = lambda: now + seconds
    try:
        yield
    finally:
        service.clock = original


def claims_of(token: str) -> dict[str, Any]:
    """A JWT's claims, unverified (the test checks what the server put in)."""
    payload = token.split(".")[1]
    claims: dict[str, Any] = json.loads(base64.urlsafe_b64decode(payload + "=" * 4))
    return claims


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def cli_session(port: int = 0, scope: str = "customers:read orders:read") -> OAuth2Session:
    """restwalk-cli as a native app: PKCE S256, a loopback redirect on its own port."""
    port = port or 20000 + secrets.randbelow(20000)
    return OAuth2Session(
        CLI,
        scope=scope,
        redirect_uri=f"http://127.0.0.1:{port}/callback",
        code_challenge_method="S256",
        token_endpoint_auth_method="none",
    )


def approve(
    server: BackgroundServer, url: str, user: str = "alice", password: str = "wonderland"
) -> str:
    """Open the authorization URL, log in on its page and approve; the redirect's target."""
    with Browser(server.url) as browser:
        page = browser.open(url)
        assert page.response.status_code == 200, page.response.text
        answer = browser.submit(page, "approve", {"username": user, "password": password})
    assert answer.status_code == 303, answer.text
    return answer.headers["location"]


def code_flow(
    server: BackgroundServer, metadata: dict[str, Any], **kwargs: Any
) -> tuple[OAuth2Session, str, str]:
    """A client, the redirect it got (a code) and its verifier."""
    client = cli_session(**kwargs)
    verifier = generate_token(48)
    url, _ = client.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=verifier
    )
    return client, approve(server, url), verifier


def code_tokens(
    server: BackgroundServer, metadata: dict[str, Any], **kwargs: Any
) -> tuple[OAuth2Session, dict[str, Any], str]:
    """A client holding the tokens of an approved code, and the redirect it got."""
    client, location, verifier = code_flow(server, metadata, **kwargs)
    token = client.fetch_token(
        metadata["token_endpoint"], authorization_response=location, code_verifier=verifier
    )
    return client, token, location


def token_request(metadata: dict[str, Any], **form: str) -> httpx.Response:
    return httpx.post(metadata["token_endpoint"], data=form)


# Authorization code + PKCE ------------------------------------------------------------


def test_authorization_code_with_pkce_on_any_loopback_port(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    client, location, verifier = code_flow(server, metadata)
    assert location.startswith(client.redirect_uri + "?")
    assert query_of(location)["iss"] == metadata["issuer"]  # RFC 9207
    token = client.fetch_token(
        metadata["token_endpoint"], authorization_response=location, code_verifier=verifier
    )
    assert token["token_type"] == "Bearer"
    assert token["scope"] == "customers:read orders:read"
    assert token["refresh_token"]
    claims = claims_of(token["access_token"])
    assert claims["sub"] == "alice"
    assert claims["client_id"] == CLI
    assert claims["iss"] == claims["aud"] == metadata["issuer"]
    assert claims["exp"] - claims["iat"] == token["expires_in"]
    assert client.get(server.url + "/orders").status_code == 200
    whoami = client.get(server.url + "/auth/whoami").json()
    assert (whoami["username"], whoami["authenticatedBy"]) == ("alice", "oauth")


def test_state_comes_back_exactly_and_is_left_out_when_not_sent(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    client = cli_session()
    odd = "a b&c=d/é?#%"
    url, _ = client.create_authorization_url(
        metadata["authorization_endpoint"], state=odd, code_verifier=generate_token(48)
    )
    assert query_of(approve(server, url))["state"] == odd
    bare = httpx.URL(url).copy_remove_param("state")
    assert "state" not in query_of(approve(server, str(bare)))


def test_a_code_used_twice_is_refused_and_revokes_what_it_got(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    client, location, verifier = code_flow(server, metadata)
    token = client.fetch_token(
        metadata["token_endpoint"], authorization_response=location, code_verifier=verifier
    )
    with pytest.raises(OAuthError) as error:
        cli_session().fetch_token(
            metadata["token_endpoint"],
            authorization_response=location,
            code_verifier=verifier,
            redirect_uri=client.redirect_uri,
        )
    assert error.value.error == "invalid_grant"
    assert "used already" in (error.value.description or "")
    refused = httpx.get(server.url + "/orders", headers=bearer(token["access_token"]))
    assert refused.status_code == 401
    assert 'error="invalid_token"' in refused.headers["www-authenticate"]


def test_a_wrong_or_missing_verifier_is_refused(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    client, location, _ = code_flow(server, metadata)
    code = query_of(location)["code"]
    wrong = token_request(
        metadata,
        grant_type="authorization_code",
        code=code,
        client_id=CLI,
        redirect_uri=client.redirect_uri,
        code_verifier=generate_token(48),
    )
    assert (wrong.status_code, wrong.json()["error"]) == (400, "invalid_grant")
    missing = token_request(
        metadata,
        grant_type="authorization_code",
        code=code,
        client_id=CLI,
        redirect_uri=client.redirect_uri,
    )
    assert (missing.status_code, missing.json()["error"]) == (400, "invalid_request")


def test_the_token_request_repeats_the_redirect_uri(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    _, location, verifier = code_flow(server, metadata)
    answer = token_request(
        metadata,
        grant_type="authorization_code",
        code=query_of(location)["code"],
        client_id=CLI,
        redirect_uri="http://127.0.0.1:1/elsewhere",
        code_verifier=verifier,
    )
    assert (answer.status_code, answer.json()["error"]) == (400, "invalid_grant")


@pytest.mark.parametrize(
    ("change", "description"),
    [
        ({"code_challenge_method": "plain"}, "plain"),
        ({"code_challenge_method": None, "code_challenge": None}, "must send a code_challenge"),
        ({"code_challenge_method": None}, "code_challenge_method is missing"),
    ],
)
def test_pkce_is_s256_and_required_of_public_clients(
    server: BackgroundServer,
    metadata: dict[str, Any],
    change: dict[str, str | None],
    description: str,
) -> None:
    client = cli_session()
    url, state = client.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=generate_token(48)
    )
    params = dict(httpx.URL(url).params)
    for name, value in change.items():
        if value is None:
            params.pop(name)
        else:
            params[name] = value
    answer = httpx.get(metadata["authorization_endpoint"], params=params)
    # The redirect URI is registered, so the error goes to the client (RFC 6749 4.1.2.1).
    assert answer.status_code == 302
    found = query_of(answer.headers["location"])
    assert (found["error"], found["state"]) == ("invalid_request", state)
    assert description in found["error_description"]


@pytest.mark.parametrize(
    "redirect_uri",
    [
        "http://evil.example/callback",
        "http://127.0.0.1:8080/other",
        "https://127.0.0.1/callback",
        "http://user@127.0.0.1:8080/callback",
        "http://127.0.0.1:8080/callback#fragment",
        # Authlib repeats the URI in its description, where a quote is not allowed (was a 500).
        'http://evil.example/"cb\\é',
    ],
)
def test_an_unregistered_redirect_uri_is_never_redirected_to(
    server: BackgroundServer, metadata: dict[str, Any], redirect_uri: str
) -> None:
    client = cli_session()
    client.redirect_uri = redirect_uri
    url, _ = client.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=generate_token(48)
    )
    answer = httpx.get(url)
    assert answer.status_code == 400
    assert "location" not in answer.headers
    assert answer.json()["error"] == "invalid_request"
    assert answer.json()["error_description"]


def test_an_unknown_client_gets_no_page_and_no_redirect(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    answer = httpx.get(
        metadata["authorization_endpoint"],
        params={"response_type": "code", "client_id": "nobody", "redirect_uri": "http://x/cb"},
    )
    assert (answer.status_code, answer.json()["error"]) == (400, "invalid_client")


def test_no_implicit_grant_and_no_password_grant(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    client = cli_session()
    url, state = client.create_authorization_url(
        metadata["authorization_endpoint"], response_type="token"
    )
    answer = httpx.get(url)
    assert answer.status_code == 302
    found = query_of(answer.headers["location"])
    assert (found["error"], found["state"]) == ("unsupported_response_type", state)
    password = token_request(
        metadata, grant_type="password", username="alice", password="wonderland", client_id=CLI
    )
    assert (password.status_code, password.json()["error"]) == (400, "unsupported_grant_type")
    assert "password" in password.json()["error_description"]


# Refresh tokens -----------------------------------------------------------------------


def test_refresh_rotates_and_a_reused_refresh_token_revokes_the_family(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    client, first, _ = code_tokens(server, metadata)
    second = client.refresh_token(metadata["token_endpoint"], refresh_token=first["refresh_token"])
    assert second["refresh_token"] != first["refresh_token"]
    assert second["access_token"] != first["access_token"]
    assert second["scope"] == first["scope"]
    assert httpx.get(server.url + "/orders", headers=bearer(second["access_token"])).is_success
    with pytest.raises(OAuthError) as error:
        client.refresh_token(metadata["token_endpoint"], refresh_token=first["refresh_token"])
    assert error.value.error == "invalid_grant"
    # The thief and the client now both hold nothing that works.
    with pytest.raises(OAuthError):
        client.refresh_token(metadata["token_endpoint"], refresh_token=second["refresh_token"])
    for token in (first, second):
        answer = httpx.get(server.url + "/orders", headers=bearer(token["access_token"]))
        assert answer.status_code == 401


def test_refresh_may_narrow_the_scope_never_widen_it(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    client, token, _ = code_tokens(server, metadata)
    narrower = client.refresh_token(
        metadata["token_endpoint"], refresh_token=token["refresh_token"], scope="orders:read"
    )
    assert narrower["scope"] == "orders:read"
    with pytest.raises(OAuthError) as error:
        client.refresh_token(
            metadata["token_endpoint"],
            refresh_token=narrower["refresh_token"],
            scope="orders:read orders:write",
        )
    assert error.value.error == "invalid_scope"


# Scopes and roles ---------------------------------------------------------------------


def test_a_token_without_the_scope_gets_403_insufficient_scope(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    client, _, _ = code_tokens(server, metadata, scope="orders:read")
    assert client.get(server.url + "/orders").status_code == 200
    answer = client.get(server.url + "/customers")
    assert answer.status_code == 403
    challenge = answer.headers["www-authenticate"]
    assert challenge.startswith('Bearer realm="restwalk", error="insufficient_scope"')
    assert 'scope="customers:read"' in challenge
    assert answer.json()["requiredScope"] == "customers:read"
    # The admin's actions and the products' writes are not delegated to any token.
    assert client.get(server.url + "/admin").status_code == 403
    assert client.delete(server.url + "/products/1").status_code == 403


def test_the_users_role_still_limits_the_token(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    client = cli_session(scope="customers:read customers:write")
    verifier = generate_token(48)
    url, _ = client.create_authorization_url(
        metadata["authorization_endpoint"], code_verifier=verifier
    )
    location = approve(server, url, "bob", "builder")
    client.fetch_token(
        metadata["token_endpoint"], authorization_response=location, code_verifier=verifier
    )
    refused = client.post(server.url + "/customers", json=NEW_CUSTOMER)
    assert refused.status_code == 403
    assert refused.json()["requiredRole"] == "editor"


# Client credentials -------------------------------------------------------------------


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
def test_client_credentials(
    server: BackgroundServer, metadata: dict[str, Any], method: str
) -> None:
    client = OAuth2Session(
        "reports-service", "reports-secret", scope="reports:read", token_endpoint_auth_method=method
    )
    token = client.fetch_token(metadata["token_endpoint"], grant_type="client_credentials")
    assert "refresh_token" not in token
    claims = claims_of(token["access_token"])
    assert claims["sub"] == claims["client_id"] == "reports-service"
    assert client.get(server.url + "/reports").status_code == 200
    assert client.get(server.url + "/orders").status_code == 403  # no orders:read asked
    assert client.post(server.url + "/reports").status_code == 403  # a viewer for itself


def test_client_authentication_failures(server: BackgroundServer, metadata: dict[str, Any]) -> None:
    form = {"grant_type": "client_credentials"}
    endpoint = metadata["token_endpoint"]
    for auth in (("reports-service", "wrong"), ("nobody", "secret")):
        answer = httpx.post(endpoint, data=form, auth=auth)
        assert (answer.status_code, answer.json()["error"]) == (401, "invalid_client")
        assert answer.headers["www-authenticate"].startswith(
            'Basic realm="restwalk", error="invalid_client"'
        )
    posted = httpx.post(
        endpoint, data={**form, "client_id": "reports-service", "client_secret": "wrong"}
    )
    assert (posted.status_code, posted.json()["error"]) == (401, "invalid_client")
    public = httpx.post(endpoint, data={**form, "client_id": CLI})
    assert public.json()["error"] == "invalid_client"
    assert httpx.post(endpoint, data=form).json()["error"] == "invalid_client"
    too_wide = httpx.post(
        endpoint,
        data={**form, "scope": "customers:write"},
        auth=("reports-service", "reports-secret"),
    )
    assert (too_wide.status_code, too_wide.json()["error"]) == (400, "invalid_scope")


# Device flow --------------------------------------------------------------------------


def test_device_flow(server: BackgroundServer, metadata: dict[str, Any]) -> None:
    started = httpx.post(
        metadata["device_authorization_endpoint"],
        data={"client_id": CLI, "scope": "orders:read"},
    ).json()
    assert started["verification_uri"] == server.url + "/oauth/device"
    poll = {"grant_type": DEVICE_GRANT, "device_code": started["device_code"], "client_id": CLI}
    assert token_request(metadata, **poll).json()["error"] == "authorization_pending"
    assert token_request(metadata, **poll).json()["error"] == "slow_down"
    with Browser(server.url) as browser:
        entry = browser.open(started["verification_uri"])
        # Typed as a person would: lower case, without the dash.
        typed = started["user_code"].replace("-", "").lower()
        consent = read_page(browser.submit(entry, None, {"user_code": typed}))
        assert started["user_code"] in consent.text
        assert "orders:read" in consent.text
        assert "restwalk (command line and TUI)" in consent.text
        done = browser.submit(consent, "approve", {"username": "bob", "password": "builder"})
    assert done.status_code == 200
    assert "Approved" in done.text
    session = OAuth2Session(CLI, token_endpoint_auth_method="none")
    token = session.fetch_token(
        metadata["token_endpoint"], grant_type=DEVICE_GRANT, device_code=started["device_code"]
    )
    assert claims_of(token["access_token"])["sub"] == "bob"
    assert session.get(server.url + "/orders").status_code == 200
    again = token_request(metadata, **poll).json()
    assert again["error"] == "invalid_grant"


def test_device_flow_denied_and_expired(server: BackgroundServer, metadata: dict[str, Any]) -> None:
    endpoint = metadata["device_authorization_endpoint"]
    denied = httpx.post(endpoint, data={"client_id": CLI}).json()
    with Browser(server.url) as browser:
        consent = browser.open(denied["verification_uri_complete"])
        assert browser.submit(consent, "deny").status_code == 200
    poll = {"grant_type": DEVICE_GRANT, "client_id": CLI}
    answer = token_request(metadata, device_code=denied["device_code"], **poll)
    assert answer.json()["error"] == "access_denied"
    late = httpx.post(endpoint, data={"client_id": CLI}).json()
    with later(server, late["expires_in"]):
        answer = token_request(metadata, device_code=late["device_code"], **poll)
        with Browser(server.url) as browser:
            gone = browser.open(late["verification_uri_complete"])
    assert answer.json()["error"] == "expired_token"
    assert gone.response.status_code == 404


# Expiry, introspection, revocation ----------------------------------------------------


def test_an_expired_token_is_invalid_token(
    server: BackgroundServer, metadata: dict[str, Any]
) -> None:
    client = OAuth2Session("reports-service", "reports-secret", scope="reports:read")
    token = client.fetch_token(metadata["token_endpoint"], grant_type="client_credentials")
    with later(server, token["expires_in"]):
        answer = client.get(server.url + "/reports")
        introspected = client.introspect_token(
            metadata["introspection_endpoint"], token["access_token"]
        ).json()
    assert answer.status_code == 401
    assert 'error="invalid_token"' in answer.headers["www-authenticate"]
    assert "expired" in answer.json()["detail"]
    assert introspected == {"active": False}


def test_introspection_and_revocation(server: BackgroundServer, metadata: dict[str, Any]) -> None:
    client, token, _ = code_tokens(server, metadata)
    resource_server = OAuth2Session("reports-service", "reports-secret")
    seen = resource_server.introspect_token(
        metadata["introspection_endpoint"], token["access_token"]
    ).json()
    assert seen["active"] is True
    assert (seen["sub"], seen["username"], seen["client_id"]) == ("alice", "alice", CLI)
    assert seen["scope"] == token["scope"]
    refresh_seen = resource_server.introspect_token(
        metadata["introspection_endpoint"], token["refresh_token"], token_type_hint="refresh_token"
    ).json()
    assert refresh_seen["active"] is True
    # The public client revokes its own refresh token: the whole grant goes.
    revoked = client.revoke_token(metadata["revocation_endpoint"], token["refresh_token"])
    assert revoked.status_code == 200
    for value in (token["access_token"], token["refresh_token"]):
        answer = resource_server.introspect_token(metadata["introspection_endpoint"], value)
        assert answer.json() == {"active": False}
    assert client.get(server.url + "/orders").status_code == 401
    # An unknown token is no error (RFC 7009 section 2.2).
    assert client.revoke_token(metadata["revocation_endpoint"], "not-a-token").status_code == 200


def test_revoking_an_access_token(server: BackgroundServer, metadata: dict[str, Any]) -> None:
    client = OAuth2Session("reports-service", "reports-secret", scope="reports:read")
    token = client.fetch_token(metadata["token_endpoint"], grant_type="client_credentials")
    assert client.get(server.url + "/reports").status_code == 200
    assert client.revoke_token(metadata["revocation_endpoint"], token["access_token"]).ok
    answer = client.get(server.url + "/reports")
    assert answer.status_code == 401
    assert "revoked" in answer.json()["detail"]
