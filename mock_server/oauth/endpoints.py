"""The endpoints beside authorization and token, as Authlib's endpoint classes.

- device authorization (RFC 8628 section 3.1): a device code for the client,
  a user code for the person, and where to type it (``/oauth/device``);
- introspection (RFC 7662): a confidential client (a resource server) may ask
  about any token, a public one about its own;
- revocation (RFC 7009): an access token by its ``jti``, a refresh token with
  its whole grant (and the access tokens issued in it);
- dynamic client registration (RFC 7591), open: no initial access token. A
  client registered so may use the authorization code, refresh and device
  grants, never client credentials (a token of its own would reach what
  needs a role, for anyone who registers).
"""

from __future__ import annotations

import re
import secrets
from typing import Any, Protocol

from authlib.oauth2.rfc6749 import InvalidScopeError, UnauthorizedClientError
from authlib.oauth2.rfc7009 import RevocationEndpoint as AuthlibRevocationEndpoint
from authlib.oauth2.rfc7591 import ClientRegistrationEndpoint, InvalidClientMetadataError
from authlib.oauth2.rfc7662 import IntrospectionEndpoint as AuthlibIntrospectionEndpoint
from authlib.oauth2.rfc8628 import DeviceAuthorizationEndpoint as AuthlibDeviceEndpoint

from mock_server.auth.tokens import digest
from mock_server.oauth.clients import Client, ClientBook, registered
from mock_server.oauth.grants import ANY_CLIENT_AUTH
from mock_server.oauth.metadata import (
    AUTHORIZATION_CODE,
    CLIENT_CREDENTIALS,
    DEVICE_CODE,
    REFRESH_TOKEN,
)
from mock_server.oauth.scopes import ALL_SCOPES, scope_list
from mock_server.oauth.state import DeviceRecord, OAuthState
from mock_server.oauth.tokens import AccessTokenChecker, TokenView

DEVICE_PATH = "/oauth/device"
#: How long a device code waits for the user (RFC 8628 section 3.2's expires_in).
DEVICE_LIFETIME = 600
#: The letters of Authlib's user codes (RFC 8628 section 6.1: no vowels, no look-alikes).
_USER_CODE = re.compile(r"^[BCDFGHJKLMNPQRSTVWXZ]{8}$")
#: The longest client name a registration may give (it is shown on the consent page).
MAX_CLIENT_NAME = 100
#: The JSON type of each registration member (RFC 7591 section 2), checked before
#: Authlib's own checks, which assume them.
_TEXT_MEMBERS = frozenset(
    {
        "token_endpoint_auth_method",
        "client_name",
        "client_uri",
        "logo_uri",
        "scope",
        "tos_uri",
        "policy_uri",
        "jwks_uri",
        "software_id",
        "software_version",
        "software_statement",
    }
)
_LIST_MEMBERS = frozenset({"redirect_uris", "grant_types", "response_types", "contacts"})


def check_shape(document: Any) -> None:
    """``invalid_client_metadata`` unless ``document`` is an object whose known members
    have their types (text; lists of text)."""
    if not isinstance(document, dict):
        raise InvalidClientMetadataError("The registration is a JSON object (RFC 7591).")
    for name, value in document.items():
        if name in _TEXT_MEMBERS and not isinstance(value, str):
            raise InvalidClientMetadataError(f"{name} must be a string.")
        if name in _LIST_MEMBERS and not (
            isinstance(value, list) and all(isinstance(item, str) for item in value)
        ):
            raise InvalidClientMetadataError(f"{name} must be an array of strings.")
        if name == "jwks" and not isinstance(value, dict):
            raise InvalidClientMetadataError("jwks must be an object.")


def user_code_of(text: str) -> str | None:
    """A typed user code in its issued form (``BCDF-GHJK``): case and dashes do not matter."""
    letters = "".join(c for c in text.upper() if c.isalnum())
    return f"{letters[:4]}-{letters[4:]}" if _USER_CODE.match(letters) else None


class EndpointServer(Protocol):
    """What an endpoint asks of its server (:class:`mock_server.oauth.server.OAuthServer`)."""

    @property
    def state(self) -> OAuthState:
        """Where device requests and grants are recorded."""

    @property
    def clients(self) -> ClientBook:
        """The clients given at start and those registered since."""

    @property
    def checker(self) -> AccessTokenChecker:
        """What a token is (introspection, revocation)."""

    def clock(self) -> float:
        """Now, in seconds since the epoch."""

    def origin(self) -> str:
        """The origin the request being served reached the server at (the issuer)."""

    def query_client(self, client_id: str) -> Client | None:
        """The client ``client_id``, if there is one."""


def _server(endpoint: Any) -> EndpointServer:
    server: EndpointServer = endpoint.server
    return server


class DeviceAuthorizationEndpoint(AuthlibDeviceEndpoint):  # type: ignore[misc]
    """``POST /oauth/device_authorization``: starts the device flow."""

    EXPIRES_IN = DEVICE_LIFETIME

    def authenticate_client(self, request: Any) -> Any:
        """The client, which must be allowed the device grant."""
        client = super().authenticate_client(request)
        if not client.check_grant_type(DEVICE_CODE):
            raise UnauthorizedClientError("This client may not use the device flow.")
        return client

    def get_verification_uri(self) -> str:
        """Where the person types the user code."""
        return _server(self).origin() + DEVICE_PATH

    def save_device_credential(self, client_id: str, scope: str | None, data: Any) -> None:
        """Remember the request, with the scope the client may have."""
        server = _server(self)
        client = server.query_client(client_id)
        allowed = client.get_allowed_scope(scope) if client is not None else None
        if allowed is None:
            raise InvalidScopeError()
        server.state.add_device(
            DeviceRecord(
                digest=digest(data["device_code"]),
                user_code=data["user_code"],
                client_id=client_id,
                scope=allowed,
                expires=server.clock() + self.EXPIRES_IN,
                interval=self.INTERVAL,
            )
        )


