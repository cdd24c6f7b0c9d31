"""The authentication service: from a credential to a :class:`Principal`, or a refusal.

One object per server (``service.auth``) ties together the user book, the
token secret and mode, the token registry (stored mode) and the session
store. Both stores live in the ``--db`` file when there is one (so they
survive a restart and are shared by ``--workers``), in memory otherwise.

Time is always passed in (``now``), never read here, so tests move a clock
instead of sleeping. Password hashing is slow on purpose and runs in worker
threads, fairly between users (:mod:`mock_server.auth.password_checks`), so
wrong passwords never stall the other requests, nor another user's login.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from mock_server.auth import sessions as session_rules
from mock_server.auth import tokens
from mock_server.auth.credentials import Basic, Bearer, Malformed, parse_authorization
from mock_server.auth.password_checks import PasswordChecks
from mock_server.auth.sessions import MemorySessions, Session, SessionStore
from mock_server.auth.tokens import Claims, MemoryTokens, TokenRegistry
from mock_server.auth.users import Role, User, Users
from mock_server.settings import Settings, TokenMode

Scheme = Literal["bearer", "basic", "session", "oauth"]

#: Expired tokens and sessions are forgotten once every this many logins.
PURGE_EVERY = 256


@dataclass(frozen=True)
class Principal:
    """Who a request is from: user, role, and how they proved it.

    An OAuth access token also says which ``client`` holds it and the ``scopes``
    the user granted it (None for every other credential: not limited by scope).
    For a token a client got for itself (client credentials), ``user`` is the client.
    """

    user: str
    role: Role
    scheme: Scheme
    scopes: frozenset[str] | None = None
    client: str | None = None


@dataclass(frozen=True)
class Refusal:
    """A credential that was sent but does not hold; ``detail`` explains, safely.

    ``invalid_token`` marks a bad or expired Bearer token (the challenge then says so).
    """

    detail: str
    invalid_token: bool = False


class AccessTokenVerifier(Protocol):
    """Checks the access tokens another issuer made (the OAuth server's JWTs)."""

    def check(self, token: str, now: float) -> Principal | Refusal:
        """Who ``token`` belongs to, or why it is refused."""


def is_jws(token: str) -> bool:
    """True when ``token`` has the shape of a compact JWS (three parts): a JWT, not ours."""
    return token.count(".") == 2


@runtime_checkable
class CredentialKeeper(Protocol):
    """A database that can also keep tokens, sessions and the signing secret."""

    tokens: TokenRegistry
    sessions: SessionStore

    def shared_secret(self, fresh: bytes) -> bytes:
        """The secret saved earlier; saves and returns ``fresh`` when there is none."""


class Authenticator:
    """Checks credentials and issues tokens and sessions for one server."""

    def __init__(
        self,
        secret: bytes,
        *,
        mode: TokenMode = "signed",
        lifetime: int = 3600,
        users: Users | None = None,
        registry: TokenRegistry | None = None,
        sessions: SessionStore | None = None,
    ) -> None:
        self.secret = secret
        self.mode: TokenMode = mode
        self.lifetime = lifetime
        self.users = users or Users()
        self.passwords = PasswordChecks(self.users)
        self.registry: TokenRegistry = registry or MemoryTokens()
        self.sessions: SessionStore = sessions or MemorySessions()
        #: The OAuth server's token checks, when it is on (set by the service).
        self.access_tokens: AccessTokenVerifier | None = None
        self._issued = 0

    def _housekeeping(self, now: float) -> None:
        """Every :data:`PURGE_EVERY` logins, forget expired tokens and sessions."""
        self._issued += 1
        if self._issued % PURGE_EVERY == 0:
            self.registry.purge(now)
            self.sessions.purge(now)

    @classmethod
    def for_settings(cls, settings: Settings, persistence: object | None) -> Authenticator:
        """The authenticator ``settings`` ask for, keeping state in ``persistence`` if it can.

        The secret is ``--secret`` if given. Otherwise it is random; with ``--db``
        it is kept in the file, so tokens survive a restart and every worker
        process verifies the tokens the others issued.
        """
        keeper = persistence if isinstance(persistence, CredentialKeeper) else None
        if settings.secret is not None:
            secret = settings.secret.encode("utf-8")
        elif keeper is not None:
            secret = keeper.shared_secret(secrets.token_bytes(32))
        else:
            secret = secrets.token_bytes(32)
        return cls(
            secret,
            mode=settings.token_mode,
            lifetime=settings.token_lifetime_seconds,
            registry=keeper.tokens if keeper is not None else None,
            sessions=keeper.sessions if keeper is not None else None,
        )

    # Passwords -------------------------------------------------------------------------

    async def check_password(self, username: str, password: str) -> User | None:
        """The user when the password is theirs; hashing runs off the event loop."""
        return await self.passwords.check(username, password)

    # Tokens ----------------------------------------------------------------------------

    def issue_token(self, user: User, now: float) -> tuple[str, int]:
        """A new access token for ``user`` and its lifetime in seconds."""
        expires = int(now) + self.lifetime
        token = tokens.issue(Claims(user.name, user.role, expires), self.secret)
        if self.mode == "stored":
            self.registry.add(tokens.digest(token), user.name, expires)
            self._housekeeping(now)
        return token, self.lifetime

    def check_token(self, token: str, now: float) -> Principal | Refusal:
        """Who ``token`` belongs to, or why it is refused."""
        if self.access_tokens is not None and is_jws(token):
            return self.access_tokens.check(token, now)
        claims = tokens.decode(token, self.secret)
        if claims is None:
            return Refusal("The bearer token is not one this server issued.", invalid_token=True)
        if claims.expired(now):
            return Refusal(
                "The bearer token has expired; get a new one from /auth/token.",
                invalid_token=True,
            )
        if self.mode == "stored" and not self.registry.active(tokens.digest(token), now):
            return Refusal(
                "The bearer token has been revoked; get a new one from /auth/token.",
                invalid_token=True,
            )
        if self.users.get(claims.sub) is None:
            return Refusal("The bearer token names no known user.", invalid_token=True)
        return Principal(claims.sub, claims.role, "bearer")

    def revoke(self, token: str) -> bool:
        """Revoke ``token`` (stored mode); True if it was active."""
        return self.registry.revoke(tokens.digest(token))

    # Sessions --------------------------------------------------------------------------

    def open_session(self, user: User, now: float) -> str:
        """A new session for ``user``; returns the id for the cookie."""
        session_id = session_rules.new_session_id()
        session = Session(user.name, user.role, now + self.lifetime)
        self.sessions.put(session_rules.session_digest(session_id), session)
        self._housekeeping(now)
        return session_id

    def check_session(self, session_id: str, now: float) -> Principal | None:
        """Who the session ``session_id`` belongs to, if it is live."""
        session = self.sessions.get(session_rules.session_digest(session_id), now)
        if session is None:
            return None
        return Principal(session.user, session.role, "session")

    def close_session(self, session_id: str) -> bool:
        """End the session ``session_id``; True if it was live."""
        return self.sessions.delete(session_rules.session_digest(session_id))

    # Requests --------------------------------------------------------------------------

    async def check_authorization(self, value: str, now: float) -> Principal | Refusal:
        """Who an ``Authorization`` header value proves the client to be, or why not."""
        credential = parse_authorization(value)
        if isinstance(credential, Malformed):
            return Refusal(credential.reason, invalid_token=credential.bearer)
        if isinstance(credential, Bearer):
            return self.check_token(credential.token, now)
        assert isinstance(credential, Basic)
        user = await self.check_password(credential.username, credential.password)
        if user is None:
            return Refusal("The user name or password is wrong.")
        return Principal(user.name, user.role, "basic")
