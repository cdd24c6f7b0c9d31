"""The OAuth 2.0 client's rules, without a server: discovery documents, tokens, the token
view, the QR code, the browser decision, the redirect's answer, settings and where
tokens are kept."""

from __future__ import annotations

import base64
import json
import os
import stat
from pathlib import Path

import httpx
import orjson
import pytest
import segno

from explorer.core.carry.flat import ExportError, flatten
from explorer.core.config import ConfigProblem, parse_config
from explorer.core.http.client import Client
from explorer.core.http.masking import MASK, mask_body, mask_url
from explorer.core.http.request import BearerAuth, OAuthBearer, RequestSpec
from explorer.core.httpfile.auth_configs import auth_reference, settings_from_auth
from explorer.core.httpfile.writer import format_request
from explorer.core.oauth.browser import why_no_browser
from explorer.core.oauth.claims import countdown, decode_jwt, token_view
from explorer.core.oauth.discovery import (
    asked_scope,
    check_endpoint,
    discover,
    read_resource_metadata,
    read_server_metadata,
    resource_metadata_of,
    resource_metadata_urls,
    server_metadata_urls,
)
from explorer.core.oauth.errors import DiscoveryFailed, OAuthFailed, OAuthSettingsError
from explorer.core.oauth.loopback import loopback_target, read_callback, read_pasted
from explorer.core.oauth.qr import qr_lines, qr_rows
from explorer.core.oauth.settings import OAuthSettings, check_grant, choose_grant
from explorer.core.oauth.store import Kept, TokenFile
from explorer.core.oauth.tokens import Tokens
from explorer.core.session.credentials import (
    auth_label,
    login_kind_for,
    offers_oauth,
    token_scheme_for,
)
from explorer.core.session.derived import derive

NOW = 1_800_000_000.0


def jwt(claims: dict[str, object], header: dict[str, object] | None = None) -> str:
    """An unsigned-looking JWT (the view never checks signatures)."""

    def part(document: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(orjson.dumps(document)).rstrip(b"=").decode()

    return f"{part(header or {'typ': 'at+jwt', 'alg': 'ES256'})}.{part(claims)}.c2ln"


# --- discovery -------------------------------------------------------------------------------


def test_a_401_names_the_resource_metadata_and_the_scope_it_needs() -> None:
    challenges = [
        'Basic realm="x", Bearer realm="restwalk", error="insufficient_scope", '
        'scope="orders:read", resource_metadata="http://127.0.0.1:8000/.well-known/'
        'oauth-protected-resource"'
    ]
    assert resource_metadata_of(challenges) == (
        "http://127.0.0.1:8000/.well-known/oauth-protected-resource"
    )
    assert asked_scope(challenges) == "orders:read"
    assert resource_metadata_of(['Basic realm="x"']) is None


def test_well_known_urls_put_the_path_after_the_well_known_part() -> None:
    # RFC 9728 section 3.1, RFC 8414 section 3.1, OpenID Connect Discovery section 4.
    assert resource_metadata_urls("https://api.example.com/v1/orders?x=1") == [
        "https://api.example.com/.well-known/oauth-protected-resource/v1/orders",
        "https://api.example.com/.well-known/oauth-protected-resource",
    ]
    assert server_metadata_urls("https://id.example.com/tenant") == [
        "https://id.example.com/.well-known/oauth-authorization-server/tenant",
        "https://id.example.com/.well-known/openid-configuration/tenant",
        "https://id.example.com/tenant/.well-known/openid-configuration",
    ]
    assert server_metadata_urls("https://id.example.com") == [
        "https://id.example.com/.well-known/oauth-authorization-server",
        "https://id.example.com/.well-known/openid-configuration",
    ]


def _server(**fields: object) -> bytes:
    document = {
        "issuer": "https://id.example.com",
        "authorization_endpoint": "https://id.example.com/authorize",
        "token_endpoint": "https://id.example.com/token",
        "authorization_response_iss_parameter_supported": True,
        **fields,
    }
    return orjson.dumps(document)


def test_server_metadata_is_read_when_it_is_the_issuers_own() -> None:
    metadata = read_server_metadata(_server(), "https://id.example.com/x", "https://id.example.com")
    assert metadata.token_endpoint == "https://id.example.com/token"
    assert metadata.iss_parameter_supported
    with pytest.raises(DiscoveryFailed, match="mix-up"):
        read_server_metadata(_server(issuer="https://evil.example"), "u", "https://id.example.com")


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("token_endpoint", "http://id.example.com/token", "not https"),
        ("token_endpoint", 42, "not a string"),
        ("scopes_supported", "read write", "not a list"),
    ],
)
def test_server_metadata_that_breaks_a_rule_is_not_used(
    field: str, value: object, said: str
) -> None:
    with pytest.raises(DiscoveryFailed, match=said):
        read_server_metadata(_server(**{field: value}), "u", "https://id.example.com")


