"""Cookie sessions: login sets the cookie, the server keeps the session, logout ends it."""

from __future__ import annotations

import httpx

from mock_server import create_app
from mock_server.auth import Authenticator
from mock_server.auth.authenticator import PURGE_EVERY
from mock_server.auth.sessions import MemorySessions, Session, session_digest
from mock_server.auth.users import Users
from tests.mock_server.conftest import VIEWER, asgi_client, make_settings

BOB = {"username": "bob", "password": "builder"}
ALICE = {"username": "alice", "password": "wonderland"}


async def test_login_sets_an_httponly_lax_cookie(client: httpx.AsyncClient) -> None:
    response = await client.post("/auth/session", json=ALICE)
    assert response.status_code == 204
    assert response.headers["cache-control"] == "no-store"
    cookie = response.headers["set-cookie"]
    name_value, *attributes = [part.strip() for part in cookie.split(";")]
    assert name_value.startswith("session=")
    assert len(name_value) > len("session=") + 40
    assert attributes == ["HttpOnly", "SameSite=Lax", "Path=/"]


async def test_session_authenticates_and_logout_ends_it(client: httpx.AsyncClient) -> None:
    assert (await client.get("/orders")).status_code == 401
    assert (await client.post("/auth/session", data=BOB)).status_code == 204
    assert (await client.get("/orders")).status_code == 200
    whoami = (await client.get("/auth/whoami")).json()
    assert (whoami["username"], whoami["role"], whoami["authenticatedBy"]) == (
        "bob",
        "viewer",
        "session",
    )
    assert (await client.post("/customers", json={"name": "X", "address": "Y"})).status_code == 403
    stolen = client.cookies["session"]
    logout = await client.delete("/auth/session")
    assert logout.status_code == 204
    assert "Max-Age=0" in logout.headers["set-cookie"]
    assert "session" not in client.cookies
    # The old cookie, replayed, is worthless: the server forgot the session.
    response = await client.get("/orders", headers={"Cookie": f"session={stolen}"})
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json; charset=utf-8"
    assert "Max-Age=0" in response.headers["set-cookie"]
    # On a public read, a stale cookie is ignored rather than refused.
    assert (
        await client.get("/customers", headers={"Cookie": f"session={stolen}"})
    ).status_code == 200


async def test_logout_without_a_session_is_fine(client: httpx.AsyncClient) -> None:
    assert (await client.delete("/auth/session")).status_code == 204


async def test_bad_login_sets_no_cookie(client: httpx.AsyncClient) -> None:
    response = await client.post("/auth/session", json={"username": "bob", "password": "x"})
    assert response.status_code == 401
    assert "set-cookie" not in response.headers


async def test_login_by_basic_credentials(client: httpx.AsyncClient) -> None:
    response = await client.post("/auth/session", headers=VIEWER)
    assert response.status_code == 204
    assert "session" in client.cookies


async def test_authorization_header_wins_over_the_cookie(client: httpx.AsyncClient) -> None:
    await client.post("/auth/session", json=BOB)
    response = await client.get("/auth/whoami", headers={"Authorization": "Basic YWRtaW46YWRtaW4="})
    assert response.json()["username"] == "admin"


async def test_sessions_expire() -> None:
    app = create_app(make_settings(token_lifetime_seconds=100))
    now = 1_900_000_000.0
    app.service.clock = lambda: now
    async with asgi_client(app) as client:
        await client.post("/auth/session", json=ALICE)
        now += 99
        assert (await client.get("/orders")).status_code == 200
        now += 1
        assert (await client.get("/orders")).status_code == 401


async def test_the_store_keeps_a_digest_not_the_cookie() -> None:
    app = create_app(make_settings())
    async with asgi_client(app) as client:
        await client.post("/auth/session", json=ALICE)
        session_id = client.cookies["session"]
    store = app.service.auth.sessions
    assert isinstance(store, MemorySessions)
    assert store.get(session_id, 0) is None
    found = store.get(session_digest(session_id), 0)
    assert found is not None
    assert found.user == "alice"


def test_memory_sessions() -> None:
    store = MemorySessions()
    store.put("d", Session("bob", "viewer", 10.0))
    assert store.get("d", 9.9) == Session("bob", "viewer", 10.0)
    assert store.get("d", 10.0) is None
    assert not store.delete("d")
    store.put("e", Session("bob", "viewer", 10.0))
    assert store.delete("e")
    assert store.get("e", 0) is None


def test_expired_sessions_are_purged_as_logins_go_on() -> None:
    auth = Authenticator(b"k", lifetime=10)
    alice = Users().get("alice")
    assert alice is not None
    old = auth.open_session(alice, 0.0)
    for _ in range(PURGE_EVERY - 1):
        auth.open_session(alice, 100.0)
    store = auth.sessions
    assert isinstance(store, MemorySessions)
    assert store.get(session_digest(old), 0.0) is None
    assert len(store._sessions) == PURGE_EVERY - 1
