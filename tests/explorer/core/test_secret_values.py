"""The values a request sends as secrets: one function for the request on the wire (the
journal, the history) and the request as a person said it (the copy menu's preview)."""

from __future__ import annotations

import pytest

from explorer.core.http.request import (
    BasicAuth,
    BearerAuth,
    CookieSession,
    LoginFlow,
    RequestSpec,
    build_request,
)
from explorer.core.http.secret_values import MIN_LENGTH, SecretValues, sent_secrets, spec_secrets

URL = "http://api.test/orders?limit=5"


@pytest.mark.parametrize(
    "spec",
    [
        RequestSpec(url=URL, auth=BearerAuth("eyJ0b2tlbiI6MX0", "Token")),
        RequestSpec(url=URL, auth=BasicAuth("ann", "s3cret-pw")),
        RequestSpec(url=URL, auth=CookieSession((("sessionid", "a1b2c3d4e5"), ("theme", "dark")))),
        RequestSpec(url=URL, headers=(("X-API-Key", "key-123456"), ("Accept", "text/csv"))),
        RequestSpec(url=URL, query=(("api_key", "q-98 76/54"), ("page", "2"))),
    ],
)
def test_a_spec_s_secrets_are_those_its_request_sends(spec: RequestSpec) -> None:
    """The copy menu masks what the journal masks: the spec read as the wire carries it."""
    wire = build_request(spec)
    sent = sent_secrets(str(wire.url), list(wire.headers.items()), [])
    assert sorted(spec_secrets(spec)) == sorted(sent)
    assert spec_secrets(spec)  # each carries one


def test_what_each_credential_gives() -> None:
    assert spec_secrets(RequestSpec(url=URL, auth=BasicAuth("ann", "s3cret-pw"))) == [
        "YW5uOnMzY3JldC1wdw==",  # base64("ann:s3cret-pw"): the Authorization header's
        "s3cret-pw",  # and the password, as curl -u writes it
    ]
    cookies = CookieSession((("sessionid", "a1b2c3d4e5"), ("theme", "dark")))
    assert spec_secrets(RequestSpec(url=URL, auth=cookies)) == ["a1b2c3d4e5"]
    flow = LoginFlow(url="http://api.test/login", user="ann", password="s3cret-pw")
    assert spec_secrets(RequestSpec(url=URL, auth=flow)) == ["s3cret-pw"]


def test_values_shorter_than_the_minimum_are_not_looked_for() -> None:
    short = "x" * (MIN_LENGTH - 1)
    spec = RequestSpec(url=URL, auth=BasicAuth("ann", short), query=(("token", "ab"),))
    assert short not in spec_secrets(spec)
    assert "ab" not in spec_secrets(spec)
    masked = SecretValues(spec_secrets(spec)).mask_text(f"curl -u ann:{short} 'axxb?token=ab'")
    assert "axxb" in masked  # a short value masked everywhere would garble the text
    assert sent_secrets(URL, [("Authorization", "Bearer ****")], []) == []  # masked already