def test_plain_http_is_for_loopback_only() -> None:
    assert check_endpoint("http://127.0.0.1:9/token", "t") == "http://127.0.0.1:9/token"
    assert check_endpoint("http://localhost/token", "t") == "http://localhost/token"
    with pytest.raises(DiscoveryFailed):
        check_endpoint("http://192.0.2.1/token", "t")
    with pytest.raises(DiscoveryFailed):
        check_endpoint("javascript:alert(1)", "t")


def test_resource_metadata_must_be_for_the_origin_asked() -> None:
    body = orjson.dumps(
        {"resource": "https://api.example.com", "authorization_servers": ["https://id.example"]}
    )
    found = read_resource_metadata(body, "u", "https://api.example.com/orders")
    assert found.authorization_servers == ("https://id.example",)
    with pytest.raises(DiscoveryFailed, match="RFC 9728"):
        read_resource_metadata(body, "u", "https://other.example.com/orders")
    with pytest.raises(DiscoveryFailed, match="not JSON"):
        read_resource_metadata(b"<html>", "u", "https://api.example.com")


# --- tokens and their view -----------------------------------------------------------------


def test_tokens_from_an_answer_keep_the_refresh_token_a_refresh_left_out() -> None:
    first = Tokens.from_response(
        {"access_token": "A1", "token_type": "bearer", "expires_in": 3600, "refresh_token": "R"},
        NOW,
    )
    assert first.expires_at == NOW + 3600
    renewed = Tokens.from_response({"access_token": "A2", "expires_in": "60"}, NOW, first)
    assert renewed.refresh_token == "R"
    assert renewed.expires_at == NOW + 60
    assert "A1" not in repr(first)
    assert "R" not in repr(first).replace("Tokens", "").replace("refresh_token", "")
    with pytest.raises(OAuthFailed, match="Bearer"):
        Tokens.from_response({"access_token": "A", "token_type": "DPoP"}, NOW)
    with pytest.raises(OAuthFailed, match="access_token"):
        Tokens.from_response({"token_type": "Bearer"}, NOW)


def test_a_token_is_renewed_a_little_before_it_expires() -> None:
    hour = Tokens("A", expires_at=NOW + 3600, obtained_at=NOW)
    assert not hour.due(NOW + 3539)
    assert hour.due(NOW + 3541)  # a minute early
    short = Tokens("A", expires_at=NOW + 20, obtained_at=NOW)
    assert not short.due(NOW + 14)
    assert short.due(NOW + 15.1)  # a quarter of its life early
    assert not Tokens("A").due(NOW + 10**9)  # the server never said


def test_countdown_reads_in_two_units() -> None:
    assert countdown(3552) == "59 min 12 s"
    assert countdown(3600) == "1 h"
    assert countdown(90061) == "1 d 1 h"
    assert countdown(0) == "0 s"
    assert countdown(-75) == "1 min 15 s"


