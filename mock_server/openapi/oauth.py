"""The OAuth 2.0 authorization server in the OpenAPI document: its security scheme,
its operations and the schemas of its bodies (data only).

Its endpoints answer as their RFCs say: JSON errors ``{"error",
"error_description"}`` (RFC 6749 section 5.2) where the rest of the mock answers
problem details, HTML pages where a person logs in, redirects to the client.
A layer in front may still answer a problem (limits, rate limit), so both are
listed. OpenAPI 3.1 has no device flow: the scheme's description names it.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from mock_server.oauth.metadata import AUTH_METHODS, ENDPOINTS, GRANT_TYPES
from mock_server.oauth.scopes import SCOPES
from mock_server.openapi.model import Op, Reply
from mock_server.openapi.schemas import Schema

FORM = "application/x-www-form-urlencoded"
_STRING: Schema = {"type": "string"}
_STRINGS: Schema = {"type": "array", "items": _STRING}
_URL: Schema = {"type": "string", "pattern": "^https?://[^#]*$"}

SECURITY_SCHEME: dict[str, Any] = {
    "type": "oauth2",
    "description": "OAuth 2.0 (RFC 6749) with the server's own clients: restwalk-cli "
    "(public: authorization code with PKCE S256 on a loopback redirect, and the device "
    "flow at /oauth/device_authorization, RFC 8628) and reports-service / reports-secret "
    "(client credentials). Users log in on the consent page: alice/wonderland, "
    "bob/builder, admin/admin. A token can do what both its scopes and its user's role "
    "allow. Metadata: /.well-known/oauth-authorization-server (RFC 8414).",
    "flows": {
        "authorizationCode": {
            "authorizationUrl": ENDPOINTS["authorization_endpoint"],
            "tokenUrl": ENDPOINTS["token_endpoint"],
            "refreshUrl": ENDPOINTS["token_endpoint"],
            "scopes": dict(SCOPES),
        },
        "clientCredentials": {"tokenUrl": ENDPOINTS["token_endpoint"], "scopes": dict(SCOPES)},
    },
}


def _object(properties: dict[str, Schema], required: list[str]) -> Schema:
    return {"type": "object", "properties": properties, "required": required}


SCHEMAS: dict[str, Schema] = {
    "OAuthError": _object(
        {
            "error": _STRING,
            "error_description": _STRING,
            "error_uri": _STRING,
        },
        ["error"],
    ),
    "OAuthToken": _object(
        {
            "access_token": _STRING,
            "token_type": {"const": "Bearer"},
            "expires_in": {"type": "integer"},
            "refresh_token": _STRING,
            "scope": _STRING,
        },
        ["access_token", "token_type", "expires_in"],
    ),
    "DeviceAuthorization": _object(
        {
            "device_code": _STRING,
            "user_code": _STRING,
            "verification_uri": _STRING,
            "verification_uri_complete": _STRING,
            "expires_in": {"type": "integer"},
            "interval": {"type": "integer"},
        },
        ["device_code", "user_code", "verification_uri", "expires_in"],
    ),
    "Introspection": _object(
        {
            "active": {"type": "boolean"},
            "scope": _STRING,
            "client_id": _STRING,
            "username": _STRING,
            "token_type": _STRING,
            "exp": {"type": "integer"},
            "iat": {"type": "integer"},
            "sub": _STRING,
            "aud": _STRING,
            "iss": _STRING,
            "jti": _STRING,
        },
        ["active"],
    ),
    "ClientInformation": _object(
        {
            "client_id": _STRING,
            "client_secret": _STRING,
            "client_id_issued_at": {"type": "integer"},
            "client_secret_expires_at": {"type": "integer"},
            "redirect_uris": _STRINGS,
            "grant_types": _STRINGS,
            "token_endpoint_auth_method": _STRING,
            "client_name": _STRING,
            "scope": _STRING,
        },
        ["client_id"],
    ),
    "AuthorizationServerMetadata": _object(
        {
            "issuer": _STRING,
            **{name: _STRING for name in ENDPOINTS},
            "scopes_supported": _STRINGS,
            "response_types_supported": _STRINGS,
            "grant_types_supported": _STRINGS,
            "token_endpoint_auth_methods_supported": _STRINGS,
            "code_challenge_methods_supported": _STRINGS,
            "service_documentation": _STRING,
        },
        ["issuer", "authorization_endpoint", "token_endpoint", "response_types_supported"],
    ),
    "ProtectedResourceMetadata": _object(
        {
            "resource": _STRING,
            "authorization_servers": _STRINGS,
            "jwks_uri": _STRING,
            "scopes_supported": _STRINGS,
            "bearer_methods_supported": _STRINGS,
        },
        ["resource"],
    ),
    "JwkSet": _object({"keys": {"type": "array", "items": {"type": "object"}}}, ["keys"]),
}

_CLIENT_AUTH = {
    "client_id": _STRING,
    "client_secret": _STRING,
}
TOKEN_REQUEST: Schema = _object(
    {
        "grant_type": {"enum": list(GRANT_TYPES)},
        "code": _STRING,
        "redirect_uri": _STRING,
        "code_verifier": _STRING,
        "refresh_token": _STRING,
        "device_code": _STRING,
        "scope": _STRING,
        **_CLIENT_AUTH,
    },
    ["grant_type"],
)
TOKEN_QUERY_REQUEST: Schema = _object(
    {
        "token": _STRING,
        "token_type_hint": {"enum": ["access_token", "refresh_token"]},
        **_CLIENT_AUTH,
    },
    ["token"],
)
DEVICE_REQUEST: Schema = _object({"scope": _STRING, **_CLIENT_AUTH}, [])
CONSENT_FORM: Schema = _object(
    {
        "response_type": _STRING,
        "client_id": _STRING,
        "redirect_uri": _STRING,
        "scope": _STRING,
        "state": _STRING,
        "code_challenge": _STRING,
        "code_challenge_method": _STRING,
        "csrf_token": _STRING,
        "username": _STRING,
        "password": _STRING,
        "decision": {"enum": ["approve", "deny"]},
    },
    [],
)
DEVICE_FORM: Schema = _object(
    {
        "user_code": _STRING,
        "csrf_token": _STRING,
        "username": _STRING,
        "password": _STRING,
        "decision": {"enum": ["approve", "deny"]},
    },
    [],
)
REGISTRATION: Schema = {
    "type": "object",
    "properties": {
        "redirect_uris": {"type": "array", "items": _URL},
        "client_name": {"type": "string", "maxLength": 100},
        "grant_types": {
            "type": "array",
            "items": {"enum": ["authorization_code", "refresh_token", GRANT_TYPES[-1]]},
        },
        "token_endpoint_auth_method": {"enum": list(AUTH_METHODS)},
        "scope": _STRING,
    },
}

_AUTHORIZATION_QUERY: tuple[Schema, ...] = tuple(
    {"name": name, "in": "query", "description": text, "schema": _STRING}
    for name, text in (
        ("response_type", "code (the only one)."),
        ("client_id", "The client asking."),
        ("redirect_uri", "One registered (any port on loopback)."),
        ("scope", "Space-separated scopes."),
        ("state", "Returned unchanged in the redirect."),
        ("code_challenge", "PKCE (RFC 7636): BASE64URL(SHA-256(verifier))."),
        ("code_challenge_method", "S256 (the only one)."),
    )
)
_USER_CODE_QUERY: Schema = {
    "name": "user_code",
    "in": "query",
    "description": "The code the device shows (case and dashes do not matter).",
    "schema": _STRING,
}

ERROR = "oauth-error"
_REFUSED = Reply(HTTPStatus.BAD_REQUEST, "The request is refused (RFC 6749 section 5.2).", ERROR)
#: An error body, or a page saying it to a browser (its Accept wants HTML above JSON).
ERROR_OR_PAGE = "oauth-error-or-page"
_REFUSED_PAGE = Reply(
    HTTPStatus.BAD_REQUEST,
    "The request is refused where it stands (no client, or a redirect URI not registered): "
    "an error, or a page saying it when a browser asks for HTML (RFC 6749 section 4.1.2.1).",
    ERROR_OR_PAGE,
)
_CLIENT_REFUSED = Reply(
    HTTPStatus.UNAUTHORIZED,
    "The client's authentication failed (invalid_client).",
    ERROR,
    ("WWW-Authenticate",),
)
_REDIRECT = Reply(
    HTTPStatus.FOUND,
    "To the client's redirect URI, with an error, state and iss.",
    None,
    ("Location",),
    ("Location",),
)
_SEE_OTHER = Reply(
    HTTPStatus.SEE_OTHER,
    "To the client's redirect URI: a code, or an error; with state and iss.",
    None,
    ("Location",),
    ("Location",),
)


def _json_op(summary: str, schema: str, body: Schema, *, ok: int = HTTPStatus.OK) -> Op:
    return Op(
        summary,
        (Reply(ok, summary + ".", f"json:{schema}", ("Cache-Control",)), _REFUSED, _CLIENT_REFUSED),
        body=body,
        body_types=(FORM,),
    )


def _document(summary: str, schema: str) -> Op:
    return Op(summary, (Reply(HTTPStatus.OK, summary + ".", f"json:{schema}", ("Cache-Control",)),))


OPERATIONS: dict[tuple[str, str], Op] = {
    ("/.well-known/oauth-authorization-server", "GET"): _document(
        "The authorization server's metadata (RFC 8414)", "AuthorizationServerMetadata"
    ),
    ("/.well-known/oauth-protected-resource", "GET"): _document(
        "The protected resource's metadata (RFC 9728)", "ProtectedResourceMetadata"
    ),
    ("/oauth/jwks", "GET"): _document("The key that signs access tokens (JWK Set)", "JwkSet"),
    ("/oauth", "GET"): Op(
        "The OAuth clients, scopes and endpoints",
        (
            Reply(
                HTTPStatus.OK, "The clients, scopes and endpoints.", "Resource", ("Cache-Control",)
            ),
        ),
    ),
    ("/oauth/authorize", "GET"): Op(
        "Log in and consent (an HTML page), for a valid authorization request",
        (
            Reply(HTTPStatus.OK, "The login and consent page.", "html", ("Set-Cookie",)),
            _REDIRECT,
            _SEE_OTHER,
            _REFUSED_PAGE,
        ),
        parameters=_AUTHORIZATION_QUERY,
    ),
    ("/oauth/authorize", "POST"): Op(
        "The consent page's form: Approve or Deny",
        (
            _SEE_OTHER,
            Reply(HTTPStatus.OK, "The page again: a wrong password, or no decision.", "html"),
            _REFUSED_PAGE,
            Reply(HTTPStatus.FORBIDDEN, "Not the form this browser was shown (CSRF).", "html"),
        ),
        body=CONSENT_FORM,
        body_types=(FORM,),
    ),
    ("/oauth/token", "POST"): _json_op(
        "The token endpoint: every grant (RFC 6749 section 3.2)", "OAuthToken", TOKEN_REQUEST
    ),
    ("/oauth/device_authorization", "POST"): _json_op(
        "Start the device flow (RFC 8628)", "DeviceAuthorization", DEVICE_REQUEST
    ),
    ("/oauth/introspect", "POST"): _json_op(
        "Is a token active, and what does it grant? (RFC 7662)",
        "Introspection",
        TOKEN_QUERY_REQUEST,
    ),
    ("/oauth/revoke", "POST"): _json_op(
        "Revoke a token (RFC 7009)", "OAuthEmpty", TOKEN_QUERY_REQUEST
    ),
    ("/oauth/register", "POST"): Op(
        "Register a client (RFC 7591)",
        (
            Reply(HTTPStatus.CREATED, "The client's id (and secret).", "json:ClientInformation"),
            _REFUSED,
        ),
        body=REGISTRATION,
    ),
    ("/oauth/device", "GET"): Op(
        "Type a device's user code, then log in and decide (an HTML page)",
        (
            Reply(HTTPStatus.OK, "The page.", "html", ("Set-Cookie",)),
            Reply(HTTPStatus.NOT_FOUND, "The code is unknown, expired or used.", "html"),
        ),
        parameters=(_USER_CODE_QUERY,),
    ),
    ("/oauth/device", "POST"): Op(
        "The device page's form: Approve or Deny",
        (
            Reply(HTTPStatus.OK, "Done, or the page again (wrong password).", "html"),
            Reply(HTTPStatus.BAD_REQUEST, "The form is refused.", ERROR),
            Reply(HTTPStatus.FORBIDDEN, "Not the form this browser was shown (CSRF).", "html"),
            Reply(HTTPStatus.NOT_FOUND, "The code is unknown, expired or used.", "html"),
        ),
        body=DEVICE_FORM,
        body_types=(FORM,),
    ),
}
SCHEMAS["OAuthEmpty"] = {"type": "object", "maxProperties": 0}
