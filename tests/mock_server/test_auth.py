"""Authentication over HTTP: policy, 401 challenges, 403 roles, tokens, Basic, secrets."""

from __future__ import annotations

import asyncio
import hmac
import logging
from typing import Any

import httpx
import pytest
import uvicorn

from mock_server import create_app
from mock_server.auth import tokens, users
from mock_server.auth.challenge import challenge
from mock_server.auth.policy import required_role, rule_for
from mock_server.transport.server import bind_socket, url_of, uvicorn_config
from tests.mock_server.conftest import ADMIN, EDITOR, VIEWER, asgi_client, basic, make_settings

CHALLENGE = 'Bearer realm="restwalk", Basic realm="restwalk"'
INVALID = 'Bearer realm="restwalk", error="invalid_token", Basic realm="restwalk"'
#: A protected resource's 401 also names its OAuth metadata (RFC 9728 section 5.1).
METADATA = 'resource_metadata="http://mock.test/.well-known/oauth-protected-resource"'
GUARDED = f'Bearer realm="restwalk", {METADATA}, Basic realm="restwalk"'
GUARDED_INVALID = (
    f'Bearer realm="restwalk", error="invalid_token", {METADATA}, Basic realm="restwalk"'
)
NEW_CUSTOMER = {"name": "Ned Newcomer", "address": "1 Main Street, Springfield, IL 62701"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def token_for(client: httpx.AsyncClient, user: str, password: str) -> str:
    response = await client.post("/auth/token", json={"username": user, "password": password})
    assert response.status_code == 200, response.text
    token = response.json()["access_token"]
    assert isinstance(token, str)
    return token


def assert_problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/problem+json")
    body = response.json()
    assert body["status"] == status
    assert body["detail"]
    return body  # type: ignore[no-any-return]


# The policy table ---------------------------------------------------------------------


def test_policy_table() -> None:
    assert required_role("GET", "/customers") is None
    assert required_role("HEAD", "/products/3") is None
    assert required_role("POST", "/customers") == "editor"
    assert required_role("DELETE", "/products/3") == "editor"
    assert required_role("GET", "/orders") == "viewer"
    assert required_role("POST", "/orders/1/place") == "editor"
    assert required_role("GET", "/admin") == "admin"
    assert required_role("POST", "/admin/reset") == "admin"
    assert required_role("POST", "/anything-new") == "editor"
    assert required_role("GET", "/anything-new") is None
    assert not rule_for("/auth/token").inspect
    assert rule_for("/ordersx").prefix == "/"


def test_challenge_values() -> None:
    assert challenge() == CHALLENGE
    assert challenge("invalid_token") == INVALID


# Public and protected -----------------------------------------------------------------


async def test_reads_of_customers_and_products_are_public(client: httpx.AsyncClient) -> None:
    for path in ("/customers", "/customers/1", "/products", "/v2/products/2", "/"):
        assert (await client.get(path)).status_code == 200, path


@pytest.mark.parametrize("path", ["/orders", "/orders/1", "/v2/orders", "/orders?version=2"])
async def test_orders_need_a_credential(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path)
    body = assert_problem(response, 401)
    assert response.headers["www-authenticate"] == GUARDED
    assert "credential" in body["detail"]
    assert (await client.get(path, headers=VIEWER)).status_code == 200


async def test_writes_need_a_credential_and_an_editor(client: httpx.AsyncClient) -> None:
    response = await client.post("/customers", json=NEW_CUSTOMER)
    assert_problem(response, 401)
    assert response.headers["www-authenticate"] == GUARDED
    response = await client.post("/v2/customers", json=NEW_CUSTOMER, headers=VIEWER)
    body = assert_problem(response, 403)
    assert body["role"] == "viewer"
    assert body["requiredRole"] == "editor"
    assert "www-authenticate" not in response.headers
    response = await client.post("/customers", json=NEW_CUSTOMER, headers=EDITOR)
    assert response.status_code == 201
    assert (await client.delete("/products/1", headers=VIEWER)).status_code == 403
    assert (await client.delete("/products/1", headers=EDITOR)).status_code == 204


async def test_admin_is_for_the_admin_only(client: httpx.AsyncClient) -> None:
    assert_problem(await client.get("/admin"), 401)
    assert_problem(await client.get("/admin", headers=EDITOR), 403)
    assert_problem(await client.get("/admin", headers=VIEWER), 403)
    assert (await client.get("/admin", headers=ADMIN)).status_code == 200


# Credentials that do not hold ---------------------------------------------------------


async def test_wrong_password_and_unknown_user_look_alike(client: httpx.AsyncClient) -> None:
    wrong = await client.get("/orders", headers=basic("alice", "nope"))
    unknown = await client.get("/orders", headers=basic("mallory", "nope"))
    for response in (wrong, unknown):
        assert_problem(response, 401)
        assert response.headers["www-authenticate"] == GUARDED
    assert wrong.json()["detail"] == unknown.json()["detail"]
    assert "nope" not in wrong.text


async def test_bad_token_is_invalid_token_even_on_public_reads(client: httpx.AsyncClient) -> None:
    for path in ("/orders", "/customers"):
        response = await client.get(path, headers=bearer("not.a-token"))
        assert_problem(response, 401)
        assert response.headers["www-authenticate"] == GUARDED_INVALID
        assert "not.a-token" not in response.text


async def test_malformed_authorization_values(client: httpx.AsyncClient) -> None:
    cases = {
        "Basic !!!notbase64": GUARDED,
        "Basic " + "YWxpY2U=": GUARDED,  # "alice" without a colon
        "Basic": GUARDED,
        "Bearer": GUARDED_INVALID,
        "Bearer two tokens": GUARDED_INVALID,
        "Digest username=alice": GUARDED,
    }
    for value, expected in cases.items():
        response = await client.get("/orders", headers={"Authorization": value})
        assert_problem(response, 401)
        assert response.headers["www-authenticate"] == expected, value


async def test_a_bare_secret_is_not_repeated(client: httpx.AsyncClient) -> None:
    for value in ("s3cr3t-value", "Digest s3cr3t-value", "s3cr3t-value/with+stuff= tail"):
        response = await client.get("/orders", headers={"Authorization": value})
        assert_problem(response, 401)
        assert "s3cr3t" not in response.text
    named = await client.get("/orders", headers={"Authorization": "Digest abc"})
    assert "'Digest'" in named.json()["detail"]


async def test_scheme_names_are_case_insensitive(client: httpx.AsyncClient) -> None:
    token = await token_for(client, "bob", "builder")
    assert (await client.get("/orders", headers={"Authorization": f"bearer {token}"})).is_success
    value = EDITOR["Authorization"].replace("Basic", "BASIC")
    assert (await client.get("/orders", headers={"Authorization": value})).is_success


# Tokens -------------------------------------------------------------------------------


async def test_token_from_json_form_and_basic(client: httpx.AsyncClient) -> None:
    by_json = await client.post("/auth/token", json={"username": "alice", "password": "wonderland"})
    by_form = await client.post("/auth/token", data={"username": "alice", "password": "wonderland"})
    by_basic = await client.post("/auth/token", headers=EDITOR)
    for response in (by_json, by_form, by_basic):
        assert response.status_code == 200
        assert response.headers["cache-control"] == "no-store"
        body = response.json()
        assert body["token_type"] == "Bearer"
        assert body["expires_in"] == 3600
        assert (
            await client.post("/orders/1/place", headers=bearer(body["access_token"]))
        ).is_success
        await client.post("/admin/reset", headers=ADMIN)


async def test_token_carries_role(client: httpx.AsyncClient) -> None:
    token = await token_for(client, "bob", "builder")
    assert (await client.get("/orders", headers=bearer(token))).status_code == 200
    assert_problem(await client.post("/customers", json=NEW_CUSTOMER, headers=bearer(token)), 403)


async def test_login_errors(client: httpx.AsyncClient) -> None:
    wrong = await client.post("/auth/token", json={"username": "alice", "password": "x"})
    assert_problem(wrong, 401)
    assert wrong.headers["www-authenticate"] == CHALLENGE
    missing = await client.post("/auth/token", json={"username": "alice"})
    body = assert_problem(missing, 422)
    assert [e["field"] for e in body["errors"]] == ["password"]
    assert_problem(await client.post("/auth/token", json=["alice"]), 422)
    assert_problem(await client.post("/auth/token", content=b"{", headers=_json()), 400)
    plain = await client.post(
        "/auth/token", content=b"alice", headers={"Content-Type": "text/plain"}
    )
    assert_problem(plain, 415)
    assert plain.headers["accept-post"] == "application/json, application/x-www-form-urlencoded"
    assert_problem(await client.post("/auth/token"), 401)
    assert_problem(await client.post("/auth/token", headers=bearer("x.y")), 400)


def _json() -> dict[str, str]:
    return {"Content-Type": "application/json"}


async def test_expired_token_is_refused_with_invalid_token() -> None:
    app = create_app(make_settings(token_lifetime_seconds=60))
    now = 1_900_000_000.0
    app.service.clock = lambda: now
    async with asgi_client(app) as client:
        token = await token_for(client, "alice", "wonderland")
        assert (await client.get("/orders", headers=bearer(token))).status_code == 200
        now += 60
        response = await client.get("/orders", headers=bearer(token))
        body = assert_problem(response, 401)
        assert response.headers["www-authenticate"] == GUARDED_INVALID
        assert "expired" in body["detail"]


async def test_secret_setting_signs_tokens() -> None:
    app = create_app(make_settings(secret="s3cret"))
    async with asgi_client(app) as client:
        token = await token_for(client, "admin", "admin")
    claims = tokens.verify(token, b"s3cret", app.service.clock())
    assert claims is not None
    assert (claims.sub, claims.role) == ("admin", "admin")


async def test_random_secret_differs_per_start() -> None:
    first, second = create_app(make_settings()), create_app(make_settings())
    assert first.service.auth.secret != second.service.auth.secret
    async with asgi_client(first) as one, asgi_client(second) as two:
        token = await token_for(one, "alice", "wonderland")
        response = await two.get("/orders", headers=bearer(token))
        assert_problem(response, 401)


async def test_signed_tokens_cannot_be_revoked(client: httpx.AsyncClient) -> None:
    token = await token_for(client, "alice", "wonderland")
    response = await client.delete("/auth/token", headers=bearer(token))
    assert_problem(response, 405)
    allowed = [m.strip() for m in response.headers["allow"].split(",")]
    assert "POST" in allowed
    assert "DELETE" not in allowed
    assert (await client.get("/orders", headers=bearer(token))).status_code == 200


async def test_stored_tokens_are_revoked() -> None:
    app = create_app(make_settings(token_mode="stored"))
    now = 1_900_000_000.0
    app.service.clock = lambda: now
    async with asgi_client(app) as client:
        token = await token_for(client, "alice", "wonderland")
        # A second login in the same second (say, another device) gets its own
        # token, which outlives the revocation of the first.
        other = await token_for(client, "alice", "wonderland")
        assert other != token
        assert (await client.get("/orders", headers=bearer(token))).status_code == 200
        revoked = await client.delete("/auth/token", headers=bearer(token))
        assert revoked.status_code == 204
        response = await client.get("/orders", headers=bearer(token))
        body = assert_problem(response, 401)
        assert response.headers["www-authenticate"] == GUARDED_INVALID
        assert "revoked" in body["detail"]
        assert_problem(await client.delete("/auth/token", headers=bearer(token)), 401)
        assert_problem(await client.delete("/auth/token"), 401)
        assert (await client.get("/orders", headers=bearer(other))).status_code == 200


async def test_stored_mode_refuses_a_validly_signed_token_it_never_issued() -> None:
    app = create_app(make_settings(token_mode="stored", secret="k"))
    forged = tokens.issue(tokens.Claims("admin", "admin", 2_000_000_000), b"k")
    async with asgi_client(app) as client:
        assert_problem(await client.get("/orders", headers=bearer(forged)), 401)


async def test_whoami(client: httpx.AsyncClient) -> None:
    token = await token_for(client, "bob", "builder")
    response = await client.get("/auth/whoami", headers=bearer(token))
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert (body["username"], body["role"], body["authenticatedBy"]) == ("bob", "viewer", "bearer")
    basic_body = (await client.get("/auth/whoami", headers=ADMIN)).json()
    assert (basic_body["username"], basic_body["authenticatedBy"]) == ("admin", "basic")
    assert_problem(await client.get("/auth/whoami"), 401)


async def test_auth_is_reachable_from_the_root_and_documented(client: httpx.AsyncClient) -> None:
    root = (await client.get("/")).json()
    assert root["_links"]["rw:auth"]["href"] == "/auth"
    for rel in ("auth", "whoami", "root", "admin", "token", "session"):
        assert (await client.get(f"/docs/rels/{rel}")).status_code == 200, rel


async def test_auth_index_offers_the_login_forms(client: httpx.AsyncClient) -> None:
    body = (await client.get("/auth")).json()
    # Token and session endpoints take POST and DELETE: forms, not links to GET.
    assert "rw:token" not in body["_links"]
    assert "rw:session" not in body["_links"]
    assert body["_templates"]["login"]["target"] == "/auth/session"
    assert set(body["_templates"]) == {"token", "login", "logout"}
    assert body["_templates"]["token"]["method"] == "POST"


# Passwords ----------------------------------------------------------------------------


def test_seeded_passwords_verify_and_are_not_stored() -> None:
    book = users.Users()
    for name, password, role in (
        ("alice", "wonderland", "editor"),
        ("bob", "builder", "viewer"),
        ("admin", "admin", "admin"),
    ):
        user = book.get(name)
        assert user is not None
        assert user.role == role
        assert password.encode() not in user.password_hash
        assert user.password_hash.hex() not in repr(user)
        assert user.password_hash == users.hash_password(password, user.salt)


def test_password_check_is_constant_time_and_hashes_unknown_users(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compared: list[bytes] = []
    hashed: list[str] = []
    real_compare, real_hash = hmac.compare_digest, users.hash_password

    def compare(a: bytes, b: bytes) -> bool:
        compared.append(a)
        return real_compare(a, b)

    def fast_hash(password: str, salt: bytes, iterations: int = users.ITERATIONS) -> bytes:
        hashed.append(password)
        return real_hash(password, salt, 1)

    monkeypatch.setattr(hmac, "compare_digest", compare)
    monkeypatch.setattr(users, "hash_password", fast_hash)
    book = users.Users()
    assert book.authenticate("nobody", "guess") is None
    assert book.authenticate("alice", "guess") is None
    assert hashed == ["guess", "guess"]
    assert len(compared) == 2


async def test_no_credential_reaches_the_access_log(caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(make_settings())
    sock = bind_socket("127.0.0.1", 0)
    url = url_of(sock)
    server = uvicorn.Server(uvicorn_config(app, make_settings(log_level="info")))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    for _ in range(1000):
        if server.started:
            break
        await asyncio.sleep(0.01)
    secrets_sent: list[str] = []
    # Any earlier test in this process that served with uvicorn's own logging config set
    # "uvicorn.access" to its level (warning, say) and stopped it from propagating to the
    # root, where caplog listens: listen on the logger itself, at INFO.
    access_logger = logging.getLogger("uvicorn.access")
    access_logger.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.INFO), caplog.at_level(logging.INFO, "uvicorn.access"):
            async with httpx.AsyncClient(base_url=url) as client:
                token = await token_for(client, "alice", "wonderland")
                secrets_sent += [token, "wonderland"]
                await client.get("/orders", headers=bearer(token))
                await client.get("/orders", headers=EDITOR)
                await client.get("/orders", headers=bearer("bogus.token"))
                login = await client.post(
                    "/auth/session", json={"username": "bob", "password": "builder"}
                )
                cookie = login.cookies["session"]
                secrets_sent += [cookie, "builder", EDITOR["Authorization"].split()[1]]
                await client.get("/orders")
    finally:
        server.should_exit = True
        await task
        sock.close()
        access_logger.removeHandler(caplog.handler)
    access = [r.getMessage() for r in caplog.records if r.name == "uvicorn.access"]
    assert any("/orders" in line for line in access)
    everything = "\n".join(r.getMessage() for r in caplog.records)
    for secret in secrets_sent:
        assert secret not in everything