def test_the_view_explains_each_claim_and_shows_no_token_unless_asked() -> None:
    access = jwt(
        {
            "iss": "https://id.example.com",
            "sub": "alice",
            "aud": ["https://api.example.com", "https://other"],
            "exp": NOW + 3552,
            "scope": "orders:read",
            "tenant": "blue",
        }
    )
    tokens = Tokens(access, expires_at=NOW + 3552, refresh_token="R", obtained_at=NOW)
    view = token_view("mock", tokens, NOW)
    assert view.kind == "a JWT access token (RFC 9068)"
    assert view.status == "valid for 59 min 12 s"
    assert view.scope == "orders:read"
    claims = {line.name: line for line in view.claims}
    assert claims["exp"].value.startswith("in 59 min 12 s (")
    assert claims["aud"].value == "https://api.example.com, https://other"
    assert "who may accept it" in claims["aud"].meaning
    assert claims["tenant"].meaning == "a claim of this server's own"
    text = "\n".join(view.lines())
    assert access not in text
    assert "R" not in view.renewal
    assert view.token is None
    shown = token_view("mock", tokens, NOW, show_token=True)
    assert shown.token == access
    assert access in "\n".join(shown.lines())


def test_an_opaque_token_says_so_and_an_expired_one_says_when() -> None:
    view = token_view("gh", Tokens("gho_abc", expires_at=NOW - 180, obtained_at=NOW - 3780), NOW)
    assert view.kind.startswith("opaque")
    assert view.status == "expired 3 min ago"
    assert view.claims == ()
    assert decode_jwt("a.b") is None
    assert decode_jwt("e30.W10.x") is None  # claims that are no object


def test_server_text_in_claims_is_bounded() -> None:
    view = token_view("x", Tokens(jwt({"note": "n" * 5000})), NOW)
    assert len(view.claims[0].value) <= 200


# --- the QR code ----------------------------------------------------------------------------


def test_the_qr_code_is_half_blocks_of_the_codes_modules() -> None:
    url = "http://127.0.0.1:8000/oauth/device?user_code=BCDF-GHJK"
    rows = qr_rows(url)
    lines = qr_lines(url, max_width=80, max_height=40)
    assert lines is not None
    assert len(lines) == (len(rows) + 1) // 2
    assert all(len(line) == len(rows[0]) for line in lines)
    # Light modules are inked: the quiet zone is a full line of blocks.
    assert set(lines[0]) == {"█"}
    # Read back, the top left finder pattern is where the standard puts it.
    expected = segno.make(url, error="l", micro=False)
    assert rows == [[bool(m) for m in row] for row in expected.matrix_iter(border=2)]
    assert qr_lines(url, max_width=20, max_height=40) is None
    assert qr_lines(url, max_width=80, max_height=10) is None


# --- the browser, and what comes back ----------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "platform", "no_browser", "said"),
    [
        ({"DISPLAY": ":0"}, "linux", False, None),
        ({"WAYLAND_DISPLAY": "w"}, "linux", False, None),
        ({}, "darwin", False, None),
        ({}, "linux", False, "no graphical display"),
        ({"DISPLAY": ":0", "SSH_CONNECTION": "1 2 3 4"}, "linux", False, "SSH"),
        ({}, "darwin", True, "--no-browser"),
    ],
)
def test_a_browser_opens_only_on_the_persons_screen(
    environ: dict[str, str], platform: str, no_browser: bool, said: str | None
) -> None:
    why = why_no_browser(environ, no_browser=no_browser, platform=platform)
    assert (why is None) if said is None else (said in (why or ""))


