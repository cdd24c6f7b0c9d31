"""OAuth flows whose steps land on different servers sharing one database.

Two in-process servers on one database (a ``--db`` file, as two ``--workers``
processes share it, or PostgreSQL, as two instances behind a load balancer:
the ``database`` fixture), each with its own memory, and for PostgreSQL its
own pool and listener. A client registered on one is known to the other; a
code got on one is exchanged on the other, once; a refresh token rotated on
one and presented again on the other revokes the whole family, on both; a
device approved on one gets its token polled on the other.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from authlib.common.security import generate_token
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from mock_server import BackgroundServer
from tests.mock_server.conftest import StoreUnderTest
from tests.mock_server.oauth_browser import Browser, query_of, read_page

CLI = "restwalk-cli"
REDIRECT = "http://127.0.0.1:4321/callback"
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"


@pytest.fixture
def pair(database: StoreUnderTest) -> Iterator[tuple[BackgroundServer, BackgroundServer]]:
    """Two servers on one database."""
    settings = database.settings()
    with BackgroundServer(settings) as one, BackgroundServer(settings) as two:
        yield one, two


def _approve(server: BackgroundServer, client_id: str, verifier: str) -> str:
    """The code ``server`` gives once alice approves on its consent page."""
    params = {
        "response_type": "code",
        "client_id": client_id,
        "redirect_uri": REDIRECT,
        "scope": "orders:read",
        "state": "s1",
        "code_challenge": create_s256_code_challenge(verifier),
        "code_challenge_method": "S256",
    }
    with Browser(server.url) as browser:
        page = browser.open(str(httpx.URL(server.url + "/oauth/authorize", params=params)))
        assert page.response.status_code == 200, page.response.text
        answer = browser.submit(page, "approve", {"username": "alice", "password": "wonderland"})
    assert answer.status_code == 303, answer.text
    return query_of(answer.headers["location"])["code"]


def _token(server: BackgroundServer, auth: tuple[str, str] | None = None, **form: str) -> Any:
    return httpx.post(server.url + "/oauth/token", data=form, auth=auth, timeout=10)


def _orders(server: BackgroundServer, token: str) -> int:
    headers = {"Authorization": f"Bearer {token}"}
    return httpx.get(server.url + "/orders", headers=headers, timeout=10).status_code


def test_a_client_registered_on_one_gets_a_code_there_exchanged_once_on_the_other(
    pair: tuple[BackgroundServer, BackgroundServer],
) -> None:
    one, two = pair
    registered = httpx.post(
        one.url + "/oauth/register",
        json={"client_name": "Shared app", "redirect_uris": [REDIRECT]},
        timeout=10,
    )
    assert registered.status_code == 201, registered.text
    client = (registered.json()["client_id"], registered.json()["client_secret"])
    verifier = generate_token(48)
    code = _approve(two, client[0], verifier)  # the client is known on two
    exchange = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": REDIRECT,
        "code_verifier": verifier,
    }
    assert _token(one, (client[0], "wrong"), **exchange).json()["error"] == "invalid_client"
    got = _token(one, client, **exchange)
    assert got.status_code == 200, got.text
    access = got.json()["access_token"]
    assert _orders(two, access) == 200
    again = _token(two, client, **exchange).json()
    assert again["error"] == "invalid_grant"
    assert "used already" in again["error_description"]
    # The code came back: what its first exchange got is revoked, on both.
    assert (_orders(one, access), _orders(two, access)) == (401, 401)


def test_a_refresh_token_rotated_on_one_and_reused_on_the_other_revokes_the_family(
    pair: tuple[BackgroundServer, BackgroundServer],
) -> None:
    one, two = pair
    verifier = generate_token(48)
    code = _approve(one, CLI, verifier)
    first = _token(
        two,
        grant_type="authorization_code",
        code=code,
        redirect_uri=REDIRECT,
        code_verifier=verifier,
        client_id=CLI,
    ).json()
    refresh = {"grant_type": "refresh_token", "client_id": CLI}
    second = _token(one, refresh_token=first["refresh_token"], **refresh).json()
    assert second["refresh_token"] != first["refresh_token"]
    assert _orders(two, second["access_token"]) == 200
    reused = _token(two, refresh_token=first["refresh_token"], **refresh).json()
    assert reused["error"] == "invalid_grant"
    # The thief and the client now both hold nothing that works, on either server.
    assert _token(one, refresh_token=second["refresh_token"], **refresh).json()["error"] == (
        "invalid_grant"
    )
    for token in (first, second):
        assert (_orders(one, token["access_token"]), _orders(two, token["access_token"])) == (
            401,
            401,
        )


def test_a_device_approved_on_one_is_polled_on_the_other(
    pair: tuple[BackgroundServer, BackgroundServer],
) -> None:
    one, two = pair
    started = httpx.post(
        one.url + "/oauth/device_authorization",
        data={"client_id": CLI, "scope": "orders:read"},
        timeout=10,
    ).json()
    poll = {"grant_type": DEVICE_GRANT, "device_code": started["device_code"], "client_id": CLI}
    assert _token(two, **poll).json()["error"] == "authorization_pending"
    assert _token(one, **poll).json()["error"] == "slow_down"  # the pace is shared too
    with Browser(two.url) as browser:
        consent = browser.open(f"/oauth/device?user_code={started['user_code']}")
        assert consent.response.status_code == 200, consent.response.text
        done = browser.submit(consent, "approve", {"username": "bob", "password": "builder"})
    assert "Approved" in read_page(done).text
    token = _token(one, **poll).json()
    assert _orders(two, token["access_token"]) == 200
    assert _token(two, **poll).json()["error"] == "invalid_grant"  # spent, everywhere
