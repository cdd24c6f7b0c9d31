"""Everything that can go wrong when logging in by OAuth 2.0, as our own types.

They join :mod:`explorer.core.http.errors`' tree: a login that cannot start is bad
input (nothing was sent: the command line exits 2), one that failed on the way is a
:class:`~explorer.core.http.errors.LoginFailed` (exit 1)::

    InvalidRequest
    └── OAuthSettingsError      the login cannot start: no client id, no endpoint...
        └── TokenNotForOrigin   the token would go to another origin than its API's
    LoginFailed
    └── OAuthFailed             an OAuth 2.0 login failed on the way
        ├── DiscoveryFailed     the server's metadata is missing, unreadable or not its own
        ├── OAuthRefused        the server answered an RFC 6749 error (``error``...)
        │   └── AccessDenied    the person, or the server, said no (``access_denied``)
        ├── LoginExpired        the device code, or the wait for the browser, ran out
        ├── LoginCancelled      the person cancelled
        └── NotLoggedIn         no token, and none can be had without the person

Server text in these messages (an ``error_description``) is data: it is cut short
here, and every output path passes it through the one control-character filter.
"""

from __future__ import annotations

from explorer.core.http.errors import InvalidRequest, LoginFailed

__all__ = [
    "AccessDenied",
    "DiscoveryFailed",
    "LoginCancelled",
    "LoginExpired",
    "NotLoggedIn",
    "OAuthFailed",
    "OAuthRefused",
    "OAuthSettingsError",
    "TokenNotForOrigin",
]

#: The most characters of a server's ``error_description`` quoted in a message.
MAX_DESCRIPTION = 300


class OAuthSettingsError(InvalidRequest):
    """The login cannot start with what it was given; nothing was sent."""

    explanation = "The OAuth 2.0 login cannot start."
    hint = "Check the login's settings ([oauth.NAME] in config.toml, or Security.Auth)."


class TokenNotForOrigin(OAuthSettingsError):
    """The request would carry the login's token to another origin than its API's."""

    hint = "A login's token goes to its API's origin only: log in to that server."


class OAuthFailed(LoginFailed):
    """An OAuth 2.0 login failed on the way."""

    explanation = "Logging in by OAuth 2.0 failed."
    hint = "Try again; restwalk auth status NAME says what restwalk knows of the login."


class DiscoveryFailed(OAuthFailed):
    """The server's metadata is missing, unreadable, or names another server."""

    explanation = "The server says nothing restwalk can read of how to log in."
    hint = (
        "Give the endpoints in the login's settings (auth_url, token_url, device_url), "
        "or check the server's URL."
    )


#: What to do about each RFC 6749 error (sections 4.1.2.1 and 5.2; RFC 8628 section 3.5).
ERROR_HINTS = {
    "invalid_client": "Check the client id and secret the server gave restwalk.",
    "unauthorized_client": "This client may not use that grant: choose another (--grant), "
    "or use a client registered for it.",
    "unsupported_grant_type": "The server does not offer that grant: choose another (--grant).",
    "invalid_scope": "Ask for scopes the server knows (its metadata lists scopes_supported).",
    "invalid_grant": "The code or refresh token is no longer good: log in again.",
    "invalid_request": "The server found the request malformed: check the login's settings.",
    "server_error": "The server failed: try again later.",
    "temporarily_unavailable": "The server is busy: try again later.",
}


class OAuthRefused(OAuthFailed):
    """The server answered with an RFC 6749 error code and, maybe, a description."""

    def __init__(
        self,
        error: str,
        description: str = "",
        *,
        at: str = "",
        hint: str | None = None,
    ) -> None:
        self.error = error
        self.description = description[:MAX_DESCRIPTION].strip().rstrip(".")
        said = f"{error}: {self.description}" if self.description else error
        where = f" at {at}" if at else ""
        if hint is None and type(self) is OAuthRefused:
            hint = ERROR_HINTS.get(error, "")
        super().__init__(f"The authorization server refused{where}: {said}.", hint=hint)


class AccessDenied(OAuthRefused):
    """``access_denied``: the person denied the request, or the server did."""

    hint = "Log in again and approve the request (restwalk auth login NAME)."


class LoginExpired(OAuthFailed):
    """The device code expired, or the browser never came back in time."""

    explanation = "The login took too long: what the server gave for it has expired."
    hint = "Log in again, and approve it sooner."


class LoginCancelled(OAuthFailed):
    """The person cancelled the login."""

    explanation = "The login was cancelled."
    hint = ""


class NotLoggedIn(OAuthFailed):
    """No usable token, and getting one needs the person (a browser, a device code)."""

    explanation = "Not logged in: there is no token to send."
    hint = "Log in: restwalk auth login NAME."
