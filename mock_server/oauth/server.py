"""The authorization server: Authlib's ``AuthorizationServer`` with our grants and records.

:class:`OAuthServer` registers the grants of :mod:`mock_server.oauth.grants`
and the endpoints of :mod:`mock_server.oauth.endpoints`, issues RFC 9068 access
tokens with Authlib's ``JWTBearerTokenGenerator`` (signed by
:mod:`mock_server.oauth.keys`), and records what it issued in
:mod:`mock_server.oauth.state` (``save_token``). Its answers are
:class:`~mock_server.oauth.adapter.Answer` values the routes send.

**The issuer** is the origin a request reached the server at
(``http://127.0.0.1:8000``): the server learns its own name from each request,
as it may be reached by several. Authlib's generator and endpoints ask for it
without a request in hand, so the route sets it for the request's duration
(:meth:`OAuthServer.serving`, a context variable).

Every redirect of the authorization endpoint, errors included, carries ``iss``
(RFC 9207), which lets a client that talks to several servers tell whose
answer it holds (RFC 9700 section 4.4).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from authlib.common.security import generate_token
from authlib.common.urls import add_params_to_uri
from authlib.oauth2.rfc6749 import AuthorizationServer, OAuth2Error
from authlib.oauth2.rfc9068 import JWTBearerTokenGenerator
from joserfc import jwt
from joserfc.jwk import KeySet

from mock_server.auth.challenge import REALM
from mock_server.auth.tokens import digest
from mock_server.auth.users import Users
from mock_server.oauth.adapter import Answer
from mock_server.oauth.clients import Client, ClientBook
from mock_server.oauth.endpoints import (
    DeviceAuthorizationEndpoint,
    IntrospectionEndpoint,
    RegistrationEndpoint,
    RevocationEndpoint,
)
from mock_server.oauth.grants import (
    CODE_REUSED,
    REFRESH_REUSED,
    AuthorizationCodeGrant,
    ClientCredentialsGrant,
    DeviceCodeGrant,
    RefreshTokenGrant,
    S256Challenge,
    replayed,
)
from mock_server.oauth.keys import ALGORITHM, SigningKeys
from mock_server.oauth.metadata import AUTHORIZATION_CODE, REFRESH_TOKEN
from mock_server.oauth.scopes import ALL_SCOPES
from mock_server.oauth.state import GrantRecord, MemoryState, OAuthState
from mock_server.oauth.tokens import AccessTokenChecker
from mock_server.settings import OAuthClientSpec

#: How long a refresh token lasts (each rotation starts it again).
REFRESH_LIFETIME = 7 * 24 * 3600
#: Expired records are forgotten once every this many tokens issued.
PURGE_EVERY = 256

_ORIGIN: ContextVar[str] = ContextVar("oauth_origin")

#: An ``error_description`` for each error Authlib raises without one (or with one
#: that shows Python's list syntax): every error here says what went wrong.
DESCRIPTIONS: dict[str, str] = {
    "invalid_request": "The request lacks a parameter, or one is malformed.",
    "invalid_client": "The client is unknown, its secret is wrong, or it authenticated "
    "in a way it is not registered for.",
    "invalid_grant": "The code, refresh token or device code is unknown, expired, used "
    "already, or another client's.",
    "unauthorized_client": "This client may not use this grant.",
    "unsupported_grant_type": "The grant types are authorization_code, client_credentials, "
    "refresh_token and urn:ietf:params:oauth:grant-type:device_code; the implicit and "
    "password grants are not offered (RFC 9700 section 2.4).",
    "unsupported_response_type": "The only response type is code: there is no implicit "
    "grant (RFC 9700 section 2.1.2).",
    "invalid_scope": "A scope asked for is unknown, or not one this client may have; the "
    "scopes are " + ", ".join(ALL_SCOPES) + ".",
    "access_denied": "The user denied the request.",
    "authorization_pending": "The user has not decided yet: poll again after the interval.",
    "slow_down": "Polling too fast: wait 5 seconds more between polls from now on.",
    "expired_token": "The device code has expired: start again.",
    "unsupported_token_type": "The token type hint is access_token or refresh_token.",
    "invalid_client_metadata": "The registration's metadata is not acceptable.",
}


def _refresh_token(**_: Any) -> str:
    token: str = generate_token(48)
    return token


class AccessTokenGenerator(JWTBearerTokenGenerator):  # type: ignore[misc]
    """Authlib's RFC 9068 generator, its issuer and audience the request's origin."""

    def __init__(self, server: OAuthServer, lifetime: int) -> None:
        self._server: OAuthServer = server
        super().__init__(
            issuer="",
            alg=ALGORITHM,
            refresh_token_generator=_refresh_token,
            expires_generator=lambda client, grant_type: lifetime,
        )

    @property
    def issuer(self) -> str:
        """The origin of the request being served."""
        origin: str = self._server.origin()
        return origin

    @issuer.setter
    def issuer(self, _: str) -> None:
        """Ignored: Authlib's constructor sets a fixed issuer; ours is per request."""

    def get_jwks(self) -> KeySet:
        """The private key set that signs."""
        return self._server.keys.private

    def get_audiences(self, client: Any, user: Any, scope: str) -> str:
        """The resource the token is for: this server (RFC 9728's resource identifier)."""
        return self._server.origin()

    def get_jti(self, client: Any, grant_type: str, user: Any, scope: str) -> str:
        """A random token id (revocation goes by it)."""
        return secrets.token_urlsafe(16)