def test_what_a_person_pastes_is_the_redirected_url_or_the_code() -> None:
    full = read_pasted(" http://127.0.0.1:5000/callback?code=abc&state=s1&iss=https%3A%2F%2Fi \n")
    assert full is not None
    assert (full.code, full.state, full.iss, full.bare) == ("abc", "s1", "https://i", False)
    bare = read_pasted("abc.def-123")
    assert bare is not None
    assert bare.bare
    assert bare.code == "abc.def-123"
    denied = read_pasted("http://127.0.0.1/callback?error=access_denied&state=s")
    assert denied is not None
    assert denied.error == "access_denied"
    assert read_pasted("") is None
    assert read_pasted("http://127.0.0.1/callback?nothing=here") is None
    assert read_pasted("two words") is None
    assert read_callback("code=x&state=y") is not None
    assert "abc" not in repr(full)


def test_a_redirect_url_is_listened_on_only_on_loopback() -> None:
    assert loopback_target("") == ("127.0.0.1", 0, "/callback")
    assert loopback_target("http://localhost:8080/oidc-callback") == (
        "127.0.0.1",
        8080,
        "/oidc-callback",
    )
    assert loopback_target("http://[::1]/cb") == ("::1", 0, "/cb")
    assert loopback_target("https://oauth.example.com/callback") is None
    assert loopback_target("https://127.0.0.1/callback") is None  # no TLS of ours
    with pytest.raises(OAuthSettingsError):
        loopback_target("http://127.0.0.1:port/cb")


# --- settings -------------------------------------------------------------------------------


def test_grants_restwalk_runs_and_those_rfc_9700_forbids() -> None:
    assert check_grant("Authorization Code", "x") == "authorization_code"
    assert check_grant("Device Authorization", "x") == "device_code"
    assert check_grant("client_credentials", "x") == "client_credentials"
    for forbidden, why in (("Implicit", "2.1.2"), ("Password", "2.4")):
        with pytest.raises(OAuthSettingsError, match=why):
            check_grant(forbidden, "x")
    with pytest.raises(OAuthSettingsError, match="not a grant"):
        check_grant("saml", "x")


def test_the_grant_chosen_when_none_is_named() -> None:
    public = OAuthSettings("a")
    assert choose_grant(public, can_authorize=True, can_device=True, browser_opens=True) == (
        "authorization_code"
    )
    assert choose_grant(public, can_authorize=True, can_device=True, browser_opens=False) == (
        "device_code"
    )
    assert choose_grant(public, can_authorize=True, can_device=False, browser_opens=False) == (
        "authorization_code"
    )
    secret = OAuthSettings("b", client_secret="s")
    assert choose_grant(secret, can_authorize=True, can_device=True, browser_opens=True) == (
        "client_credentials"
    )
    with pytest.raises(OAuthSettingsError, match="no way to log in"):
        choose_grant(public, can_authorize=False, can_device=False, browser_opens=True)
    assert "client_secret='****'" in repr(secret)


def test_config_toml_names_logins_each_with_its_server() -> None:
    config = parse_config(
        '[oauth.github]\nserver = "https://api.github.com"\nclient_id = "Iv1.x"\n'
        'client_secret = "hush"\nclient_authentication = "in body"\nkeep = true\n',
        Path("config.toml"),
    )
    login = config.oauth["github"]
    assert (login.server, login.client_id, login.keep) == ("https://api.github.com", "Iv1.x", True)
    assert "hush" not in repr(config)
    with pytest.raises(ConfigProblem, match=r"\[oauth.x\] needs server"):
        parse_config('[oauth.x]\nclient_id = "a"\n', Path("config.toml"))
    with pytest.raises(ConfigProblem, match="basic"):
        parse_config('[oauth.x]\nserver = "https://a"\nclient_authentication = "post"\n', Path("c"))


