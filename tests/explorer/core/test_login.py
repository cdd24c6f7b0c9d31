"""The login step of a LoginFlow: its request, the form a JSON login falls back to, the
token read from the answer, and a refusal explained in the server's words."""

from __future__ import annotations

from collections.abc import AsyncIterator
from urllib.parse import parse_qs

import httpx
import orjson
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from explorer.core.http.client import Client
from explorer.core.http.errors import LoginFailed
from explorer.core.http.login import build_login_request, form_instead, token_from_login
from explorer.core.http.request import LoginFlow, RequestSpec

BASE = "http://127.0.0.1:8000"


def test_login_request_styles() -> None:
    url = f"{BASE}/auth/token"
    as_json = build_login_request(LoginFlow(url, "alice", "wonderland"))
    assert as_json.method == "POST"
    assert orjson.loads(as_json.content) == {"username": "alice", "password": "wonderland"}
    assert as_json.headers["content-type"] == "application/json"

    form = build_login_request(LoginFlow(url, "alice", "wonder land", style="form"))
    assert form.content == b"grant_type=password&username=alice&password=wonder+land"
    assert form.headers["content-type"] == "application/x-www-form-urlencoded"

    basic = build_login_request(LoginFlow(url, "alice", "wonderland", style="basic"))
    assert basic.headers["authorization"].startswith("Basic ")
    assert basic.content == b""


def test_token_from_login() -> None:
    flow = LoginFlow(f"{BASE}/auth/token", "alice", "wonderland")
    body = orjson.dumps({"access_token": "abc.def", "token_type": "Bearer"})
    assert token_from_login(flow, 200, body) == "abc.def"
    custom = LoginFlow(flow.url, "a", "b", token_field="token")
    assert token_from_login(custom, 201, b'{"token": "zz"}') == "zz"


def test_the_default_field_falls_back_to_token_as_drf_answers() -> None:
    flow = LoginFlow(f"{BASE}/api-token-auth/", "alice", "wonderland")
    # Django REST Framework's obtain_auth_token answers so
    assert token_from_login(flow, 200, b'{"token": "9944b091"}') == "9944b091"
    both = b'{"access_token": "a", "token": "t"}'
    assert token_from_login(flow, 200, both) == "a"
    named = LoginFlow(flow.url, "a", "b", token_field="jwt")
    with pytest.raises(LoginFailed):  # a field named is the only one read
        token_from_login(named, 200, b'{"token": "t"}')


@pytest.mark.parametrize(
    ("status", "body", "words"),
    [
        (401, b'{"title": "Unauthorized"}', 'answered 401 ("Unauthorized")'),
        (400, b'{"detail": "Incorrect username or password"}', '("Incorrect username or'),
        (400, b'{"error": "invalid_grant", "error_description": "Bad \\u001b[31m"}', '"Bad ␛[31m"'),
        (403, b"<html>", "answered 403 to the credentials sent as JSON."),
        (200, b"<html>", "not JSON"),
        (200, b'{"key": "x"}', "'access_token'"),
        (200, b'["access_token"]', "'access_token'"),
        (200, b'{"access_token": 5}', "'access_token'"),
    ],
)
def test_a_login_without_a_token_fails_clearly(status: int, body: bytes, words: str) -> None:
    flow = LoginFlow(f"{BASE}/auth/token", "alice", "wrong")
    with pytest.raises(LoginFailed) as info:
        token_from_login(flow, status, body)
    assert words in info.value.message
    assert "wrong" not in info.value.message


def test_the_servers_reason_is_cut_short() -> None:
    flow = LoginFlow(f"{BASE}/auth/token", "alice", "wrong")
    with pytest.raises(LoginFailed) as info:
        token_from_login(flow, 400, orjson.dumps({"detail": "no " * 500}))
    assert len(info.value.message) < 400
    assert "…" in info.value.message