class IntrospectionEndpoint(AuthlibIntrospectionEndpoint):  # type: ignore[misc]
    """``POST /oauth/introspect``: is this token active, and what does it grant?"""

    CLIENT_AUTH_METHODS = ANY_CLIENT_AUTH

    def query_token(self, token_string: str, token_type_hint: str | None) -> TokenView | None:
        """The token, either kind, if this server issued it."""
        server = _server(self)
        return server.checker.view(token_string, token_type_hint, server.clock())

    def check_permission(self, token: TokenView, client: Client, request: Any) -> bool:
        """A confidential client may ask about any token; a public one about its own."""
        return not client.public or token.client_id == client.client_id

    def introspect_token(self, token: TokenView) -> dict[str, Any]:
        """RFC 7662 section 2.2's members."""
        answer: dict[str, Any] = {
            "active": True,
            "scope": token.scope,
            "client_id": token.client_id,
            "exp": int(token.expires),
        }
        if token.kind == "access_token":
            claims = token.claims
            answer.update(
                token_type="Bearer",
                sub=claims["sub"],
                aud=claims["aud"],
                iss=claims["iss"],
                iat=claims["iat"],
                jti=claims["jti"],
            )
        elif token.subject is not None:
            answer["sub"] = token.subject
        if token.subject is not None and token.subject != token.client_id:
            answer["username"] = token.subject
        return answer


class RevocationEndpoint(AuthlibRevocationEndpoint):  # type: ignore[misc]
    """``POST /oauth/revoke``: the token sent stops working."""

    CLIENT_AUTH_METHODS = ANY_CLIENT_AUTH

    def query_token(self, token_string: str, token_type_hint: str | None) -> TokenView | None:
        """The token, either kind, if this server issued it."""
        server = _server(self)
        return server.checker.view(token_string, token_type_hint, server.clock())

    def revoke_token(self, token: TokenView, request: Any) -> None:
        """An access token alone; a refresh token with its whole grant."""
        state = _server(self).state
        if token.grant_id is not None:
            state.revoke_grant(token.grant_id)
        else:
            state.revoke_access_token(token.claims["jti"], token.expires)


class RegistrationEndpoint(ClientRegistrationEndpoint):  # type: ignore[misc]
    """``POST /oauth/register``: dynamic client registration (RFC 7591), open to anyone."""

    def authenticate_token(self, request: Any) -> bool:
        """Open registration: no initial access token is asked for."""
        return True

    def get_server_metadata(self) -> dict[str, Any]:
        """What the registered metadata is checked against."""
        server = _server(self)
        return {
            "scopes_supported": list(ALL_SCOPES),
            "grant_types_supported": [AUTHORIZATION_CODE, REFRESH_TOKEN, DEVICE_CODE],
            "response_types_supported": ["code"],
            "token_endpoint_auth_methods_supported": ANY_CLIENT_AUTH,
            "issuer": server.origin(),
        }

    def create_registration_response(self, request: Any) -> tuple[int, Any, Any]:
        """Authlib's answer, without the members that have no value (a public client's secret)."""
        check_shape(request.payload.data)
        status, body, headers = super().create_registration_response(request)
        return status, {k: v for k, v in body.items() if v is not None}, headers

    def generate_client_id(self, request: Any) -> str:
        """A random client id."""
        return "client-" + secrets.token_urlsafe(12)

    def generate_client_secret(self, request: Any) -> str | None:
        """A random secret; none for a public client (``token_endpoint_auth_method: none``)."""
        if request.payload.data.get("token_endpoint_auth_method") == "none":
            return None
        return secrets.token_urlsafe(24)

    def save_client(
        self, client_info: dict[str, Any], client_metadata: dict[str, Any], request: Any
    ) -> Client:
        """Check what the registration asks for, then add the client."""
        server = _server(self)
        method = client_metadata.get("token_endpoint_auth_method", "client_secret_basic")
        grant_types = frozenset(client_metadata.get("grant_types") or [AUTHORIZATION_CODE])
        if CLIENT_CREDENTIALS in grant_types:
            raise InvalidClientMetadataError(
                "client_credentials is only for clients given at start (--oauth-client)."
            )
        redirect_uris = tuple(client_metadata.get("redirect_uris") or ())
        if AUTHORIZATION_CODE in grant_types and not redirect_uris:
            raise InvalidClientMetadataError("The authorization code grant needs redirect_uris.")
        if any(not uri.startswith(("https://", "http://")) or "#" in uri for uri in redirect_uris):
            raise InvalidClientMetadataError(
                "Each redirect URI must be an http(s) URL without a fragment."
            )
        name = str(client_metadata.get("client_name") or client_info["client_id"])
        if len(name) > MAX_CLIENT_NAME or not name.isprintable():
            raise InvalidClientMetadataError(
                f"client_name must be printable, at most {MAX_CLIENT_NAME} characters."
            )
        scopes = scope_list(client_metadata.get("scope")) or list(ALL_SCOPES)
        if any(scope not in ALL_SCOPES for scope in scopes):
            raise InvalidClientMetadataError(f"The scopes are: {' '.join(ALL_SCOPES)}.")
        if method not in ANY_CLIENT_AUTH:
            raise InvalidClientMetadataError(
                f"token_endpoint_auth_method is one of: {', '.join(ANY_CLIENT_AUTH)}."
            )
        client = registered(
            client_info["client_id"],
            name,
            client_info["client_secret"],
            redirect_uris,
            grant_types,
            tuple(scopes),
        )
        server.clients.register(client)
        return client