def test_a_jetbrains_auth_configuration_reads_every_key() -> None:
    config = {
        "Type": "OAuth2",
        "Grant Type": "Authorization Code",
        "Auth URL": "{{idp}}/authorize",
        "Token URL": "{{idp}}/token",
        "Redirect URL": "http://localhost:8080/callback",
        "Client ID": "app",
        "Client Secret": "hush",
        "Client Credentials": "in body",
        "Scope": "openid read",
        "PKCE": {"Code Challenge Method": "Plain", "Code Verifier": "v" * 43},
        "Custom Request Parameters": {
            "audience": {"Value": "https://api", "Use": "In Token Request"},
            "prompt": {"Value": "consent", "Use": "In Auth Request"},
            "resource": ["r1", "r2"],
        },
        "Use ID Token": True,
        "Acquire Automatically": False,
        "Start Polling After Browser": True,
    }
    settings = settings_from_auth(
        "api", config, where="here", values=lambda t: t.replace("{{idp}}", "https://id")
    )
    assert settings.grant == "authorization_code"
    assert (settings.auth_url, settings.token_url) == ("https://id/authorize", "https://id/token")
    assert settings.client_authentication == "in body"
    assert (settings.pkce_method, settings.code_verifier) == ("plain", "v" * 43)
    assert settings.auth_params == (("prompt", "consent"), ("resource", "r1"), ("resource", "r2"))
    assert settings.token_params == (
        ("audience", "https://api"),
        ("resource", "r1"),
        ("resource", "r2"),
    )
    assert settings.use_id_token
    assert not settings.acquire_automatically
    assert settings.server == ""  # its token goes where the .http file says
    with pytest.raises(OAuthSettingsError, match=r"2\.4"):
        settings_from_auth("p", {"Type": "OAuth2", "Grant Type": "Password"}, where="here")
    with pytest.raises(OAuthSettingsError, match="OAuth2"):
        settings_from_auth("p", {"Type": "Basic"}, where="here")
    assert auth_reference('$auth.token("api")') == ("token", "api")
    assert auth_reference("$auth.idToken('api')") == ("idToken", "api")
    assert auth_reference("$auth.token") is None


# --- where tokens go and are kept -----------------------------------------------------------


def test_oauth_codes_and_tokens_are_masked_by_name() -> None:
    form = (
        b"grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&device_code=DC"
        b"&client_secret=S&code_verifier=V&code=C&refresh_token=R"
    )
    masked = mask_body(form, "application/x-www-form-urlencoded")
    for secret in (b"=DC", b"=S&", b"=V&", b"=C&", b"=R"):
        assert secret not in masked
    answer = orjson.dumps({"device_code": "DC", "user_code": "UC", "interval": 5})
    assert orjson.loads(mask_body(answer, "application/json")) == {
        "device_code": MASK,
        "user_code": MASK,
        "interval": 5,
    }
    assert "abc" not in mask_url("http://127.0.0.1:1/callback?code=abc&state=s")


def test_a_request_with_an_oauth_login_is_saved_with_its_variable_never_its_token() -> None:
    spec = RequestSpec("GET", "https://api.example.com/me", auth=OAuthBearer("api"))
    assert 'Authorization: Bearer {{$auth.token("api")}}' in format_request(spec)
    with pytest.raises(ExportError, match="keeps fresh") as refused:
        flatten(spec)
    assert "restwalk auth status api --show-token" in refused.value.hint
    assert auth_label(spec.auth) == "🔑 api (OAuth)"


def test_kept_tokens_are_a_file_only_its_owner_reads(tmp_path: Path) -> None:
    store = TokenFile(tmp_path / "data" / "oauth-tokens.json")
    kept = Kept(Tokens("A", refresh_token="R", expires_at=NOW), "https://api", "https://t", "c")
    store.put("api", kept)
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700
    assert store.get("api") == kept
    assert json.loads(store.path.read_text())["api"]["tokens"]["refresh_token"] == "R"
    assert not list(store.path.parent.glob(".*new"))
    os.chmod(store.path, 0o644)
    with pytest.raises(OAuthFailed, match="others may read it") as refused:
        store.get("api")
    assert "chmod 600" in refused.value.hint
    os.chmod(store.path, 0o600)
    assert store.drop("api")
    assert not store.path.exists()
    assert not store.drop("api")
    store.path.write_text("[]")
    os.chmod(store.path, 0o600)
    with pytest.raises(OAuthFailed, match="not restwalk's"):
        store.read()


