"""OAuth 2.0 in ``.http`` files, as the JetBrains HTTP Client writes it.

An environment of ``http-client.env.json`` holds its logins under ``Security`` →
``Auth``, one object per login id; a request uses one as
``Authorization: Bearer {{$auth.token("id")}}`` (``{{$auth.idToken("id")}}`` for
its OpenID Connect ID token)::

    {"dev": {"Security": {"Auth": {"api": {
        "Type": "OAuth2",
        "Grant Type": "Authorization Code",
        "Auth URL": "https://id.example.com/authorize",
        "Token URL": "https://id.example.com/token",
        "Client ID": "my-app",
        "Scope": "read write",
        "PKCE": true
    }}}}}

The private file (``http-client.private.env.json``) may hold the same ids, with
the secrets (``"Client Secret"``): its keys win, one by one. Values may use
``{{variables}}`` of the environment. The keys read (:func:`settings_from_auth`):

=============================  ==================================================
``Type``                       ``OAuth2`` (the only one)
``Grant Type``                 ``Authorization Code``, ``Device Authorization``,
                               ``Client Credentials`` (``Implicit`` and
                               ``Password`` are refused: RFC 9700 forbids them)
``Auth URL``, ``Token URL``,   the endpoints
``Device Auth URL``
``Redirect URL``               where the browser comes back (a loopback URL is
                               listened on; default ``http://127.0.0.1:PORT/callback``)
``Client ID``,                 the client
``Client Secret``
``Client Credentials``         ``basic``, ``in body`` or ``none``
``Scope``                      the scopes, space-separated
``PKCE``                       ``true`` (always so here), or
                               ``{"Code Challenge Method": "Plain"|"SHA-256",
                               "Code Verifier": "..."}``
``Custom Request Parameters``  ``{"name": "value" | ["v1", "v2"] | {"Value": ...,
                               "Use": "Everywhere"|"In Auth Request"|"In Token
                               Request"}}``
``Use ID Token``               ``$auth.token`` gives the ID token
``Acquire Automatically``      ``false``: no login starts for a request
``Open Complete URI``          the device flow opens ``verification_uri_complete``
=============================  ==================================================

Keys the JetBrains client has for its own window (``Start Polling After Browser``)
are accepted and not acted on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from explorer.core.httpfile.errors import BadVariable
from explorer.core.oauth.errors import OAuthSettingsError
from explorer.core.oauth.settings import ClientAuthentication, OAuthSettings, check_grant

__all__ = [
    "AUTH_KINDS",
    "AuthReference",
    "auth_reference",
    "auth_value_key",
    "settings_from_auth",
]

#: ``$auth.token("id")`` and ``$auth.idToken('id')``.
_REFERENCE = re.compile(r"""^\$auth\.(token|idToken)\s*\(\s*(["'])(.*?)\2\s*\)$""")
#: What ``$auth.KIND`` gives.
AUTH_KINDS = ("token", "idToken")

AuthReference = tuple[str, str]

_USES = {"everywhere": "both", "in auth request": "auth", "in token request": "token"}
_CLIENT_AUTHENTICATIONS: dict[str, ClientAuthentication] = {
    "basic": "basic",
    "in body": "in body",
    "none": "none",
}


def auth_reference(reference: str) -> AuthReference | None:
    """``("token", "id")`` for ``$auth.token("id")`` (what is between the braces);
    None when ``reference`` is not an ``$auth`` variable."""
    match = _REFERENCE.match(reference.strip())
    return (match.group(1), match.group(3)) if match else None


def auth_value_key(reference: AuthReference) -> str:
    """The key of an ``$auth`` variable's value among a run's values: ``token:id``."""
    return f"{reference[0]}:{reference[1]}"


def _text(config: Mapping[str, Any], key: str, where: str, values: Callable[[str], str]) -> str:
    value = config.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise OAuthSettingsError(f'{where}: "{key}" must be a string.')
    return values(value)


def _flag(config: Mapping[str, Any], key: str, where: str, default: bool) -> bool:
    value = config.get(key, default)
    if not isinstance(value, bool):
        raise OAuthSettingsError(f'{where}: "{key}" must be true or false.')
    return value


def _parameters(
    config: Mapping[str, Any], where: str, values: Callable[[str], str]
) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The custom parameters: those of the authorization request, of token requests."""
    given = config.get("Custom Request Parameters", {})
    if not isinstance(given, dict):
        raise OAuthSettingsError(f'{where}: "Custom Request Parameters" must be an object.')
    auth: list[tuple[str, str]] = []
    token: list[tuple[str, str]] = []
    for name, entry in given.items():
        use = "both"
        value = entry
        if isinstance(entry, dict):
            value = entry.get("Value")
            use = _USES.get(str(entry.get("Use", "Everywhere")).lower(), "")
            if not use:
                raise OAuthSettingsError(
                    f'{where}: the "Use" of "{name}" is "Everywhere", "In Auth Request" or '
                    '"In Token Request".'
                )
        items = value if isinstance(value, list) else [value]
        if not all(isinstance(item, str) for item in items):
            raise OAuthSettingsError(f'{where}: the value of "{name}" must be text.')
        pairs = [(str(name), values(item)) for item in items]
        if use in ("both", "auth"):
            auth += pairs
        if use in ("both", "token"):
            token += pairs
    return auth, token


def _pkce(config: Mapping[str, Any], where: str, values: Callable[[str], str]) -> dict[str, str]:
    given = config.get("PKCE", True)
    if isinstance(given, bool):
        return {}  # always on: RFC 9700 asks it of every client (false is not obeyed)
    if not isinstance(given, dict):
        raise OAuthSettingsError(f'{where}: "PKCE" must be true, false or an object.')
    method = str(given.get("Code Challenge Method", "SHA-256"))
    if method.lower() not in ("plain", "sha-256", "s256"):
        raise OAuthSettingsError(
            f'{where}: "Code Challenge Method" is "Plain" or "SHA-256", not {method!r}.'
        )
    verifier = given.get("Code Verifier", "")
    if not isinstance(verifier, str):
        raise OAuthSettingsError(f'{where}: "Code Verifier" must be a string.')
    chosen = {"pkce_method": "plain" if method.lower() == "plain" else "S256"}
    return chosen | ({"code_verifier": values(verifier)} if verifier else {})


def settings_from_auth(
    auth_id: str,
    config: Mapping[str, Any],
    *,
    where: str,
    values: Callable[[str], str] = lambda text: text,
) -> OAuthSettings:
    """The login ``Security.Auth`` entry ``auth_id`` describes (see the module docstring).

    ``values`` substitutes the environment's ``{{variables}}`` in each text; ``where``
    names the entry in errors (:class:`OAuthSettingsError`).
    """
    kind = config.get("Type", "OAuth2")
    if not isinstance(kind, str) or kind.lower() != "oauth2":
        raise OAuthSettingsError(f'{where}: "Type" {kind!r} is not one restwalk knows (OAuth2).')
    try:
        grant_name = _text(config, "Grant Type", where, values)
        grant = check_grant(grant_name, f'{where}: "Grant Type"') if grant_name else None
        method = _text(config, "Client Credentials", where, values).lower()
        if method and method not in _CLIENT_AUTHENTICATIONS:
            raise OAuthSettingsError(
                f'{where}: "Client Credentials" is "basic", "in body" or "none", not {method!r}.'
            )
        auth_params, token_params = _parameters(config, where, values)
        return OAuthSettings(
            name=auth_id,
            grant=grant,
            client_id=_text(config, "Client ID", where, values),
            client_secret=_text(config, "Client Secret", where, values),
            scope=_text(config, "Scope", where, values),
            auth_url=_text(config, "Auth URL", where, values),
            token_url=_text(config, "Token URL", where, values),
            device_url=_text(config, "Device Auth URL", where, values),
            redirect_url=_text(config, "Redirect URL", where, values),
            client_authentication=_CLIENT_AUTHENTICATIONS.get(method) if method else None,
            auth_params=tuple(auth_params),
            token_params=tuple(token_params),
            use_id_token=_flag(config, "Use ID Token", where, False),
            acquire_automatically=_flag(config, "Acquire Automatically", where, True),
            open_complete_uri=_flag(config, "Open Complete URI", where, False),
            **_pkce(config, where, values),  # type: ignore[arg-type]
        )
    except BadVariable as error:
        raise OAuthSettingsError(f"{where}: {error.message}", hint=error.hint) from None
