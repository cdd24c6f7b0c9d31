"""What a person says about one OAuth 2.0 login, wherever they said it.

An :class:`OAuthSettings` comes from a ``[oauth.NAME]`` table of config.toml
(:func:`settings_from_config`), from a ``.http`` environment's ``Security.Auth``
entry (:mod:`explorer.core.httpfile.auth_configs`), or from nothing but a URL
(:func:`settings_for_url`: the mock needs nothing more). Every field may be empty:
what is not given is discovered (:mod:`.discovery`) or chosen (:func:`choose_grant`).

Three grants, the ones the OAuth 2.0 Security BCP (RFC 9700) leaves:

========================  ===================================================
``authorization_code``    a browser logs the person in; PKCE (RFC 7636) always
``device_code``           the person types a code on another device (RFC 8628)
``client_credentials``    the application itself, with its secret; no person
========================  ===================================================

The implicit and password grants are refused by name: RFC 9700 section 2.1.2 and
2.4 say they must not be used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, cast

from explorer.core.http.secret_rules import origin_of
from explorer.core.oauth.errors import OAuthSettingsError

if TYPE_CHECKING:
    from explorer.core.config import OAuthConfig

__all__ = [
    "CLIENT_AUTHENTICATIONS",
    "DEVICE_GRANT",
    "GRANTS",
    "ClientAuthentication",
    "Grant",
    "OAuthSettings",
    "choose_grant",
    "settings_for_origin",
    "settings_for_url",
    "settings_from_config",
]

Grant = Literal["authorization_code", "device_code", "client_credentials"]
GRANTS: tuple[Grant, ...] = ("authorization_code", "device_code", "client_credentials")

#: The device grant's ``grant_type`` (RFC 8628 section 3.4).
DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"

#: How the client proves who it is at the token endpoint, in the JetBrains client's words:
#: ``basic`` (RFC 6749 ``client_secret_basic``), ``in body`` (``client_secret_post``),
#: ``none`` (a public client: its id only).
ClientAuthentication = Literal["basic", "in body", "none"]
CLIENT_AUTHENTICATIONS: dict[ClientAuthentication, str] = {
    "basic": "client_secret_basic",
    "in body": "client_secret_post",
    "none": "none",
}

#: Grants no login runs, and why.
REFUSED_GRANTS = {
    "implicit": "the implicit grant puts the token in a URL; RFC 9700 section 2.1.2 "
    "says not to use it: use the authorization code grant (with PKCE)",
    "password": "the password grant gives the application the person's password; "
    "RFC 9700 section 2.4 says it must not be used: use the authorization code or "
    "device grant",
}


@dataclass(frozen=True)
class OAuthSettings:
    """One login: its name, where its API is, and what the person gave for it.

    ``server`` is the API's URL (or the authorization server's): discovery starts
    there, and the token goes to its origin only. An empty ``client_id`` registers
    restwalk with the server (RFC 7591) when it allows that.
    """

    name: str
    server: str = ""
    grant: Grant | None = None
    client_id: str = ""
    client_secret: str = ""
    scope: str = ""
    #: The endpoints, when the server publishes no metadata (or to use others).
    auth_url: str = ""
    token_url: str = ""
    device_url: str = ""
    #: Where the browser comes back: empty is ``http://127.0.0.1:PORT/callback`` on a
    #: free port (RFC 8252 section 7.3); a loopback URL is listened on as it is; any
    #: other is not, and the redirected URL is pasted back.
    redirect_url: str = ""
    client_authentication: ClientAuthentication | None = None
    #: PKCE's method (``S256``, or ``plain`` when a server knows no other) and a
    #: verifier of the person's (empty: a new random one each time).
    pkce_method: Literal["S256", "plain"] = "S256"
    code_verifier: str = ""
    #: Parameters added to the authorization (and device) request, and to token requests.
    auth_params: tuple[tuple[str, str], ...] = ()
    token_params: tuple[tuple[str, str], ...] = ()
    #: ``$auth.token`` gives the ID token instead of the access token (JetBrains' "Use ID Token").
    use_id_token: bool = False
    #: Keep the tokens between runs (a 0600 file under the data directory).
    keep: bool = False
    #: False: a token is only ever had by ``auth login`` (JetBrains' "Acquire Automatically").
    acquire_automatically: bool = True
    #: Open the device flow's ``verification_uri_complete`` in the browser (JetBrains'
    #: "Open Complete URI").
    open_complete_uri: bool = False

    def __repr__(self) -> str:
        secret = "'****'" if self.client_secret else "''"
        return (
            f"OAuthSettings(name={self.name!r}, server={self.server!r}, grant={self.grant!r}, "
            f"client_id={self.client_id!r}, client_secret={secret}, scope={self.scope!r})"
        )


def check_grant(name: str, where: str) -> Grant:
    """``name`` as a grant restwalk runs; :class:`OAuthSettingsError` naming ``where``."""
    lowered = name.strip().lower().replace(" ", "_").replace("-", "_")
    aliases: dict[str, Grant] = {
        "authorization_code": "authorization_code",
        "code": "authorization_code",
        "device_code": "device_code",
        "device": "device_code",
        "device_authorization": "device_code",
        DEVICE_GRANT: "device_code",
        "client_credentials": "client_credentials",
    }
    if lowered in aliases:
        return aliases[lowered]
    if lowered in REFUSED_GRANTS:
        raise OAuthSettingsError(f"{where}: restwalk does not run it: {REFUSED_GRANTS[lowered]}.")
    raise OAuthSettingsError(
        f"{where}: {name!r} is not a grant restwalk runs.",
        hint="Use authorization_code, device_code or client_credentials.",
    )


def settings_from_config(name: str, table: OAuthConfig) -> OAuthSettings:
    """The login ``[oauth.NAME]`` of config.toml describes."""
    grant = check_grant(table.grant, f"[oauth.{name}] grant") if table.grant else None
    return OAuthSettings(
        name=name,
        server=table.server,
        grant=grant,
        client_id=table.client_id or "",
        client_secret=table.client_secret or "",
        scope=table.scope or "",
        auth_url=table.auth_url or "",
        token_url=table.token_url or "",
        device_url=table.device_url or "",
        redirect_url=table.redirect_url or "",
        client_authentication=cast("ClientAuthentication | None", table.client_authentication),
        keep=table.keep,
    )


def settings_for_url(url: str) -> OAuthSettings:
    """A login named by its server's URL, everything else discovered."""
    return OAuthSettings(name=url, server=url)