@pytest.mark.parametrize(
    ("style", "status", "body", "retried"),
    [
        ("json", 422, b'{"detail": [{"loc": ["body", "username"]}]}', True),  # FastAPI
        ("json", 415, b"", True),
        ("json", 400, b'{"error": "invalid_request"}', True),  # an OAuth token endpoint
        ("json", 400, b'{"error": "unsupported_grant_type"}', True),
        ("json", 400, b'{"error": "invalid_grant"}', False),  # a wrong password
        ("json", 400, b'{"detail": "Incorrect username or password"}', False),
        ("json", 401, b"", False),
        ("json", 200, b'{"access_token": "t"}', False),
        ("form", 422, b"", False),  # a form already: nothing else to try
        ("basic", 415, b"", False),
    ],
)
def test_a_json_login_the_server_cannot_read_is_sent_as_a_form(
    style: str, status: int, body: bytes, retried: bool
) -> None:
    flow = LoginFlow(f"{BASE}/token", "alice", "wonderland", style=style)  # type: ignore[arg-type]
    again = form_instead(flow, status, body)
    if retried:
        assert again is not None
        assert again.style == "form"
        assert (again.url, again.user, again.password) == (flow.url, flow.user, flow.password)
    else:
        assert again is None


# --- against a token endpoint that takes a form only, as FastAPI's OAuth2PasswordRequestForm


async def token(request: Request) -> Response:
    """FastAPI's answers: 422 to anything but a form with both fields, 400 to a wrong
    password, the token otherwise."""
    form = parse_qs((await request.body()).decode())
    if request.headers.get("content-type") != "application/x-www-form-urlencoded" or not {
        "username",
        "password",
    } <= set(form):
        return JSONResponse({"detail": [{"loc": ["body", "username"]}]}, status_code=422)
    if form["username"] != ["alice"] or form["password"] != ["wonderland"]:
        return JSONResponse({"detail": "Incorrect username or password"}, status_code=400)
    return JSONResponse({"access_token": "tok-alice", "token_type": "bearer"})


async def me(request: Request) -> Response:
    if request.headers.get("authorization") != "Bearer tok-alice":
        return JSONResponse({"detail": "Not authenticated"}, status_code=401)
    return JSONResponse({"username": "alice"})


form_only = Starlette(routes=[Route("/token", token, methods=["POST"]), Route("/users/me", me)])


@pytest.fixture
async def client() -> AsyncIterator[Client]:
    async with Client(transport=httpx.ASGITransport(form_only)) as made:
        yield made


async def test_a_json_login_refused_with_422_logs_in_by_form(client: Client) -> None:
    flow = LoginFlow(f"{BASE}/token", "alice", "wonderland")
    exchange = await client.send(RequestSpec("GET", f"{BASE}/users/me", auth=flow))
    assert exchange.response.status == 200
    assert client.last_login is not None
    assert client.last_login.response.status == 200
    assert client.token_for(flow) == "tok-alice"


async def test_a_wrong_password_by_form_says_both_answers(client: Client) -> None:
    flow = LoginFlow(f"{BASE}/token", "alice", "nope")
    with pytest.raises(LoginFailed) as info:
        await client.send(RequestSpec("GET", f"{BASE}/users/me", auth=flow))
    message = info.value.message
    assert 'answered 400 ("Incorrect username or password")' in message
    assert "sent as a form; it answered 422 to the JSON before" in message
    assert "nope" not in message


# Django REST Framework's TokenAuthentication, as a QA pass's DRF 3.18 project answered:
# obtain_auth_token gives {"token": key}; the key goes as "Authorization: Token <key>",
# and anything else is a 401 with "WWW-Authenticate: Token".
async def drf_token(request: Request) -> Response:
    given = await request.json()
    if given != {"username": "alice", "password": "wonderland"}:
        return JSONResponse(
            {"non_field_errors": ["Unable to log in with provided credentials."]}, 400
        )
    return JSONResponse({"token": "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"})


async def drf_books(request: Request) -> Response:
    if request.headers.get("authorization") != "Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b":
        return JSONResponse(
            {"detail": "Authentication credentials were not provided."},
            status_code=401,
            headers={"WWW-Authenticate": "Token"},
        )
    return JSONResponse({"count": 0, "next": None, "previous": None, "results": []})


