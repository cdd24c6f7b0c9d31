"""A ``.http`` file's ``{{$auth.token("id")}}`` filled from its environment's OAuth 2.0
login (:class:`explorer.core.httpfile.auth_tokens.FileLogins`), against the mock's
authorization server in-process: what ``restwalk run`` and the TUI's ``o`` share.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import httpx
import orjson
import pytest

from explorer.core.http.client import Client
from explorer.core.http.exchange import Exchange
from explorer.core.httpfile.auth_tokens import FileLogins
from explorer.core.httpfile.errors import UndefinedVariable
from explorer.core.httpfile.opened import written_back
from explorer.core.httpfile.workspace import Workspace, open_workspace
from explorer.core.oauth.errors import NotLoggedIn, OAuthSettingsError
from explorer.core.oauth.login import Login
from mock_server import create_app
from mock_server.app import MockApp
from tests.explorer.oauth_people import FormBrowser, Person
from tests.mock_server.conftest import make_settings

BASE = "http://127.0.0.1"
ALICE = {"username": "alice", "password": "wonderland"}

REQUESTS = """\
### reports
GET {{base}}/reports
Authorization: Bearer {{$auth.token("reports")}}

### orders
GET {{base}}/orders
Authorization: Bearer {{$auth.token("person")}}

### manual
GET {{base}}/orders
Authorization: Bearer {{$auth.token("manual")}}
"""


def _environments(base: str) -> dict[str, object]:
    person = {
        "Type": "OAuth2",
        "Grant Type": "Authorization Code",
        "Auth URL": "{{base}}/oauth/authorize",
        "Token URL": "{{base}}/oauth/token",
        "Client ID": "restwalk-cli",
        "Scope": "orders:read",
    }
    reports = {
        "Grant Type": "Client Credentials",
        "Token URL": "{{base}}/oauth/token",
        "Client ID": "reports-service",
        "Client Secret": "reports-secret",
        "Scope": "reports:read",
    }
    manual = {**person, "Acquire Automatically": False}
    auth = {"person": person, "reports": reports, "manual": manual}
    return {
        "dev": {"base": base, "Security": {"Auth": auth}},
        "other": {"base": base, "Security": {"Auth": {"person": {**person, "Scope": "x"}}}},
    }


@pytest.fixture
def app() -> MockApp:
    return create_app(make_settings())


@pytest.fixture
async def client(app: MockApp) -> AsyncIterator[Client]:
    async with Client(transport=httpx.ASGITransport(app)) as made:
        made.recorded: list[Exchange] = []  # type: ignore[attr-defined]
        made.observers.append(made.recorded.append)  # type: ignore[attr-defined]
        yield made


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "api.http").write_text(REQUESTS)
    (tmp_path / "http-client.env.json").write_text(orjson.dumps(_environments(BASE)).decode())
    return open_workspace(tmp_path / "api.http", "dev")


def _request(workspace: Workspace, name: str):  # type: ignore[no-untyped-def]
    (request,) = workspace.http_file.named(name)
    return request


def _token_requests(client: Client) -> int:
    recorded: list[Exchange] = client.recorded  # type: ignore[attr-defined]
    return sum(e.request.url.endswith("/oauth/token") for e in recorded)


async def _never(login: Login) -> None:
    raise AssertionError(f"{login.name} asked the person")


def _person_approving(app: MockApp, asked: list[str]):  # type: ignore[no-untyped-def]
    """A ``log_in`` in which the person approves on the mock's page and pastes where the
    browser ended."""

    async def log_in(login: Login) -> None:
        asked.append(login.name)
        person = Person()
        task = asyncio.ensure_future(
            login.log_in(person, grant="authorization_code", why_not="a test")
        )
        await person.shown.wait()
        async with FormBrowser(httpx.ASGITransport(app)) as browser:
            back = await browser.visit(
                person.steps[0].url,
                filled=ALICE,
                button=lambda page: page.forms[0].buttons.get("approve"),
                stop=lambda target: "/callback" in target,
            )
        await person.pastes.put(back)
        await asyncio.wait_for(task, 10)

    return log_in


async def test_client_credentials_are_got_without_the_person_once_for_the_session(
    client: Client, workspace: Workspace
) -> None:
    logins = FileLogins(client)
    request = _request(workspace, "reports")
    with pytest.raises(UndefinedVariable, match="no token"):
        workspace.resolve(request)  # without the login's token it cannot be resolved
    filled = await logins.filled(workspace, request, _never)
    spec = filled.resolve(request).spec
    (authorization,) = [v for n, v in spec.headers if n.lower() == "authorization"]
    assert authorization.startswith("Bearer ey")
    again = await logins.filled(workspace, request, _never)
    assert again.resolve(request).spec == spec  # the same token, asked for once
    assert _token_requests(client) == 1


async def test_a_login_that_needs_the_person_asks_once_and_its_token_is_held(
    app: MockApp, client: Client, workspace: Workspace
) -> None:
    logins = FileLogins(client)
    asked: list[str] = []
    request = _request(workspace, "orders")
    filled = await logins.filled(workspace, request, _person_approving(app, asked))
    assert asked == ["person"]
    token = filled.auth["token:person"]
    assert await logins.filled(workspace, request, _never) == filled
    sent = await client.send(filled.resolve(request).spec)
    assert sent.response.status == 200
    # Another environment describes the login otherwise: it is another login.
    other = open_workspace(workspace.path, "other")
    login = logins.login(other, "person")
    assert login.tokens is None
    assert login.settings.scope == "x"
    assert logins.login(workspace, "person").tokens is not None
    assert token


async def test_a_cancelled_login_and_one_that_may_not_start_are_said(
    client: Client, workspace: Workspace
) -> None:
    logins = FileLogins(client)

    async def cancelled(login: Login) -> None:
        raise NotLoggedIn(f"Not logged in as {login.name!r}: the login was cancelled.")

    with pytest.raises(NotLoggedIn, match="cancelled"):
        await logins.filled(workspace, _request(workspace, "orders"), cancelled)
    with pytest.raises(NotLoggedIn) as manual:
        await logins.filled(workspace, _request(workspace, "manual"), _never)
    assert '"Acquire Automatically": false' in manual.value.hint
    (workspace.path.parent / "more.http").write_text(
        'GET {{base}}/x\nAuthorization: Bearer {{$auth.token("nobody")}}\n'
    )
    more = open_workspace(workspace.path.parent / "more.http", "dev")
    with pytest.raises(OAuthSettingsError, match=r"No Security\.Auth 'nobody'"):
        await logins.filled(more, more.http_file.requests[0], _never)


async def test_an_edited_request_is_saved_back_with_the_variable_not_the_token(
    client: Client, workspace: Workspace
) -> None:
    request = _request(workspace, "reports")
    filled = await FileLogins(client).filled(workspace, request, _never)
    resolved, opened = filled.open(request)
    token = filled.auth["token:reports"]
    headers = (*resolved.spec.headers, ("X-Copy", f"token {token}"))
    written = written_back(opened, replace(resolved.spec, headers=headers), resolved.spec)
    assert not any(token in value for _, value in written.headers)
    assert ("X-Copy", 'token {{$auth.token("reports")}}') in written.headers
    assert ("Authorization", 'Bearer {{$auth.token("reports")}}') in written.headers
