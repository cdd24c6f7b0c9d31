"""``/_journal`` masks what clients sent as secrets; the pytest plugin still sees it all.

The journal held every client's ``Authorization`` and login body in clear, for
anyone with the documented ``admin:admin``. Masked at the HTTP boundary: the
entries keep the real values for tests that assert on them in-process.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator

import httpx
import orjson
import pytest

from mock_server import BackgroundServer
from mock_server.http import masking
from mock_server.pytest_plugin import Journal
from tests.mock_server.conftest import ADMIN, make_settings

#: Every secret the requests below send; none may come back from /_journal.
SECRETS = (
    base64.b64encode(b"alice:wonderland").decode(),
    "cookie-value-7",
    "api-key-8",
    "private-token-9",
    "query-token-10",
    "amz-signature-11",
    "form-password-12",
    "json-password-13",
    "part-password-14",
    "bearer-15",
    # Issue 23 checked again: named as the explorer's history names secrets.
    "session-id-16",
    "x-auth-17",
    "camel-password-18",
    "camel-secret-19",
    "hub-signature-20",
)


def send_secrets(url: str) -> None:
    """The requests a client's secrets travel in, every way the issue names."""
    with httpx.Client(base_url=url, timeout=5) as client:
        client.get("/customers/1", auth=("alice", "wonderland"))
        client.get("/customers/2", headers={"Authorization": "Bearer bearer-15"})
        client.get("/customers/3", headers={"Cookie": "session=cookie-value-7; theme=dark"})
        client.get("/anything", headers={"X-Api-Key": "api-key-8"})
        client.get("/anything", headers={"Private-Token": "private-token-9"})
        client.get("/anything?access_token=query-token-10&page=2")
        client.get("/anything?X-Amz-Signature=amz-signature-11")
        client.post("/auth/token", data={"username": "alice", "password": "form-password-12"})
        client.post("/auth/token", json={"username": "alice", "password": "json-password-13"})
        client.post(
            "/anything",
            data={"username": "alice", "password": "part-password-14"},
            files={"photo": ("p.bin", b"\xff\x00binary")},
        )
        client.get(
            "/anything",
            headers={
                "X-Session-Id": "session-id-16",
                "X-Auth": "x-auth-17",
                "X-Hub-Signature-256": "hub-signature-20",
            },
        )
        client.post(
            "/anything",
            json={"newPassword": "camel-password-18", "app": {"clientSecret": "camel-secret-19"}},
        )


@pytest.fixture
def server() -> Iterator[BackgroundServer]:
    with BackgroundServer(make_settings()) as served:
        send_secrets(served.url)
        yield served


def test_the_journal_answers_no_secret(server: BackgroundServer) -> None:
    answer = httpx.get(server.url + "/_journal", headers=ADMIN, timeout=5)
    assert answer.status_code == 200
    for secret in SECRETS:
        assert secret not in answer.text, secret
    document = answer.json()
    assert document["secrets"] == "masked"
    entries = document["entries"]
    headers = [entry["headers"] for entry in entries]
    assert headers[0]["authorization"] == "Basic ****"
    assert headers[1]["authorization"] == "Bearer ****"
    assert headers[2]["cookie"] == "session=****; theme=****"
    assert headers[3]["x-api-key"] == "****"
    assert headers[4]["private-token"] == "****"
    assert entries[5]["url"] == "/anything?access_token=****&page=2"
    assert entries[5]["query"] == "access_token=****&page=2"
    assert entries[7]["body"] == "username=alice&password=****"
    assert entries[8]["json"] == {"username": "alice", "password": "****"}
    multipart = base64.b64decode(entries[9]["body"])  # not UTF-8: a file part is binary
    assert b"part-password-14" not in multipart
    assert b'name="password"\r\n\r\n****\r\n' in multipart
    assert b"\xff\x00binary" in multipart  # the rest as sent


