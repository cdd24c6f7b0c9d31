"""The OAuth 2.0 client against the mock's authorization server, in-process.

Every grant with nothing configured but the mock's URL (discovery from a 401 or the
URL, registration), the person's part done on the consent page's HTML form, and the
browser's way back to a real loopback listener. Then what keeps a login fresh (a
refresh before the token expires, once more after a 401), what it refuses (another
origin, another login's answer, another issuer), and what history keeps of it.

Over plain HTTP the mock's OAuth endpoints answer on loopback hosts only, so the
in-process client speaks to ``http://127.0.0.1``.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import httpx
import pytest

from explorer.core.http.client import Client
from explorer.core.http.errors import LoginFailed
from explorer.core.http.exchange import Exchange
from explorer.core.http.masking import mask_exchange
from explorer.core.http.request import OAuthBearer, RequestSpec
from explorer.core.oauth.errors import (
    AccessDenied,
    NotLoggedIn,
    OAuthFailed,
    TokenNotForOrigin,
)
from explorer.core.oauth.login import Login
from explorer.core.oauth.settings import OAuthSettings
from explorer.core.oauth.store import TokenFile
from mock_server import create_app
from mock_server.app import MockApp
from tests.explorer.oauth_people import FormBrowser, Person
from tests.mock_server.conftest import make_settings

BASE = "http://127.0.0.1"
ALICE = {"username": "alice", "password": "wonderland"}


def approve(page: object) -> tuple[str, str] | None:
    return page.forms[0].buttons.get("approve")  # type: ignore[attr-defined, no-any-return]


def deny(page: object) -> tuple[str, str] | None:
    return page.forms[0].buttons.get("deny")  # type: ignore[attr-defined, no-any-return]


@pytest.fixture
def app() -> MockApp:
    return create_app(make_settings())


@pytest.fixture
async def client(app: MockApp) -> AsyncIterator[Client]:
    async with Client(transport=httpx.ASGITransport(app)) as made:
        made.recorded: list[Exchange] = []  # type: ignore[attr-defined]
        made.observers.append(made.recorded.append)  # type: ignore[attr-defined]
        yield made


async def _no_wait(_seconds: float) -> None:
    await asyncio.sleep(0)


async def consent(
    app: MockApp, url: str, *, button: object = approve, form: dict[str, str] | None = None
) -> str:
    """The person logs in as alice on the mock's page and presses ``button``."""
    async with FormBrowser(httpx.ASGITransport(app)) as browser:
        return await browser.visit(
            url,
            filled=form or ALICE,
            button=button,  # type: ignore[arg-type]
            stop=lambda target: "/callback" in target,
        )


async def back_to(location: str) -> httpx.Response:
    """The browser follows the redirect to restwalk's loopback listener (a real socket)."""
    async with httpx.AsyncClient(timeout=10) as browser:
        return await browser.get(location)


async def code_login(
    app: MockApp,
    login: Login,
    *,
    button: object = approve,
    tamper: object = None,
) -> tuple[object, Person, httpx.Response | None]:
    """Run the authorization code grant, the person approving in the browser."""
    person = Person()
    task = asyncio.ensure_future(login.log_in(person, grant="authorization_code"))
    await person.shown.wait()
    location = await consent(app, person.steps[0].url, button=button)
    if tamper is not None:
        location = tamper(location)  # type: ignore[operator]
    page = await back_to(location)
    result = await asyncio.gather(task, return_exceptions=True)
    return result[0], person, page


async def test_authorization_code_with_pkce_discovered_from_the_url_alone(
    app: MockApp, client: Client
) -> None:
    login = Login(OAuthSettings(BASE, server=BASE, scope="orders:read"), client).attach()
    tokens, person, page = await code_login(app, login)
    assert not isinstance(tokens, BaseException), tokens
    step = person.steps[0]
    assert not step.opened  # no browser was asked to open
    assert step.listening
    assert step.redirect_uri.startswith("http://127.0.0.1:")
    assert step.redirect_uri.endswith("/callback")
    query = httpx.URL(step.url).params
    assert query["code_challenge_method"] == "S256"
    assert len(query["code_challenge"]) == 43
    assert query["client_id"].startswith("client-")  # registered (RFC 7591), not configured
    assert page is not None
    assert page.status_code == 200
    assert "close this tab" in page.text
    assert page.headers["content-security-policy"] == "default-src 'none'"
    exchange = await client.send(RequestSpec("GET", f"{BASE}/orders", auth=OAuthBearer(BASE)))
    assert exchange.response.status == 200
    view = login.view()
    assert view is not None
    assert view.scope == "orders:read"
    assert view.renewal.startswith("a refresh token")
    assert {line.name for line in view.claims} >= {"iss", "sub", "aud", "exp", "scope"}