class OAuthServer(AuthorizationServer):  # type: ignore[misc]
    """One server's authorization server: clients, keys, records, grants."""

    def __init__(
        self,
        *,
        secret: bytes,
        users: Users,
        clock: Callable[[], float],
        lifetime: int,
        clients: tuple[OAuthClientSpec, ...] = (),
        state: OAuthState | None = None,
    ) -> None:
        super().__init__(scopes_supported=list(ALL_SCOPES))
        self.users = users
        self.clock = clock
        self.lifetime = lifetime
        self.state: OAuthState = state or MemoryState()
        self.clients = ClientBook(clients, users.names(), self.state)
        self.keys = SigningKeys(secret)
        self.checker = AccessTokenChecker(self.keys, self.state, self.clients, users)
        self._issued = 0
        self.register_token_generator("default", AccessTokenGenerator(self, lifetime))
        self.register_grant(AuthorizationCodeGrant, [S256Challenge(required=True)])
        self.register_grant(RefreshTokenGrant)
        self.register_grant(ClientCredentialsGrant)
        self.register_grant(DeviceCodeGrant)
        self.register_endpoint(DeviceAuthorizationEndpoint)
        self.register_endpoint(IntrospectionEndpoint)
        self.register_endpoint(RevocationEndpoint)
        self.register_endpoint(RegistrationEndpoint)

    # The issuer ------------------------------------------------------------------------

    @contextmanager
    def serving(self, origin: str) -> Iterator[None]:
        """Serve one request that reached the server at ``origin``."""
        token = _ORIGIN.set(origin)
        try:
            yield
        finally:
            _ORIGIN.reset(token)

    def origin(self) -> str:
        """The origin of the request being served (the issuer)."""
        return _ORIGIN.get()

    # What Authlib asks of a framework --------------------------------------------------

    def query_client(self, client_id: str) -> Client | None:
        """The client with this id."""
        return self.clients.get(client_id)

    def create_oauth2_request(self, request: Any) -> Any:
        """The request as the routes read it already (:mod:`mock_server.oauth.adapter`)."""
        return request

    def create_json_request(self, request: Any) -> Any:
        """The JSON request as the routes read it already."""
        return request

    def send_signal(self, name: str, *args: Any, **kwargs: Any) -> None:
        """No signals here."""

    def handle_response(self, status: int, body: Any, headers: Any) -> Answer:
        """Authlib's answer as an :class:`Answer`; redirects get ``iss``, Basic a realm."""
        fields: list[tuple[str, str]] = []
        for name, value in headers:
            if name.lower() == "location":
                value = add_params_to_uri(value, [("iss", self.origin())])
            elif name.lower() == "www-authenticate" and value.startswith("Basic error="):
                # RFC 7617 section 2: the realm is required.
                value = f'Basic realm="{REALM}", ' + value.removeprefix("Basic ")
            fields.append((name, value))
        return Answer(status, body, fields)

    def authorization_answer(self, request: Any, owner: Any, grant: Any) -> Answer:
        """The authorization endpoint's redirect: a code when ``owner`` approved, else
        ``access_denied``."""
        answer: Answer = self.create_authorization_response(request, owner, grant)
        return answer

    def handle_error_response(self, request: Any, error: OAuth2Error) -> Answer:
        """Every error Authlib's classes answer, described (:data:`DESCRIPTIONS`)."""
        return self.error_answer(error)

    def error_answer(self, error: OAuth2Error) -> Answer:
        """The answer for ``error``: a redirect when its redirect URI was verified, else JSON."""
        if not error.description or "authenticate with methods" in error.description:
            error.description = DESCRIPTIONS.get(error.error, "")
        answer: Answer = self.handle_response(*error())
        return answer

    # Recording what was issued ---------------------------------------------------------

    def save_token(self, token: dict[str, Any], request: Any) -> None:
        """Record an issued token in its grant (a new one, or the one refreshed)."""
        now = self.clock()
        claims = jwt.decode(token["access_token"], self.keys.public).claims
        grant_type = request.payload.grant_type
        refresh = token.get("refresh_token")
        if grant_type == REFRESH_TOKEN:
            grant: GrantRecord = request.refresh_token
            old = digest(request.form["refresh_token"])
            new = digest(str(refresh))  # always one: RefreshTokenGrant.INCLUDE_NEW_REFRESH_TOKEN
            if not self.state.rotate(grant.grant_id, old, new, now + REFRESH_LIFETIME):
                raise replayed(self, grant.grant_id, REFRESH_REUSED)
            grant_id: str | None = grant.grant_id
        elif request.user is not None:
            grant_id = secrets.token_urlsafe(12)
            self.state.add_grant(
                GrantRecord(
                    grant_id=grant_id,
                    client_id=request.client.get_client_id(),
                    user=request.user.get_user_id(),
                    scope=claims["scope"],
                    refresh_digest=digest(refresh) if refresh else None,
                    expires=now + (REFRESH_LIFETIME if refresh else self.lifetime),
                )
            )
            code = request.authorization_code
            if grant_type == AUTHORIZATION_CODE and not self.state.use_code(code.digest, grant_id):
                # Another exchange of the code (on another instance, at the same time) won:
                # what it got is revoked too, as when a used code comes back.
                first = self.state.code(code.digest)
                if first is not None and first.grant_id is not None:
                    self.state.revoke_grant(first.grant_id)
                raise replayed(self, grant_id, CODE_REUSED)
        else:
            grant_id = None
        if grant_id is not None:
            self.state.add_access_token(grant_id, claims["jti"], claims["exp"])
        self._issued += 1
        if self._issued % PURGE_EVERY == 0:
            self.state.purge(now)
