"""The tokens a login holds, read from a token endpoint's answer (RFC 6749 section 5.1).

:class:`Tokens` is plain, frozen data: an access token, maybe a refresh token and
an OpenID Connect ID token, when the access token expires and what it may do. Its
``repr`` never shows a token. When it should be renewed is decided here
(:meth:`Tokens.due`): a little before it expires, a quarter of its life or a minute,
whichever is shorter, so a token is never sent in its last seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from explorer.core.oauth.errors import OAuthFailed

__all__ = ["EARLY", "Tokens"]

#: At most this many seconds before it expires, a token is renewed.
EARLY = 60.0
#: The longest token kept (a server that sends a megabyte is not giving a token).
MAX_TOKEN = 64_000


def _text(document: Mapping[str, Any], name: str) -> str | None:
    value = document.get(name)
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > MAX_TOKEN:
        raise OAuthFailed(f"The token endpoint's answer has a {name} that is not a string.")
    return value


@dataclass(frozen=True)
class Tokens:
    """What a token endpoint gave: see the module docstring."""

    access_token: str
    token_type: str = "Bearer"
    #: Unix time the access token expires at (None: the server did not say).
    expires_at: float | None = None
    refresh_token: str | None = None
    id_token: str | None = None
    #: The scope granted, when the server said (RFC 6749 section 5.1: else as asked).
    scope: str | None = None
    #: Unix time the tokens were received.
    obtained_at: float = 0.0

    def __repr__(self) -> str:
        kept = [name for name in ("refresh_token", "id_token") if getattr(self, name)]
        return (
            f"Tokens(access_token='****', expires_at={self.expires_at!r}, "
            f"scope={self.scope!r}, with={kept})"
        )

    @classmethod
    def from_response(
        cls, document: Mapping[str, Any], now: float, previous: Tokens | None = None
    ) -> Tokens:
        """The tokens of a token endpoint's JSON answer, received at ``now``.

        A refresh that sends no new refresh token keeps the one it used (RFC 6749
        section 6). Only Bearer tokens are used (RFC 6750): another type (DPoP, MAC)
        needs a proof restwalk does not make.
        """
        access = _text(document, "access_token")
        if not access:
            raise OAuthFailed("The token endpoint answered without an access_token.")
        token_type = _text(document, "token_type") or "Bearer"
        if token_type.lower() != "bearer":
            raise OAuthFailed(
                f"The server gave a {token_type} token: restwalk sends Bearer tokens only "
                "(RFC 6750)."
            )
        lifetime = document.get("expires_in")
        if isinstance(lifetime, str) and lifetime.isdigit():
            lifetime = int(lifetime)  # some servers send a string
        expires_at = (
            now + float(lifetime)
            if isinstance(lifetime, int | float) and not isinstance(lifetime, bool) and lifetime > 0
            else None
        )
        refresh = _text(document, "refresh_token")
        if refresh is None and previous is not None:
            refresh = previous.refresh_token
        return cls(
            access_token=access,
            token_type="Bearer",
            expires_at=expires_at,
            refresh_token=refresh,
            id_token=_text(document, "id_token"),
            scope=_text(document, "scope"),
            obtained_at=now,
        )

    def lifetime(self) -> float | None:
        """Seconds from when it was received to when it expires (None: not said)."""
        if self.expires_at is None:
            return None
        return self.expires_at - self.obtained_at

    def due(self, now: float) -> bool:
        """True when the access token should be renewed before it is sent at ``now``."""
        if self.expires_at is None:
            return False
        lifetime = self.lifetime() or 0.0
        early = min(EARLY, max(lifetime, 0.0) / 4)
        return now >= self.expires_at - early

    def expired(self, now: float) -> bool:
        """True when the access token has expired at ``now``."""
        return self.expires_at is not None and now >= self.expires_at

    def to_json(self) -> dict[str, Any]:
        """The tokens as a JSON object (for the file they are kept in, when asked)."""
        return {
            "access_token": self.access_token,
            "token_type": self.token_type,
            "expires_at": self.expires_at,
            "refresh_token": self.refresh_token,
            "id_token": self.id_token,
            "scope": self.scope,
            "obtained_at": self.obtained_at,
        }

    @classmethod
    def from_json(cls, document: Mapping[str, Any]) -> Tokens:
        """Tokens written by :meth:`to_json`; :class:`OAuthFailed` for anything else."""
        access = _text(document, "access_token")
        expires_at = document.get("expires_at")
        obtained_at = document.get("obtained_at", 0.0)
        if (
            not access
            or not (expires_at is None or isinstance(expires_at, int | float))
            or not isinstance(obtained_at, int | float)
        ):
            raise OAuthFailed("Kept tokens that are not restwalk's.")
        return cls(
            access_token=access,
            token_type="Bearer",
            expires_at=None if expires_at is None else float(expires_at),
            refresh_token=_text(document, "refresh_token"),
            id_token=_text(document, "id_token"),
            scope=_text(document, "scope"),
            obtained_at=float(obtained_at),
        )