def settings_for_origin(url: str, configured: Mapping[str, OAuthConfig]) -> OAuthSettings:
    """The login for ``url``'s server: the first ``[oauth.NAME]`` of config.toml whose
    ``server`` is on its origin, else one named by the origin, all of it discovered."""
    origin = origin_of(url)
    for name, table in configured.items():
        if origin_of(table.server) == origin:
            return settings_from_config(name, table)
    return settings_for_url(origin or url)


def choose_grant(
    settings: OAuthSettings,
    *,
    can_authorize: bool,
    can_device: bool,
    browser_opens: bool,
) -> Grant:
    """The grant a login runs when its settings name none.

    A client with a secret is an application acting for itself (client credentials):
    a native app like restwalk cannot keep a secret (RFC 8252 section 8.5), so a
    person logs in with a public client. Otherwise a browser: the authorization code
    grant when one can be opened here, the device grant when the server has one and
    no browser opens (over SSH), else the authorization code with its URL pasted back.
    """
    if settings.grant is not None:
        return settings.grant
    if settings.client_secret:
        return "client_credentials"
    if can_authorize and (browser_opens or not can_device):
        return "authorization_code"
    if can_device:
        return "device_code"
    raise OAuthSettingsError(
        f"The login {settings.name!r} has no way to log in: the server names no "
        "authorization endpoint and no device authorization endpoint.",
        hint="Give auth_url (and token_url), or device_url, in the login's settings.",
    )
