"""The mock and restwalk mask by one rule, written twice (the two packages import nothing
of each other): the mock's journal, access log and tapes hide at least every name the
explorer's history hides, and the same headers, so the two cannot drift apart unseen."""

from __future__ import annotations

import pytest

from explorer.core.http import secret_rules as explorer_rules
from mock_server.http import masking as mock_rules

HEADERS = [
    *("Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "Api-Key"),
    *("Private-Token", "X-Auth-Token", "X-Auth", "X-Authorization", "X-Session-Id", "X-Session"),
    *("Session-Id", "X-Amz-Security-Token", "X-Hub-Signature-256", "X-Jwt-Assertion"),
    *("X-CSRF-Token", "X-OTP", "X-Goog-Api-Key", "Ocp-Apim-Subscription-Key", "X-Vault-Token"),
    *("X-Secret", "X-Client-Secret", "Key", "Sig", "X-Key", "Authorization-Key"),
    # and what is no secret
    *("X-Request-Id", "Content-Type", "Accept", "Access-Control-Allow-Credentials"),
    *("If-None-Match", "User-Agent", "X-RateLimit-Remaining", "Location", "ETag"),
    *("Idempotency-Key", "Sec-WebSocket-Key"),
]

NAMES = [
    *("password", "new_password", "newPassword", "password_confirmation", "passcode", "otp"),
    *("access_token", "refresh_token", "id_token", "token", "api_key", "apiKey", "jwt"),
    *("client_secret", "secret", "private_key", "credentials", "X-Amz-Signature", "sig"),
    *("code", "key", "auth", "session_id", "githubtoken"),
    *("name", "email", "id", "total", "cursor", "page_token", "next_token", "status"),
]


@pytest.mark.parametrize("name", HEADERS)
def test_a_header_is_secret_to_both_or_to_neither(name: str) -> None:
    assert mock_rules.is_secret_header(name) == explorer_rules.is_secret_header(name)


@pytest.mark.parametrize("name", NAMES)
def test_the_mock_hides_every_name_restwalk_hides(name: str) -> None:
    hidden = explorer_rules.is_secret_name(name) or explorer_rules.is_secret_name(name, in_url=True)
    if hidden:
        assert mock_rules.is_secret_name(name)


def test_the_lists_hold_both_kinds() -> None:
    assert any(explorer_rules.is_secret_header(name) for name in HEADERS)
    assert not all(explorer_rules.is_secret_header(name) for name in HEADERS)
    assert not all(explorer_rules.is_secret_name(name) for name in NAMES)