async def test_the_browser_answer_can_be_pasted_instead(app: MockApp, client: Client) -> None:
    login = Login(OAuthSettings(BASE, server=BASE, client_id="restwalk-cli"), client)
    person = Person()
    task = asyncio.ensure_future(login.log_in(person, grant="authorization_code"))
    await person.shown.wait()
    location = await consent(app, person.steps[0].url)
    await person.pastes.put("not a url at all, nor a code")
    await person.pastes.put(location.replace("state=", "state=other"))  # another login's
    await person.pastes.put(location)
    tokens = await asyncio.wait_for(task, 10)
    assert tokens.access_token
    assert person.problems == [
        "That is neither the URL the browser was sent to nor a code.",
        "That is not for this login: its state is another one.",
    ]


async def test_a_denial_or_another_issuer_is_no_login(app: MockApp, client: Client) -> None:
    login = Login(OAuthSettings(BASE, server=BASE, client_id="restwalk-cli"), client)
    denied, _, page = await code_login(app, login, button=deny)
    assert isinstance(denied, AccessDenied)
    assert page is not None
    assert "Not logged in" in page.text
    mixed, _, _ = await code_login(
        app, login, tamper=lambda url: url.replace("iss=http%3A%2F%2F127.0.0.1", "iss=x")
    )
    assert isinstance(mixed, OAuthFailed)
    assert "RFC 9207" in mixed.message


async def test_device_code_polled_until_the_person_approves(app: MockApp, client: Client) -> None:
    login = Login(
        OAuthSettings(BASE, server=BASE, scope="customers:read"), client, sleep=_no_wait
    ).attach()
    person = Person()
    task = asyncio.ensure_future(login.log_in(person, grant="device_code"))
    await person.shown.wait()
    code = person.codes[0]
    assert code.verification_uri == f"{BASE}/oauth/device"
    assert code.user_code in code.verification_uri_complete
    assert code.qr_target == code.verification_uri_complete
    assert "****" in repr(code)
    await consent(app, code.verification_uri_complete)
    tokens = await asyncio.wait_for(task, 10)
    assert tokens.scope == "customers:read"
    token_requests = [e for e in client.recorded if e.request.url.endswith("/oauth/token")]  # type: ignore[attr-defined]
    assert [e.response.status for e in token_requests][-1] == 200
    assert {e.response.status for e in token_requests[:-1]} <= {400}  # authorization_pending
    exchange = await client.send(RequestSpec("GET", f"{BASE}/customers", auth=OAuthBearer(BASE)))
    assert exchange.response.status == 200


async def test_a_denied_device_code_is_said(app: MockApp, client: Client) -> None:
    login = Login(OAuthSettings(BASE, server=BASE), client, sleep=_no_wait)
    person = Person()
    task = asyncio.ensure_future(login.log_in(person, grant="device_code"))
    await person.shown.wait()
    await consent(app, person.codes[0].verification_uri_complete, button=deny)
    with pytest.raises(AccessDenied):
        await asyncio.wait_for(task, 10)


def reports(**changes: object) -> OAuthSettings:
    settings = OAuthSettings(
        "reports",
        server=BASE,
        client_id="reports-service",
        client_secret="reports-secret",
        scope="reports:read",
    )
    return dataclasses.replace(settings, **changes)  # type: ignore[arg-type]


async def test_client_credentials_are_got_at_the_first_request(client: Client) -> None:
    login = Login(reports(), client).attach()
    exchange = await client.send(RequestSpec("GET", f"{BASE}/reports", auth=OAuthBearer("reports")))
    assert exchange.response.status == 200
    denied = await client.send(RequestSpec("GET", f"{BASE}/orders", auth=OAuthBearer("reports")))
    assert denied.response.status == 403  # the mock's scopes mean something
    assert login.tokens is not None
    for method in ("in body", "basic"):
        other = Login(reports(name=method, client_authentication=method), client)
        assert (await other.log_in(Person())).access_token


async def test_a_token_goes_to_its_apis_origin_only(client: Client) -> None:
    Login(reports(), client).attach()
    for elsewhere in ("http://127.0.0.2/reports", "http://127.0.0.1:8080/", "http://x.test/"):
        with pytest.raises(TokenNotForOrigin):
            await client.send(RequestSpec("GET", elsewhere, auth=OAuthBearer("reports")))
    with pytest.raises(LoginFailed, match=r"Not logged in with OAuth 2\.0 as 'nobody'"):
        await client.send(RequestSpec("GET", f"{BASE}/", auth=OAuthBearer("nobody")))