drf = Starlette(
    routes=[
        Route("/api-token-auth/", drf_token, methods=["POST"]),
        Route("/api/books/", drf_books),
    ]
)


async def test_a_drf_login_sends_its_token_under_the_token_scheme() -> None:
    flow = LoginFlow(f"{BASE}/api-token-auth/", "alice", "wonderland", scheme="Token")
    async with Client(transport=httpx.ASGITransport(drf)) as client:
        exchange = await client.send(RequestSpec("GET", f"{BASE}/api/books/", auth=flow))
    assert exchange.response.status == 200
    sent = dict(exchange.request.headers)
    assert sent["Authorization"] == "Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"


async def test_a_drf_login_refused_quotes_its_non_field_error() -> None:
    flow = LoginFlow(f"{BASE}/api-token-auth/", "alice", "nope", scheme="Token")
    async with Client(transport=httpx.ASGITransport(drf)) as client:
        with pytest.raises(LoginFailed) as info:
            await client.send(RequestSpec("GET", f"{BASE}/api/books/", auth=flow))
    assert "Unable to log in with provided credentials." in info.value.message


async def test_a_login_s_token_goes_under_the_scheme_the_server_asks_for() -> None:
    """``--login`` on Django REST Framework without ``--token-scheme``: its 401 says
    ``WWW-Authenticate: Token``, and the same token goes again under it, from then on."""
    seen: list[str | None] = []

    async def books(request: Request) -> Response:
        seen.append(request.headers.get("authorization"))
        return await drf_books(request)

    app = Starlette(
        routes=[
            Route("/api-token-auth/", drf_token, methods=["POST"]),
            Route("/api/books/", books, methods=["GET", "POST"]),
        ]
    )
    flow = LoginFlow(f"{BASE}/api-token-auth/", "alice", "wonderland")
    key = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
    async with Client(transport=httpx.ASGITransport(app)) as client:
        first = await client.send(RequestSpec("POST", f"{BASE}/api/books/", auth=flow))
        assert first.response.status == 200
        assert seen == [f"Bearer {key}", f"Token {key}"]
        assert client.scheme_for(flow) == "Token"
        await client.send(RequestSpec("GET", f"{BASE}/api/books/", auth=flow))
    assert seen[-1] == f"Token {key}"  # at once: one request, not two
    assert len(seen) == 3


def test_the_scheme_asked_is_another_token_scheme_only() -> None:
    from explorer.core.http.login import scheme_asked

    assert scheme_asked(["Token"], "Bearer") == "Token"
    assert scheme_asked(['Bearer realm="x"', "Token"], "Bearer") is None  # offered
    assert scheme_asked(['Basic realm="x"'], "Bearer") is None
    assert scheme_asked([], "Bearer") is None
    assert scheme_asked(["token"], "Token") is None


async def test_a_request_saved_or_exported_after_the_scheme_changed_says_it() -> None:
    """The 401 switched the login's token to ``Token``: a ``.http`` file saved then, and
    every export, send it so (they wrote ``Bearer``, which DRF refuses)."""
    from explorer.core.httpfile.writer import format_request
    from explorer.core.session.exports import as_logged_in, request_exports

    flow = LoginFlow(f"{BASE}/api-token-auth/", "alice", "wonderland")
    spec = RequestSpec("GET", f"{BASE}/api/books/", auth=flow)
    key = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
    async with Client(transport=httpx.ASGITransport(drf)) as client:
        assert as_logged_in(spec, client) == (spec, None)  # not logged in yet
        assert (await client.send(spec)).response.status == 200
        written, token = as_logged_in(spec, client)
        exports = request_exports(spec, client)
    assert token == key
    assert f"Authorization: Token {key}" in format_request(written, token=token)
    assert exports
    assert all(f"Token {key}" in exported.text for exported in exports)
    assert not any("Bearer" in exported.text for exported in exports)
