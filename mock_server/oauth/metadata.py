"""The discovery documents: authorization server (RFC 8414) and protected resource (RFC 9728).

Both are built from the origin a request reached the server at, so every URL
in them is one the client can use as it is. This module loads neither Authlib
nor joserfc: the authentication layer and the routes table use it at every
start, and the rest of the OAuth server loads with its first request.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from starlette.requests import Request

from mock_server.oauth.scopes import ALL_SCOPES

AUTHORIZATION_SERVER_PATH = "/.well-known/oauth-authorization-server"
PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource"
#: The endpoints: name in the metadata -> path.
ENDPOINTS: dict[str, str] = {
    "authorization_endpoint": "/oauth/authorize",
    "token_endpoint": "/oauth/token",
    "device_authorization_endpoint": "/oauth/device_authorization",
    "introspection_endpoint": "/oauth/introspect",
    "revocation_endpoint": "/oauth/revoke",
    "registration_endpoint": "/oauth/register",
    "jwks_uri": "/oauth/jwks",
}
DOCS_PATH = "/oauth"
DEVICE_VERIFICATION_PATH = "/oauth/device"

AUTHORIZATION_CODE = "authorization_code"
REFRESH_TOKEN = "refresh_token"
CLIENT_CREDENTIALS = "client_credentials"
DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code"
GRANT_TYPES: tuple[str, ...] = (AUTHORIZATION_CODE, CLIENT_CREDENTIALS, REFRESH_TOKEN, DEVICE_CODE)
AUTH_METHODS: tuple[str, ...] = ("client_secret_basic", "client_secret_post", "none")


#: The ids of the clients every server starts with (:mod:`mock_server.oauth.clients`).
SEEDED_CLIENT_IDS = ("restwalk-cli", "reports-service")


def check_client_ids(client_ids: Iterable[str], user_names: Iterable[str]) -> None:
    """A ValueError naming the first id given at start that is taken: by a seeded client,
    an earlier one, or a user (a token's ``sub`` must say whether it names a user)."""
    taken = {*SEEDED_CLIENT_IDS, *user_names}
    for client_id in client_ids:
        if client_id in taken:
            raise ValueError(f"the OAuth client id {client_id!r} is taken")
        taken.add(client_id)


def origin(request: Request) -> str:
    """The origin the request was sent to: the issuer and resource identifier."""
    return f"{request.url.scheme}://{request.url.netloc}"


def authorization_server(origin: str) -> dict[str, Any]:
    """RFC 8414 section 2's metadata of the authorization server at ``origin``."""
    document: dict[str, Any] = {"issuer": origin}
    document.update({name: origin + path for name, path in ENDPOINTS.items()})
    document.update(
        scopes_supported=list(ALL_SCOPES),
        response_types_supported=["code"],
        response_modes_supported=["query"],
        grant_types_supported=list(GRANT_TYPES),
        token_endpoint_auth_methods_supported=list(AUTH_METHODS),
        revocation_endpoint_auth_methods_supported=list(AUTH_METHODS),
        introspection_endpoint_auth_methods_supported=list(AUTH_METHODS),
        code_challenge_methods_supported=["S256"],
        authorization_response_iss_parameter_supported=True,
        service_documentation=origin + DOCS_PATH,
    )
    return document


def protected_resource(origin: str) -> dict[str, Any]:
    """RFC 9728 section 2's metadata of the resources at ``origin``."""
    return {
        "resource": origin,
        "authorization_servers": [origin],
        "jwks_uri": origin + ENDPOINTS["jwks_uri"],
        "scopes_supported": list(ALL_SCOPES),
        "bearer_methods_supported": ["header"],
        "resource_name": "restwalk-mock",
        "resource_documentation": origin + DOCS_PATH,
    }
