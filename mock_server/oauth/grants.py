"""The grants, as Authlib's grant classes with our records behind them.

- authorization code (RFC 6749 section 4.1) with PKCE (RFC 7636), S256 only,
  required of public clients (RFC 9700 section 2.1.1); a code is single use,
  and a second use revokes what the first got;
- refresh token (section 6), rotated on every use; an old one presented again
  revokes the whole grant (RFC 9700 section 4.14.2);
- client credentials (section 4.4), for confidential clients;
- device code (RFC 8628), polled at the server's pace (``slow_down``).

No implicit grant and no password grant (RFC 9700 section 2.1.2 and 2.4): they
are not registered, so asking for them is ``unsupported_response_type`` or
``unsupported_grant_type``. Whatever a grant issues is recorded by the
server's ``save_token`` (:mod:`mock_server.oauth.server`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from authlib.oauth2.rfc6749 import InvalidGrantError, InvalidRequestError, grants
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc8628 import DeviceCodeGrant as AuthlibDeviceCodeGrant

from mock_server.auth.tokens import digest
from mock_server.auth.users import Role, Users
from mock_server.oauth.state import CodeRecord, DeviceRecord, GrantRecord, OAuthState

#: How long an authorization code may wait for its exchange (RFC 6749 section 4.1.2).
CODE_LIFETIME = 600
#: Every way a client may authenticate at the token endpoint.
ANY_CLIENT_AUTH = ["client_secret_basic", "client_secret_post", "none"]
SECRET_CLIENT_AUTH = ["client_secret_basic", "client_secret_post"]
CODE_REUSED = "The authorization code was used already; the tokens it got are revoked."
REFRESH_REUSED = "The refresh token was used already (each is good once); the grant is revoked."


@dataclass(frozen=True)
class ResourceOwner:
    """The user who granted access: ``sub`` of the tokens (Authlib's user interface)."""

    name: str
    role: Role

    def get_user_id(self) -> str:
        """The ``sub`` claim."""
        return self.name


class GrantServer(Protocol):
    """What a grant asks of its server (:class:`mock_server.oauth.server.OAuthServer`)."""

    @property
    def state(self) -> OAuthState:
        """Where codes, grants and device requests are recorded."""

    @property
    def users(self) -> Users:
        """The users a grant may act for."""

    def clock(self) -> float:
        """Now, in seconds since the epoch."""


def _server(grant: Any) -> GrantServer:
    server: GrantServer = grant.server
    return server


def replayed(server: GrantServer, grant_id: str | None, message: str) -> InvalidGrantError:
    """Revoke the grant a credential used twice belongs to; the error that says so."""
    if grant_id is not None:
        server.state.revoke_grant(grant_id)
    return InvalidGrantError(message)


def owner(server: GrantServer, name: str | None) -> ResourceOwner | None:
    """The user named ``name``, as the grants hand them to Authlib."""
    user = server.users.get(name) if name is not None else None
    return None if user is None else ResourceOwner(user.name, user.role)


class S256Challenge(CodeChallenge):  # type: ignore[misc]
    """PKCE with S256 only; a public client must use it (RFC 9700 section 2.1.1)."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant: Any, redirect_uri: str) -> None:
        """Refuse ``plain``, a challenge without its method, and a public client without one."""
        data = grant.request.payload.data
        challenge, method = data.get("code_challenge"), data.get("code_challenge_method")
        if method == "plain":
            raise InvalidRequestError(
                "code_challenge_method 'plain' is not accepted: use S256 (RFC 9700 section 2.1.1)."
            )
        if challenge and method is None:
            raise InvalidRequestError(
                "code_challenge_method is missing: send S256 ('plain' is not accepted)."
            )
        if grant.request.client.public and not challenge:
            raise InvalidRequestError(
                "A public client must send a code_challenge with code_challenge_method=S256 "
                "(PKCE, RFC 7636)."
            )
        super().validate_code_challenge(grant, redirect_uri)


class AuthorizationCodeGrant(grants.AuthorizationCodeGrant):  # type: ignore[misc]
    """The authorization code grant, its codes in the server's records."""

    TOKEN_ENDPOINT_AUTH_METHODS = ANY_CLIENT_AUTH

    def save_authorization_code(self, code: str, request: Any) -> None:
        """Remember the code with what it grants and the PKCE challenge."""
        server = _server(self)
        data = request.payload.data
        server.state.add_code(
            CodeRecord(
                digest=digest(code),
                client_id=request.client.get_client_id(),
                user=request.user.get_user_id(),
                scope=request.scope,
                redirect_uri=request.payload.redirect_uri,
                code_challenge=data.get("code_challenge"),
                code_challenge_method=data.get("code_challenge_method"),
                expires=server.clock() + CODE_LIFETIME,
            )
        )

    def query_authorization_code(self, code: str, client: Any) -> CodeRecord | None:
        """The code, if it is this client's; a used one revokes what it got."""
        server = _server(self)
        record = server.state.code(digest(code))
        if record is None or record.client_id != client.get_client_id():
            return None
        if record.used:
            raise replayed(server, record.grant_id, CODE_REUSED)
        if server.clock() >= record.expires:
            raise InvalidGrantError("The authorization code has expired (codes last 10 minutes).")
        return record

    def delete_authorization_code(self, authorization_code: CodeRecord) -> None:
        """Nothing: ``save_token`` marked the code used (kept so a second use is seen)."""

    def authenticate_user(self, authorization_code: CodeRecord) -> ResourceOwner | None:
        """The user who approved the code."""
        return owner(_server(self), authorization_code.user)


class RefreshTokenGrant(grants.RefreshTokenGrant):  # type: ignore[misc]
    """Refresh with rotation: each use gives a new refresh token and retires the old one."""

    TOKEN_ENDPOINT_AUTH_METHODS = ANY_CLIENT_AUTH
    INCLUDE_NEW_REFRESH_TOKEN = True

    def authenticate_refresh_token(self, refresh_token: str) -> GrantRecord | None:
        """The grant whose current refresh token this is; an old one revokes the grant."""
        server = _server(self)
        token_digest = digest(refresh_token)
        grant = server.state.grant_of_refresh(token_digest)
        if grant is None or grant.revoked:
            return None
        if grant.refresh_digest != token_digest:
            raise replayed(server, grant.grant_id, REFRESH_REUSED)
        if server.clock() >= grant.expires:
            raise InvalidGrantError("The refresh token has expired.")
        return grant

    def authenticate_user(self, refresh_token: GrantRecord) -> ResourceOwner | None:
        """The user who granted access."""
        return owner(_server(self), refresh_token.user)

    def revoke_old_credential(self, refresh_token: GrantRecord) -> None:
        """Nothing: ``save_token`` rotated the refresh token already."""


class ClientCredentialsGrant(grants.ClientCredentialsGrant):  # type: ignore[misc]
    """A confidential client's token for itself."""

    TOKEN_ENDPOINT_AUTH_METHODS = SECRET_CLIENT_AUTH


@dataclass(frozen=True)
class DeviceCredential:
    """A device authorization as Authlib's device grant asks about it."""

    record: DeviceRecord
    now: float

    def get_client_id(self) -> str:
        """The client that asked."""
        return self.record.client_id

    def get_scope(self) -> str:
        """The scope asked for."""
        return self.record.scope

    def get_user_code(self) -> str:
        """The code the user types."""
        return self.record.user_code

    def is_expired(self) -> bool:
        """True once the device code has expired."""
        return self.now >= self.record.expires


class DeviceCodeGrant(AuthlibDeviceCodeGrant):  # type: ignore[misc]
    """The device flow's polling (RFC 8628 section 3.4)."""

    TOKEN_ENDPOINT_AUTH_METHODS = ANY_CLIENT_AUTH

    def query_device_credential(self, device_code: str) -> DeviceCredential:
        """The device authorization; an unknown or used device code is ``invalid_grant``."""
        server = _server(self)
        record = server.state.device(digest(device_code))
        if record is None:
            raise InvalidGrantError("The device code is unknown, or its token was issued already.")
        return DeviceCredential(record, server.clock())

    def query_user_grant(self, user_code: str) -> tuple[ResourceOwner | None, bool] | None:
        """The user's decision on the user code, or None while it is pending."""
        server = _server(self)
        record = server.state.device_by_user_code(user_code)
        if record is None or record.approved is None:
            return None
        return owner(server, record.user), record.approved

    def should_slow_down(self, credential: DeviceCredential) -> bool:
        """True when the client polls faster than its interval (which then grows)."""
        server = _server(self)
        return server.state.poll_device(credential.record.digest, server.clock()) is not None

    def create_token_response(self) -> tuple[int, Any, Any]:
        """The token; the device code is then spent."""
        answer: tuple[int, Any, Any] = super().create_token_response()
        _server(self).state.remove_device(self.request.credential.record.digest)
        return answer
