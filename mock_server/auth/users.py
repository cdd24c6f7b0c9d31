"""The seeded users, their roles, and checking a password without leaking time.

Passwords are never stored: each user has a random salt and the
PBKDF2-HMAC-SHA256 hash of its password (600 000 iterations, OWASP's 2023
figure). The seed's hashes are precomputed below, so starting a server costs
nothing; checking a password costs one PBKDF2 run (about 0.2 s of CPU), which
is the point: guessing is slow. That cost is bounded:

- the outcome of each (user name, password) pair checked, right or wrong, is
  remembered under a keyed fingerprint (HMAC-SHA256 with a per-process random
  key: the table holds no password, and its keys cannot be computed from
  outside), in a small LRU table (:data:`REMEMBERED_MAX`). The user book
  never changes while the server runs, so an outcome never goes stale;
- each account (a user name, or every unknown name together) hashes one
  password at a time, and a request waiting for it looks in the table again
  first: a burst of requests with the same credentials pays the hash once.
  How many hash at once, and how fast an account that keeps failing may try
  again, is :mod:`mock_server.auth.password_checks`'s business.

The comparisons are constant-time (:func:`hmac.compare_digest`), and an
unknown user name costs the same hash as a known one, so neither the timing
nor the answer tells which user names exist. A remembered outcome answers
fast whether it was right or wrong, so that speed tells nothing either.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
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

#: Keys the fingerprints of the credentials checked (this process only).
_FINGERPRINT_KEY = secrets.token_bytes(32)

#: How many checked credentials (user name and password) to remember.
REMEMBERED_MAX = 4096


def fingerprint(name: str, password: str) -> bytes:
    """The keyed digest a (name, password) pair is known by here (never the password)."""
    encoded = name.encode("utf-8")
    message = len(encoded).to_bytes(4, "big") + encoded + password.encode("utf-8")
    return hmac.new(_FINGERPRINT_KEY, message, hashlib.sha256).digest()


class Users:
    """The user book: who exists, with which role, and whether a password is theirs."""

    def __init__(self, users: tuple[User, ...] | None = None) -> None:
        chosen = users if users is not None else seeded_users()
        self._by_name = {user.name: user for user in chosen}
        #: Fingerprint of (name, password) -> the user it proved, or None if wrong.
        self._outcomes: OrderedDict[bytes, User | None] = OrderedDict()
        self._outcomes_lock = threading.Lock()
        #: Held while one of an account's passwords is hashed; "" is every unknown name's.
        self._hashing = {name: threading.Lock() for name in (*self._by_name, "")}
        #: How many PBKDF2 hashes this book has computed (for tests and curiosity).
        self.hashes = 0

    def get(self, name: str) -> User | None:
        """The user called ``name``, if any."""
        return self._by_name.get(name)

    def names(self) -> list[str]:
        """Every user's name."""
        return list(self._by_name)

    def recall(self, name: str, password: str) -> tuple[bool, User | None]:
        """(known, user): whether this pair was checked before, and what it proved (cheap)."""
        key = fingerprint(name, password)
        with self._outcomes_lock:
            if key not in self._outcomes:
                return False, None
            self._outcomes.move_to_end(key)
            return True, self._outcomes[key]

    def _remember(self, name: str, password: str, user: User | None) -> None:
        with self._outcomes_lock:
            self._outcomes[fingerprint(name, password)] = user
            while len(self._outcomes) > REMEMBERED_MAX:
                self._outcomes.popitem(last=False)

    def authenticate(self, name: str, password: str) -> User | None:
        """The user when ``password`` is theirs; None otherwise (slow the first time)."""
        known, user = self.recall(name, password)
        if known:
            return user
        with self._hashing[name if name in self._by_name else ""]:
            # Another request may have checked the same pair while this one waited.
            known, user = self.recall(name, password)
            if known:
                return user
            candidate = self._by_name.get(name)
            target = candidate if candidate is not None else _DECOY
            computed = hash_password(password, target.salt)
            self.hashes += 1
        matches = hmac.compare_digest(computed, target.password_hash)
        user = candidate if candidate is not None and matches else None
        self._remember(name, password, user)
        return user


def seeded_users() -> tuple[User, ...]:
    """The design's three users, from :data:`SEED_USERS`."""
    return tuple(
        User(name, role, bytes.fromhex(salt), bytes.fromhex(digest))
        for name, role, salt, digest in SEED_USERS
    )
