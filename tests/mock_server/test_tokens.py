"""Signed tokens: format, verification by recomputing, expiry, tampering, constant time."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mock_server.auth import tokens
from mock_server.auth.tokens import Claims, MemoryTokens

SECRET = b"test-secret"
NOW = 1_800_000_000.0


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_token_is_base64url_claims_dot_hmac_of_them() -> None:
    token = tokens.issue(Claims("alice", "editor", 1_800_000_600), SECRET)
    payload, signature = token.split(".")
    assert "=" not in token
    claims = json.loads(_unb64(payload))
    jti = claims.pop("jti")
    assert claims == {"sub": "alice", "role": "editor", "exp": 1_800_000_600}
    assert isinstance(jti, str)
    assert len(jti) >= 16
    expected = hmac.new(SECRET, payload.encode(), hashlib.sha256).digest()
    assert _unb64(signature) == expected


def test_the_same_claims_never_give_the_same_token_twice() -> None:
    claims = Claims("alice", "editor", 1_800_000_600)
    assert tokens.issue(claims, SECRET) != tokens.issue(claims, SECRET)


def test_verify_returns_the_claims_of_a_good_token() -> None:
    claims = Claims("bob", "viewer", int(NOW) + 60)
    assert tokens.verify(tokens.issue(claims, SECRET), SECRET, NOW) == claims


def test_expired_token_fails_verify_but_decodes() -> None:
    claims = Claims("bob", "viewer", int(NOW))
    token = tokens.issue(claims, SECRET)
    assert tokens.verify(token, SECRET, NOW) is None
    assert tokens.verify(token, SECRET, NOW - 1) == claims
    assert tokens.decode(token, SECRET) == claims


def test_other_secret_fails() -> None:
    token = tokens.issue(Claims("alice", "editor", int(NOW) + 60), SECRET)
    assert tokens.verify(token, b"another secret", NOW) is None


def test_tampered_claims_fail() -> None:
    token = tokens.issue(Claims("bob", "viewer", int(NOW) + 60), SECRET)
    _, signature = token.split(".")
    forged = json.dumps({"sub": "bob", "role": "admin", "exp": int(NOW) + 60}).encode()
    payload = base64.urlsafe_b64encode(forged).rstrip(b"=").decode()
    assert tokens.verify(f"{payload}.{signature}", SECRET, NOW) is None


def test_signed_but_malformed_claims_fail() -> None:
    def signed(document: object) -> str:
        payload = base64.urlsafe_b64encode(json.dumps(document).encode()).rstrip(b"=").decode()
        mac = hmac.new(SECRET, payload.encode(), hashlib.sha256).digest()
        return payload + "." + base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    for document in (
        [1, 2],
        {"sub": "a", "role": "root", "exp": int(NOW) + 60},
        {"sub": 5, "role": "admin", "exp": int(NOW) + 60},
        {"sub": "a", "role": "admin", "exp": "soon"},
        {"sub": "a", "role": "admin", "exp": True},
    ):
        assert tokens.decode(signed(document), SECRET) is None


def test_garbage_never_raises() -> None:
    for junk in ("", ".", "..", "a.b.c", "abc", "é.é", "=.=", "eyJ.!!!", "a" * 5000 + ".x"):
        assert tokens.verify(junk, SECRET, NOW) is None


@given(st.text(max_size=200))
def test_any_text_is_refused_without_error(text: str) -> None:
    assert tokens.verify(text, SECRET, NOW) is None


def test_signature_comparison_is_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    token = tokens.issue(Claims("alice", "editor", int(NOW) + 60), SECRET)
    assert tokens.verify(token, SECRET, NOW) is not None
    assert tokens.verify(token[:-2] + "AA", SECRET, NOW) is None
    assert len(calls) == 2


def test_digest_is_sha256_not_the_token() -> None:
    token = tokens.issue(Claims("alice", "editor", int(NOW) + 60), SECRET)
    assert tokens.digest(token) == hashlib.sha256(token.encode()).hexdigest()
    assert token not in tokens.digest(token)


def test_memory_registry_add_revoke_expire() -> None:
    registry = MemoryTokens()
    registry.add("d1", "alice", NOW + 10)
    assert registry.active("d1", NOW)
    assert not registry.active("d2", NOW)
    assert registry.revoke("d1")
    assert not registry.revoke("d1")
    assert not registry.active("d1", NOW)
    registry.add("d3", "bob", NOW + 10)
    assert not registry.active("d3", NOW + 10)
    assert not registry.revoke("d3")


def test_memory_registry_purge() -> None:
    registry = MemoryTokens()
    registry.add("old", "alice", NOW)
    registry.add("new", "alice", NOW + 10)
    registry.purge(NOW)
    assert registry.revoke("new")
    assert not registry.revoke("old")


def _respell(token: str, *, padded: bool, standard: bool) -> str:
    """``token`` with ``=`` padding and/or the ``+/`` alphabet, same bytes."""
    parts = []
    for part in token.split("."):
        raw = _unb64(part)
        text = (base64.b64encode if standard else base64.urlsafe_b64encode)(raw).decode()
        parts.append(text if padded else text.rstrip("="))
    return ".".join(parts)


def test_only_the_unpadded_base64url_spelling_is_accepted() -> None:
    # A jti of '>' bytes makes '-' in base64url ('+' in the standard alphabet), and
    # 32 signature bytes make 43 characters: padding would add one '='.
    document = {"sub": "alice", "role": "editor", "exp": int(NOW) + 60, "jti": ">>>>>>"}
    payload = base64.urlsafe_b64encode(json.dumps(document).encode()).decode().rstrip("=")
    signature = hmac.new(SECRET, payload.encode(), hashlib.sha256).digest()
    token = payload + "." + base64.urlsafe_b64encode(signature).decode().rstrip("=")
    assert "-" in token
    assert tokens.verify(token, SECRET, NOW) == Claims("alice", "editor", int(NOW) + 60)
    for padded, standard in ((True, False), (False, True), (True, True)):
        other = _respell(token, padded=padded, standard=standard)
        assert other != token
        assert tokens.verify(other, SECRET, NOW) is None, (padded, standard)
    assert tokens.verify(token + "=", SECRET, NOW) is None