def test_the_pytest_plugin_sees_what_was_sent(server: BackgroundServer) -> None:
    journal = Journal(server.app.service.requests)
    sent = journal.entries()
    assert sent[0].header("authorization") == f"Basic {SECRETS[0]}"
    assert sent[2].header("cookie") == "session=cookie-value-7; theme=dark"
    assert sent[5].query == "access_token=query-token-10&page=2"
    assert sent[8].json() == {"username": "alice", "password": "json-password-13"}
    assert journal.entries(headers=["x-api-key:api-key-8"])[0].path == "/anything"
    # The entries are kept as sent: masking is only what /_journal answers.
    assert b"form-password-12" in bytes(sent[7].body)


def test_filtering_by_a_secret_value_is_refused(server: BackgroundServer) -> None:
    guess = f"authorization:Basic {SECRETS[0]}"
    refused = httpx.get(
        server.url + "/_journal", params={"header": guess}, headers=ADMIN, timeout=5
    )
    assert refused.status_code == 400
    assert "--journal-secrets" in refused.json()["detail"]
    by_name = httpx.get(
        server.url + "/_journal", params={"header": "x-api-key"}, headers=ADMIN, timeout=5
    )
    assert by_name.json()["count"] == 1


def test_journal_secrets_shows_them() -> None:
    with BackgroundServer(make_settings(journal_secrets=True)) as served:
        send_secrets(served.url)
        answer = httpx.get(served.url + "/_journal", headers=ADMIN, timeout=5)
        found = httpx.get(
            served.url + "/_journal",
            params={"header": "x-api-key:api-key-8"},
            headers=ADMIN,
            timeout=5,
        )
    document = answer.json()
    assert document["secrets"] == "shown"
    shown = answer.text + base64.b64decode(document["entries"][9]["body"]).decode("latin-1")
    for secret in SECRETS:
        assert secret in shown, secret
    assert found.json()["count"] == 1


def test_trace_masks_secret_headers_too(server: BackgroundServer) -> None:
    answer = httpx.request(
        "TRACE", server.url + "/", headers={"X-Api-Key": "api-key-8", **ADMIN}, timeout=5
    )
    assert "api-key-8" not in answer.text
    assert "x-api-key: ****" in answer.text.lower()


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("X-Api-Key", True),
        ("x-auth-token", True),
        ("Private-Token", True),
        ("client_secret", True),
        ("new_password", True),
        ("X-Amz-Signature", True),
        ("sig", True),
        ("code", True),
        ("device_code", True),  # RFC 8628, as the explorer's history masks them
        ("user_code", True),
        ("id_token_hint", True),
        ("accessToken", True),
        ("password_confirmation", True),
        ("X-Hub-Signature-256", True),
        ("X-Jwt-Assertion", True),
        ("Access-Control-Allow-Credentials", False),
        ("X-Auth-User", False),
        ("Content-Type", False),
        ("page", False),
        ("name", False),
    ],
)
def test_secret_names(name: str, secret: bool) -> None:
    assert masking.is_secret_name(name) is secret


def test_headers_named_like_credentials() -> None:
    for name in ("X-Auth", "X-Session-Id", "Authorization", "Cookie", "X-Api-Key"):
        assert masking.is_secret_header(name), name
        assert masking.mask_header(name, "v-1") != "v-1", name
    for name in ("X-Auth-User", "Accept", "X-Request-Id"):
        assert not masking.is_secret_header(name), name


def test_json_members_are_masked_at_any_depth_even_cut_short() -> None:
    body = b'{"user": {"password": "p1", "n": 1}, "list": [{"api_key": 42}], "token": "cut'
    masked = masking.mask_json_members(body)
    assert masked == (
        b'{"user": {"password": "****", "n": 1}, "list": [{"api_key": "****"}], "token": "cut'
    )
    assert orjson.loads(masking.mask_json_members(b'{"otp": true}')) == {"otp": "****"}


def test_a_multipart_field_is_masked_with_the_rest_kept() -> None:
    body = (
        b'--b\r\nContent-Disposition: form-data; name="password"\r\n\r\nhunter2\r\n'
        b'--b\r\nContent-Disposition: form-data; name="f"; filename="password"\r\n\r\nkept\r\n'
        b"--b--\r\n"
    )
    masked = masking.mask_body("multipart/form-data; boundary=b", body)
    assert b"hunter2" not in masked
    assert b'name="password"\r\n\r\n****\r\n' in masked
    assert b"kept" in masked