def test_a_link_to_another_origin_goes_without_the_login() -> None:
    spec = RequestSpec("GET", "https://api.example.com/orders", auth=OAuthBearer("api"))
    elsewhere = derive(spec, "https://cdn.example.net/o/1")
    assert elsewhere.spec.auth is None
    assert elsewhere.withheld == ("Authorization",)
    assert derive(spec, "https://api.example.com/orders/1").spec.auth == OAuthBearer("api")


async def test_discovery_follows_a_401_then_an_openid_document_under_the_issuers_path() -> None:
    # An API that publishes nothing at its well-known URL, but says in its 401 where its
    # metadata is; an issuer with a path, known by its OpenID Connect document alone.
    base = "https://api.example.com"
    issuer = "https://id.example.com/tenant"
    documents = {
        "/meta/api": {"resource": f"{base}/api", "authorization_servers": [issuer]},
        "/tenant/.well-known/openid-configuration": {
            "issuer": issuer,
            "token_endpoint": f"{issuer}/token",
            "device_authorization_endpoint": f"{issuer}/device",
        },
    }

    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api":
            challenge = f'Bearer resource_metadata="{base}/meta/api"'
            return httpx.Response(401, headers={"WWW-Authenticate": challenge})
        found = documents.get(request.url.path)
        return httpx.Response(200, json=found) if found else httpx.Response(404)

    async with Client(transport=httpx.MockTransport(answer)) as client:
        found = await discover(client, f"{base}/api")
    assert found.server.device_authorization_endpoint == f"{issuer}/device"
    assert found.resource is not None
    assert found.tried == (
        f"{base}/.well-known/oauth-protected-resource/api",
        f"{base}/.well-known/oauth-protected-resource",
        f"{base}/api",
        f"{base}/meta/api",
        "https://id.example.com/.well-known/oauth-authorization-server/tenant",
        "https://id.example.com/.well-known/openid-configuration/tenant",
        f"{issuer}/.well-known/openid-configuration",
    )
    async with Client(transport=httpx.MockTransport(lambda _r: httpx.Response(404))) as client:
        with pytest.raises(DiscoveryFailed, match=r"publishes no OAuth 2\.0 metadata"):
            await discover(client, f"{base}/api")


def test_a_401_naming_oauth_metadata_offers_oauth_beside_the_usual_login() -> None:
    said = ['Bearer realm="x", resource_metadata="http://127.0.0.1/.well-known/x"']
    assert offers_oauth(said)
    assert login_kind_for(said) == "bearer"  # what a person types is still offered first
    assert not offers_oauth(['Bearer realm="x"', 'Basic realm="x"'])


def test_a_token_challenge_asks_for_a_key_to_paste_under_its_scheme() -> None:
    # Django REST Framework's TokenAuthentication answers a 401 so
    assert login_kind_for(["Token"]) == "bearer"
    assert token_scheme_for(["Token"]) == "Token"
    assert auth_label(BearerAuth("k", "Token")) == "🔑 token"
    # Bearer or Basic beside it keep their own logins; no challenge: Bearer
    assert login_kind_for(['Bearer realm="x"', "Token"], login_known=True) == "token"
    assert login_kind_for(['Basic realm="x"']) == "basic"
    assert token_scheme_for(['Bearer realm="x"']) == "Bearer"
    assert token_scheme_for([]) == "Bearer"
    assert login_kind_for(['Digest realm="x"', "Negotiate"]) == "token"
    # FastAPI's APIKeyHeader: a key in a header the API names
    assert login_kind_for(['APIKey realm="x"']) == "key"
