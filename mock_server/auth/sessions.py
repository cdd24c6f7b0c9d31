"""Cookie sessions: a random id in the ``session`` cookie, the rest on the server.

The id is 256 random bits (:func:`secrets.token_urlsafe`). The store keeps only
its SHA-256 digest, with the user, role and expiry, so reading the store (or
the ``--db`` file) gives no cookie that would work. Sessions end at logout
(``DELETE /auth/session``) or after the token lifetime, whichever is first.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Protocol

from mock_server.auth.users import Role

#: The most live sessions a store keeps. A new one beyond ends the oldest (the one
#: that expires first): logging in always works, and memory stays bounded.
MAX_SESSIONS = 10_000

COOKIE_NAME = "session"
COOKIE_ATTRIBUTES = "HttpOnly; SameSite=Lax; Path=/"
#: Added over HTTPS (``--tls``): the browser then never sends the cookie in cleartext,
#: where anyone on the path could read it and be the user.
SECURE = "; Secure"


@dataclass(frozen=True)
class Session:
    """A live session: whose it is and until when (Unix seconds)."""

    user: str
    role: Role
    expires: float


def new_session_id() -> str:
    """A fresh, unguessable session id for the cookie."""
    return secrets.token_urlsafe(32)


def session_digest(session_id: str) -> str:
    """What the store keeps in place of ``session_id``."""
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


def set_cookie(session_id: str, *, secure: bool = False) -> str:
    """The ``Set-Cookie`` value that starts a session (``Secure`` when served over HTTPS)."""
    return f"{COOKIE_NAME}={session_id}; {COOKIE_ATTRIBUTES}" + (SECURE if secure else "")


def clear_cookie(*, secure: bool = False) -> str:
    """The ``Set-Cookie`` value that makes the client forget its session cookie."""
    attributes = COOKIE_ATTRIBUTES + (SECURE if secure else "")
    return f"{COOKIE_NAME}=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; {attributes}"


class SessionStore(Protocol):
    """The server-side session store, keyed by session digests."""

    def put(self, digest: str, session: Session) -> None:
        """Keep ``session`` under ``digest``."""

    def get(self, digest: str, now: float) -> Session | None:
        """The live session under ``digest``, if any (expired ones are gone)."""

    def delete(self, digest: str) -> bool:
        """End the session; True if there was one."""

    def purge(self, now: float) -> None:
        """Forget every session expired at ``now``."""


class MemorySessions:
    """A :class:`SessionStore` in memory (the default, without ``--db``).

    At most ``limit`` sessions: a new one beyond ends the oldest.
    """

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self._sessions: dict[str, Session] = {}
        self.limit = limit

    def put(self, digest: str, session: Session) -> None:
        """Keep ``session`` under ``digest`` (ending the oldest one when full)."""
        self._sessions.pop(digest, None)
        while len(self._sessions) >= self.limit:
            # Every session lives as long, so the first made is the first to expire.
            del self._sessions[next(iter(self._sessions))]
        self._sessions[digest] = session

    def get(self, digest: str, now: float) -> Session | None:
        """The live session under ``digest``; an expired one is removed."""
        session = self._sessions.get(digest)
        if session is None:
            return None
        if now >= session.expires:
            del self._sessions[digest]
            return None
        return session

    def delete(self, digest: str) -> bool:
        """End the session; True if there was one."""
        return self._sessions.pop(digest, None) is not None

    def purge(self, now: float) -> None:
        """Forget every session expired at ``now``."""
        self._sessions = {d: s for d, s in self._sessions.items() if s.expires > now}
