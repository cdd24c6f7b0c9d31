"""The seeded users, their roles, and checking a password without leaking time.

Passwords are never stored: each user has a random salt and the
PBKDF2-HMAC-SHA256 hash of its password (600 000 iterations, OWASP's 2023
figure). The seed's hashes are precomputed below, so starting a server costs
nothing; checking a password costs one PBKDF2 run (about 0.1 s), which is the
point: guessing is slow. A password that was right once is remembered by a
keyed fingerprint, so Basic credentials sent on every request cost one hash
only the first time. Wrong passwords are never remembered.

The comparisons are constant-time (:func:`hmac.compare_digest`), and an
unknown user name costs the same hash as a known one, so neither the timing
nor the answer tells which user names exist.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Literal

Role = Literal["viewer", "editor", "admin"]

#: Each role may do everything the roles ranked below it may do.
ROLE_RANK: dict[Role, int] = {"viewer": 1, "editor": 2, "admin": 3}

ALGORITHM = "sha256"
ITERATIONS = 600_000


def hash_password(password: str, salt: bytes, iterations: int = ITERATIONS) -> bytes:
    """The PBKDF2-HMAC-SHA256 hash of ``password`` with ``salt``."""
    return hashlib.pbkdf2_hmac(ALGORITHM, password.encode("utf-8"), salt, iterations)


def role_allows(role: Role, needed: Role) -> bool:
    """True when ``role`` ranks at least as high as ``needed``."""
    return ROLE_RANK[role] >= ROLE_RANK[needed]


@dataclass(frozen=True)
class User:
    """A user: name, role, and the salted hash of the password (never the password)."""

    name: str
    role: Role
    salt: bytes
    password_hash: bytes

    def __repr__(self) -> str:
        return f"User(name={self.name!r}, role={self.role!r})"


#: The seeded users of the design: (name, role, salt hex, PBKDF2 hash hex).
#: Their passwords are alice/wonderland, bob/builder and admin/admin.
SEED_USERS: tuple[tuple[str, Role, str, str], ...] = (
    (
        "alice",
        "editor",
        "4aad001b34fa7264f10313237e79feb0",
        "c722dc77efcc7740ed55a95c505d228b61198d3b11e32e6e39f2513f591a12b4",
    ),
    (
        "bob",
        "viewer",
        "7619b95c8b3c046c6ed2529d77f8ab6a",
        "1aa03c22f20a04606c1d6ba88142530a27c76d6ea4d5d691697cbceb994d3040",
    ),
    (
        "admin",
        "admin",
        "3daadc9935f6aa07bfe0eae1933323da",
        "cbef4baf396f5736024b7e8b8d4b6c96a4a7ee2d37cd5b5ca1c737cb026e27d8",
    ),
)

#: Hashed in place of an unknown user's, so that a miss costs as much as a hit.
_DECOY = User("", "viewer", b"\x00" * 16, b"\x00" * 32)

#: Keys the fingerprints of passwords already verified (this process only).
_FINGERPRINT_KEY = secrets.token_bytes(32)

#: How many verified credentials to remember before starting over.
_REMEMBERED_MAX = 1024


def _fingerprint(user: User, password: str) -> bytes:
    message = b"\x00".join((user.name.encode(), user.password_hash, password.encode("utf-8")))
    return hmac.new(_FINGERPRINT_KEY, message, hashlib.sha256).digest()


#: Fingerprints of (user, stored hash, password) triples that verified. Shared by every
#: user book of the process: the seed is the same everywhere, so is the answer.
_verified: set[bytes] = set()


class Users:
    """The user book: who exists, with which role, and whether a password is theirs."""

    def __init__(self, users: tuple[User, ...] | None = None) -> None:
        chosen = users if users is not None else seeded_users()
        self._by_name = {user.name: user for user in chosen}

    def get(self, name: str) -> User | None:
        """The user called ``name``, if any."""
        return self._by_name.get(name)

    def remembered(self, name: str, password: str) -> User | None:
        """The user, when this exact password verified before (cheap; no hashing)."""
        user = self._by_name.get(name)
        if user is None:
            return None
        return user if _fingerprint(user, password) in _verified else None

    def authenticate(self, name: str, password: str) -> User | None:
        """The user when ``password`` is theirs; None otherwise (slow by design)."""
        user = self.remembered(name, password)
        if user is not None:
            return user
        candidate = self._by_name.get(name)
        target = candidate if candidate is not None else _DECOY
        computed = hash_password(password, target.salt)
        matches = hmac.compare_digest(computed, target.password_hash)
        if candidate is None or not matches:
            return None
        if len(_verified) >= _REMEMBERED_MAX:
            _verified.clear()
        _verified.add(_fingerprint(candidate, password))
        return candidate


def seeded_users() -> tuple[User, ...]:
    """The design's three users, from :data:`SEED_USERS`."""
    return tuple(
        User(name, role, bytes.fromhex(salt), bytes.fromhex(digest))
        for name, role, salt, digest in SEED_USERS
    )