async def test_refreshed_before_it_expires_and_once_after_a_401(
    app: MockApp, client: Client
) -> None:
    now = [1.0]
    login = Login(
        OAuthSettings("me", server=BASE, client_id="restwalk-cli"), client, clock=lambda: now[0]
    ).attach()
    tokens, _, _ = await code_login(app, login)
    assert not isinstance(tokens, BaseException)
    first = login.tokens
    assert first is not None
    assert first.expires_at is not None
    now[0] = first.expires_at - 30  # inside the minute before it expires
    exchange = await client.send(RequestSpec("GET", f"{BASE}/orders", auth=OAuthBearer("me")))
    assert exchange.response.status == 200
    second = login.tokens
    assert second is not None
    assert second.access_token != first.access_token
    assert second.refresh_token != first.refresh_token  # the mock rotates them
    # The server forgets the token (revoked): the request is refused, renewed, sent again.
    revoke = RequestSpec(
        "POST",
        f"{BASE}/oauth/revoke",
        body=f"token={second.access_token}&client_id=restwalk-cli",
        content_type="application/x-www-form-urlencoded",
    )
    assert (await client.send(revoke)).response.status == 200
    exchange = await client.send(RequestSpec("GET", f"{BASE}/orders", auth=OAuthBearer("me")))
    assert exchange.response.status == 200
    assert login.tokens is not None
    assert login.tokens.access_token != second.access_token
    # A refresh token the server no longer takes ends the login: saying how to log in.
    now[0] = 10**10
    old = dataclasses.replace(login.tokens, refresh_token="gone")
    login.tokens = old
    with pytest.raises(NotLoggedIn, match="refresh token was refused"):
        await client.send(RequestSpec("GET", f"{BASE}/orders", auth=OAuthBearer("me")))


async def test_discovery_from_a_401_names_what_it_asked(client: Client) -> None:
    refused = await client.send(RequestSpec("GET", f"{BASE}/orders"))
    challenges = [v for k, v in refused.response.headers if k.lower() == "www-authenticate"]
    login = Login(reports(server=f"{BASE}/orders"), client, challenges=challenges)
    server = await login.server()
    assert server.token_endpoint == f"{BASE}/oauth/token"
    assert login.discovery is not None
    assert login.discovery.resource is not None
    assert login.discovery.tried[0] == f"{BASE}/.well-known/oauth-protected-resource"


async def test_kept_tokens_are_used_by_the_next_run_and_logout_revokes_them(
    app: MockApp, client: Client, tmp_path: object
) -> None:
    store = TokenFile(tmp_path / "oauth-tokens.json")  # type: ignore[operator]
    first = Login(reports(keep=True), client, store=store)
    await first.log_in(Person())
    kept = store.get("reports")
    assert kept is not None
    assert kept.client_id == "reports-service"
    assert "reports-secret" not in store.path.read_text()  # secrets are never kept
    # The next run: nothing discovered, the kept token sent.
    async with Client(transport=httpx.ASGITransport(app)) as again:
        seen: list[Exchange] = []
        again.observers.append(seen.append)
        second = Login(reports(), again, store=store).attach()
        exchange = await again.send(
            RequestSpec("GET", f"{BASE}/reports", auth=OAuthBearer("reports"))
        )
        assert exchange.response.status == 200
        assert [e.request.url for e in seen] == [f"{BASE}/reports"]
        done = await second.log_out()
    assert "revoked" in done[0]
    assert store.get("reports") is None
    refused = await client.send(
        RequestSpec("GET", f"{BASE}/reports", headers=(("Authorization", "Bearer x"),))
    )
    assert refused.response.status == 401


async def test_history_keeps_no_code_verifier_secret_or_token(app: MockApp, client: Client) -> None:
    login = Login(OAuthSettings(BASE, server=BASE, client_id="restwalk-cli"), client).attach()
    await code_login(app, login)
    await Login(reports(), client).log_in(Person())
    assert login.tokens is not None
    secrets = [login.tokens.access_token, login.tokens.refresh_token, "reports-secret"]
    kept = [mask_exchange(e) for e in client.recorded]  # type: ignore[attr-defined]
    text = repr(kept)
    for secret in secrets:
        assert secret
        assert secret not in text
    sent = next(e for e in kept if "code_verifier" in repr(e.request.body))
    assert b"code_verifier=****" in sent.request.body
    assert b"&code=****" in sent.request.body or b"code=****&" in sent.request.body
