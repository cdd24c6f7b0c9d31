"""restwalk's OAuth 2.0 client against a certified provider no one here wrote.

panva's oidc-provider (npm, pinned in ``oidc_provider/package.json``; ``make test``
installs it there with ``npm ci``) runs on a free 127.0.0.1 port with the small
configuration of ``oidc_provider/provider.mjs``: a native public client
(``restwalk-cli``: authorization code + PKCE on a loopback redirect, device code,
refresh) and a confidential one (``reports-service``: client credentials). Nothing
else is configured on restwalk's side: the endpoints come from its OpenID Connect
discovery document. Its own login and consent pages (devInteractions) are driven
as a browser submits them.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from explorer.core.http.client import Client
from explorer.core.http.request import OAuthBearer, RequestSpec
from explorer.core.oauth.discovery import read_server_metadata
from explorer.core.oauth.login import Login
from explorer.core.oauth.settings import OAuthSettings
from tests.explorer.oauth_people import FormBrowser, Person

pytestmark = pytest.mark.interop

PROVIDER = Path(__file__).parent / "oidc_provider"
LOGIN = {"login": "alice", "password": "anything"}  # devInteractions take any password


@pytest.fixture(scope="module")
def issuer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """oidc-provider's issuer URL, the provider running for the module."""
    node = shutil.which("node")
    assert node is not None, "the interop tests need Node.js (node 20 or later)"
    assert (PROVIDER / "node_modules" / "oidc-provider").is_dir(), (
        "oidc-provider is not installed: run 'make test' (npm ci in tests/explorer/oidc_provider)"
    )
    log = tmp_path_factory.mktemp("oidc-provider") / "stderr.log"
    with log.open("w") as errors:
        process = subprocess.Popen(
            [node, "provider.mjs"],
            cwd=PROVIDER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line, f"oidc-provider did not start: {log.read_text()}"
            yield str(json.loads(line)["issuer"])
        finally:
            process.terminate()
            process.wait(10)


@pytest.fixture
async def client() -> AsyncIterator[Client]:
    async with Client() as made:
        yield made


def native(issuer: str, **changes: object) -> OAuthSettings:
    fields: dict[str, object] = {"client_id": "restwalk-cli", "scope": "openid api:read"}
    return OAuthSettings("op", server=issuer, **{**fields, **changes})  # type: ignore[arg-type]


async def test_authorization_code_with_pkce_then_refresh(issuer: str, client: Client) -> None:
    now = [0.0]
    login = Login(native(issuer), client, clock=lambda: now[0] or time.time()).attach()
    person = Person()
    task = asyncio.ensure_future(login.log_in(person, grant="authorization_code"))
    await person.shown.wait()
    step = person.steps[0]
    assert step.url.startswith(f"{issuer}/auth?")
    async with FormBrowser() as browser:
        back = await browser.visit(
            step.url, filled=LOGIN, stop=lambda url: url.startswith(step.redirect_uri)
        )
    assert "iss=" in back  # RFC 9207: checked against the discovered issuer
    async with httpx.AsyncClient() as to_restwalk:
        assert (await to_restwalk.get(back)).status_code == 200
    tokens = await asyncio.wait_for(task, 20)
    assert login.discovery is not None
    assert login.discovery.server.issuer == issuer
    assert tokens.refresh_token
    assert tokens.id_token
    view = login.view()
    assert view is not None
    assert {"sub": "alice"}.items() <= {line.name: line.value for line in view.id_claims}.items()
    me = await client.send(RequestSpec("GET", f"{issuer}/me", auth=OAuthBearer("op")))
    assert me.response.status == 200
    assert json.loads(me.response.body)["sub"] == "alice"
    # Later, near its expiry: renewed with the refresh token before it is sent.
    assert tokens.expires_at is not None
    now[0] = tokens.expires_at - 5
    me = await client.send(RequestSpec("GET", f"{issuer}/me", auth=OAuthBearer("op")))
    assert me.response.status == 200
    assert login.tokens is not None
    assert login.tokens.access_token != tokens.access_token
    done = await login.log_out()
    assert "revoked" in done[0]


async def test_device_code(issuer: str, client: Client) -> None:
    login = Login(native(issuer, scope="openid"), client)
    person = Person()
    task = asyncio.ensure_future(login.log_in(person, grant="device_code"))
    await person.shown.wait()
    code = person.codes[0]
    assert code.verification_uri == f"{issuer}/device"
    async with FormBrowser() as browser:
        await browser.visit(code.verification_uri_complete, filled=LOGIN)
    tokens = await asyncio.wait_for(task, 60)  # polled at the provider's interval
    assert tokens.refresh_token


async def test_its_openid_connect_discovery_document_reads(issuer: str) -> None:
    url = f"{issuer}/.well-known/openid-configuration"
    async with httpx.AsyncClient() as http:
        body = (await http.get(url)).content
    server = read_server_metadata(body, url, issuer)
    assert server.token_endpoint == f"{issuer}/token"
    assert server.device_authorization_endpoint == f"{issuer}/device/auth"
    assert server.iss_parameter_supported
    assert "S256" in server.code_challenge_methods_supported


@pytest.mark.parametrize("method", ["basic", "in body"])
async def test_client_credentials(issuer: str, client: Client, method: str) -> None:
    settings = OAuthSettings(
        "reports",
        server=issuer,
        client_id="reports-service",
        client_secret="reports-secret",
        scope="api:read",
        client_authentication=method,  # type: ignore[arg-type]
    )
    tokens = await Login(settings, client).log_in(Person())
    assert tokens.scope == "api:read"
    assert tokens.refresh_token is None
    wrong = Login(
        OAuthSettings("x", server=issuer, client_id="reports-service", client_secret="no"), client
    )
    with pytest.raises(Exception, match="invalid_client"):
        await wrong.log_in(Person())
