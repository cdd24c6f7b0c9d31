"""Reading the tokens this server issued: access tokens (JWTs) and refresh tokens.

An access token is a JWT in the RFC 9068 profile (``typ: at+jwt``; ``iss``,
``sub``, ``aud``, ``exp``, ``iat``, ``jti``, ``client_id``, ``scope``), signed
with the key of :mod:`mock_server.oauth.keys`. :class:`AccessTokenChecker`
is what the resources use (through :attr:`mock_server.auth.Authenticator.access_tokens`):
the signature with our own key, the type, the expiry against the service
clock, the revocation list, then who the token speaks for:

- ``sub`` a user: that user, with the role they have *now* (a role lowered
  since limits the token at once);
- ``sub`` the ``client_id`` (client credentials): the client, with its role.

``iss`` and ``aud`` name the origin the token was asked at. They are not
compared with the origin of the request that carries the token: only this
server holds the key, and it is both issuer and resource, whichever name
(``localhost`` or ``127.0.0.1``) a client reaches it by.

:class:`TokenView` is either kind of token as introspection (RFC 7662) and
revocation (RFC 7009) see it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from joserfc import jwt
from joserfc.errors import JoseError

from mock_server.auth import Principal, Refusal
from mock_server.auth.tokens import digest
from mock_server.auth.users import Users
from mock_server.oauth.clients import ClientBook
from mock_server.oauth.keys import ALGORITHM, SigningKeys
from mock_server.oauth.scopes import scope_list
from mock_server.oauth.state import OAuthState

ACCESS_TOKEN_TYPE = "at+jwt"
#: Every claim RFC 9068 section 2.2 requires (``scope`` too, as this server always grants one).
REQUIRED_CLAIMS = ("iss", "exp", "aud", "sub", "client_id", "iat", "jti", "scope")


def _claims(token: str, keys: SigningKeys) -> dict[str, Any] | None:
    """The claims of ``token`` when it is an access token signed with our key, else None."""
    try:
        decoded = jwt.decode(token, keys.public, algorithms=[ALGORITHM])
    except (JoseError, ValueError):
        return None
    if decoded.header.get("typ") != ACCESS_TOKEN_TYPE:
        return None
    claims = decoded.claims
    if any(name not in claims for name in REQUIRED_CLAIMS):
        return None
    exp, iat = claims["exp"], claims["iat"]
    numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in (exp, iat))
    texts = all(isinstance(claims[n], str) for n in ("sub", "client_id", "jti", "scope"))
    return claims if numbers and texts else None


@dataclass(frozen=True)
class TokenView:
    """A token this server issued, as introspection and revocation see it."""

    kind: Literal["access_token", "refresh_token"]
    client_id: str
    subject: str | None
    scope: str
    expires: float
    active: bool
    #: The access token's claims (empty for a refresh token).
    claims: dict[str, Any]
    #: The grant a refresh token belongs to (None for an access token).
    grant_id: str | None = None

    def check_client(self, client: Any) -> bool:
        """True when ``client`` is the one the token was issued to (Authlib's interface)."""
        return bool(client.get_client_id() == self.client_id)

    def is_expired(self) -> bool:
        """Folded into :attr:`active` (Authlib's interface)."""
        return False

    def is_revoked(self) -> bool:
        """True when the token is no longer active (Authlib's interface)."""
        return not self.active

    def get_scope(self) -> str:
        """The scope granted (Authlib's interface)."""
        return self.scope


class AccessTokenChecker:
    """Finds who a token speaks for, or why it is refused, for resources and endpoints."""

    def __init__(
        self, keys: SigningKeys, state: OAuthState, clients: ClientBook, users: Users
    ) -> None:
        self.keys = keys
        self.state = state
        self.clients = clients
        self.users = users

    def check(self, token: str, now: float) -> Principal | Refusal:
        """Who ``token`` speaks for, or why it is refused (``invalid_token``)."""
        claims = _claims(token, self.keys)
        if claims is None:
            return Refusal("The bearer token is not one this server issued.", invalid_token=True)
        if now >= claims["exp"]:
            return Refusal(
                "The access token has expired; refresh it, or get a new one at /oauth/token.",
                invalid_token=True,
            )
        if self.state.access_token_revoked(claims["jti"]):
            return Refusal("The access token has been revoked.", invalid_token=True)
        return self._principal(claims)

    def _principal(self, claims: dict[str, Any]) -> Principal | Refusal:
        client = self.clients.get(claims["client_id"])
        if client is None:
            return Refusal("The access token's client is not registered.", invalid_token=True)
        scopes = frozenset(scope_list(claims["scope"]))
        user = self.users.get(claims["sub"])
        if user is not None:
            return Principal(user.name, user.role, "oauth", scopes, client.client_id)
        if claims["sub"] == client.client_id:
            return Principal(client.client_id, client.role, "oauth", scopes, client.client_id)
        return Refusal("The access token names no known user.", invalid_token=True)

    def view(self, token: str, hint: str | None, now: float) -> TokenView | None:
        """``token`` as introspection and revocation see it; None when it is not ours."""
        if hint != "refresh_token":
            found = self._access_view(token, now)
            if found is not None or hint == "access_token":
                return found
        return self._refresh_view(token, now)

    def _access_view(self, token: str, now: float) -> TokenView | None:
        claims = _claims(token, self.keys)
        if claims is None:
            return None
        active = isinstance(self.check(token, now), Principal)
        return TokenView(
            "access_token",
            claims["client_id"],
            claims["sub"],
            claims["scope"],
            claims["exp"],
            active,
            claims,
        )

    def _refresh_view(self, token: str, now: float) -> TokenView | None:
        token_digest = digest(token)
        grant = self.state.grant_of_refresh(token_digest)
        if grant is None:
            return None
        active = not grant.revoked and grant.refresh_digest == token_digest and now < grant.expires
        return TokenView(
            "refresh_token",
            grant.client_id,
            grant.user,
            grant.scope,
            grant.expires,
            active,
            {},
            grant.grant_id,
        )
