"""Bearer tokens: signed claims, verified by recomputing the signature.

A token is ``base64url(claims) + "." + base64url(HMAC-SHA256(secret, base64url(claims)))``
where the claims are the JSON object ``{"sub", "role", "exp", "jti"}`` (base64url
without padding, as in JWTs; ``jti`` is a random token id, RFC 7519 §4.1.7, so two
logins in the same second never get the same token and revoking one in stored mode
leaves the other alone). Verifying recomputes the signature and compares it in
constant time, then checks the expiry: no state at all (``--token-mode signed``).

``--token-mode stored`` additionally keeps the SHA-256 digest of each issued
token in a :class:`TokenRegistry` (never the token itself); a token is then
valid only while its digest is registered, so it can be revoked.

:func:`verify` is a pure function: the rate limiter keys clients by ``sub`` with it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass
from typing import Protocol, cast

from mock_server.auth.users import ROLE_RANK, Role

#: Random bytes in each token's ``jti``.
JTI_BYTES = 12
#: The most tokens ``--token-mode stored`` keeps. A new one beyond revokes the
#: oldest (the one that expires first): logging in always works, memory stays bounded.
MAX_TOKENS = 10_000


@dataclass(frozen=True)
class Claims:
    """What a token says: who (``sub``), with which role, until when (``exp``, Unix seconds)."""

    sub: str
    role: Role
    exp: int

    def expired(self, now: float) -> bool:
        """True once ``now`` has reached the expiry time."""
        return now >= self.exp


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64decode(text: str) -> bytes:
    """The bytes of unpadded base64url ``text``, in the one form :func:`_b64encode` writes.

    Python's decoder also takes ``=`` padding and the ``+/`` alphabet (and skips
    other characters); a token accepted in several spellings is several tokens,
    so anything that does not encode back to itself is refused.
    """
    if not text or not text.isascii():
        raise ValueError("not base64url")
    padded = text + "=" * (-len(text) % 4)
    decoded = base64.urlsafe_b64decode(padded.encode("ascii"))
    if _b64encode(decoded) != text:
        raise ValueError("not canonical base64url")
    return decoded


def _signature(payload: str, secret: bytes) -> bytes:
    return hmac.new(secret, payload.encode("ascii"), hashlib.sha256).digest()


def issue(claims: Claims, secret: bytes) -> str:
    """The signed token carrying ``claims``, with a fresh random ``jti``: never the same twice."""
    document = {
        "sub": claims.sub,
        "role": claims.role,
        "exp": claims.exp,
        "jti": secrets.token_urlsafe(JTI_BYTES),
    }
    payload = _b64encode(json.dumps(document, separators=(",", ":"), sort_keys=True).encode())
    return payload + "." + _b64encode(_signature(payload, secret))


def decode(token: str, secret: bytes) -> Claims | None:
    """The claims of ``token`` if its signature is right (expired or not); else None."""
    payload, dot, signature = token.partition(".")
    if not dot or "." in signature:
        return None
    try:
        sent = _b64decode(signature)
        expected = _signature(payload, secret)
    except (ValueError, binascii.Error):
        return None
    if not hmac.compare_digest(sent, expected):
        return None
    try:
        document = json.loads(_b64decode(payload))
    except (ValueError, binascii.Error):
        return None
    if not isinstance(document, dict):
        return None
    sub, role, exp = document.get("sub"), document.get("role"), document.get("exp")
    if not isinstance(sub, str) or role not in ROLE_RANK:
        return None
    if not isinstance(exp, int) or isinstance(exp, bool):
        return None
    return Claims(sub, cast(Role, role), exp)


def verify(token: str, secret: bytes, now: float) -> Claims | None:
    """The claims of ``token`` if it is signed with ``secret`` and not expired at ``now``."""
    claims = decode(token, secret)
    if claims is None or claims.expired(now):
        return None
    return claims


def digest(token: str) -> str:
    """The SHA-256 hex digest of ``token``: what the stored mode keeps instead of it."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class TokenRegistry(Protocol):
    """Where ``--token-mode stored`` keeps the digests of the tokens it issued."""

    def add(self, token_digest: str, subject: str, expires: float) -> None:
        """Remember an issued token until ``expires``."""

    def active(self, token_digest: str, now: float) -> bool:
        """True while the token is registered and not expired."""

    def revoke(self, token_digest: str) -> bool:
        """Forget the token; True if it was registered."""

    def purge(self, now: float) -> None:
        """Forget every token expired at ``now``."""


class MemoryTokens:
    """A :class:`TokenRegistry` in memory (the default, without ``--db``).

    At most ``limit`` tokens: a new one beyond revokes the oldest.
    """

    def __init__(self, limit: int = MAX_TOKENS) -> None:
        self._expiry: dict[str, float] = {}
        self.limit = limit

    def add(self, token_digest: str, subject: str, expires: float) -> None:
        """Remember an issued token until ``expires`` (revoking the oldest when full)."""
        self._expiry.pop(token_digest, None)
        while len(self._expiry) >= self.limit:
            # Every token lives as long, so the first issued is the first to expire.
            del self._expiry[next(iter(self._expiry))]
        self._expiry[token_digest] = expires

    def active(self, token_digest: str, now: float) -> bool:
        """True while the token is registered and not expired; forgets expired ones."""
        expires = self._expiry.get(token_digest)
        if expires is None:
            return False
        if now >= expires:
            del self._expiry[token_digest]
            return False
        return True

    def revoke(self, token_digest: str) -> bool:
        """Forget the token; True if it was registered."""
        return self._expiry.pop(token_digest, None) is not None

    def purge(self, now: float) -> None:
        """Forget every token expired at ``now``."""
        self._expiry = {d: e for d, e in self._expiry.items() if e > now}
