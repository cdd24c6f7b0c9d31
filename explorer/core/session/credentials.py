"""Credentials as the session keeps them: which kind of login a server asks for, and badges.

The login dialog preselects what the server's ``WWW-Authenticate`` challenge
offers (RFC 9110 section 11.6.1): a server that offers only Basic gets a Basic
login, not a token login at a guessed URL; one that offers Bearer a token login
where its login URL is known, else a token to paste; one that offers ``Token`` (Django REST
Framework) a key to paste, sent as ``Authorization: Token <key>`` (:func:`token_scheme_for`).
A Bearer challenge that names the API's
OAuth metadata (``resource_metadata``, RFC 9728 section 5.1) offers OAuth 2.0 too
(:func:`offers_oauth`): the dialog says so, and one key takes it.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable
from typing import Literal

from explorer.core.http.field_syntax import is_token
from explorer.core.http.request import (
    Auth,
    BasicAuth,
    BearerAuth,
    CookieSession,
    LoginFlow,
    OAuthBearer,
)
from explorer.core.knowledge.field_values import parse_challenges

__all__ = [
    "TOKEN_SCHEMES",
    "LoginKind",
    "auth_label",
    "credential_in",
    "login_kind_for",
    "offers_oauth",
    "token_scheme_for",
]

#: Schemes whose credential is a token or key pasted as it is (``Authorization: Token
#: <key>``): Django REST Framework's ``TokenAuthentication`` (and knox's) answer
#: ``WWW-Authenticate: Token``.
TOKEN_SCHEMES = frozenset({"token"})

#: The ways the login dialog offers: a token from user + password, Basic, a pasted
#: token (Bearer, or the challenge's scheme), an API key in a header, a cookie session,
#: OAuth 2.0.
LoginKind = Literal["token", "basic", "bearer", "key", "session", "oauth"]


def login_kind_for(challenges: Iterable[str], *, login_known: bool = False) -> LoginKind:
    """The login a 401's ``WWW-Authenticate`` values ask for (a token login when unsure).

    Bearer offered: log in for a token where the login URL is known (``login_known``:
    the API's tokenUrl, ``--login``'s, the bundled mock's), else a token to paste: a
    guessed login URL stays offered, not chosen. Only Basic (or Digest) offered: Basic.
    No challenge at all (a 403, or a server that sends none): as Bearer, a token login
    where the login URL is known, else a token to paste.
    """
    schemes = [challenge.scheme.lower() for challenge in parse_challenges(challenges)]
    if not schemes:
        return "token" if login_known else "bearer"
    if "bearer" in schemes:
        return "token" if login_known else "bearer"
    if "basic" in schemes:
        return "basic"
    if "apikey" in schemes:  # FastAPI's APIKeyHeader: a key in a header the API names
        return "key"
    if token_scheme_for(challenges) != "Bearer":
        return "bearer"  # a key to paste, under the scheme the challenge names
    return "token"


def token_scheme_for(challenges: Iterable[str]) -> str:
    """The scheme a pasted token goes under: ``Token`` when the challenge names that
    (Django REST Framework's ``TokenAuthentication``; ``WWW-Authenticate: Token``), else
    ``Bearer``."""
    for challenge in parse_challenges(challenges):
        if challenge.scheme.lower() in TOKEN_SCHEMES:
            return challenge.scheme
    return "Bearer"


def offers_oauth(challenges: Iterable[str]) -> bool:
    """True when a 401's ``WWW-Authenticate`` values name the API's OAuth 2.0 metadata."""
    return any(
        challenge.scheme.lower() == "bearer" and bool(challenge.param("resource_metadata"))
        for challenge in parse_challenges(challenges)
    )


def auth_label(auth: Auth | None) -> str:
    """A short, credential-free description of ``auth`` for the URL bar."""
    if isinstance(auth, LoginFlow):
        return f"🔑 {auth.user} (token)"
    if isinstance(auth, BasicAuth):
        return f"🔑 {auth.user} (basic)"
    if isinstance(auth, BearerAuth):
        return f"🔑 {auth.scheme.lower()}"
    if isinstance(auth, OAuthBearer):
        return f"🔑 {auth.login} (OAuth)"
    if isinstance(auth, CookieSession):
        return "🔑 cookies"
    return ""


def credential_in(headers: Iterable[tuple[str, str]]) -> Auth | None:
    """The credential an ``Authorization`` header typed among ``headers`` carries: Basic's
    user and password, or a token under its scheme (``Bearer <token>``, ``Token <key>``);
    None when there is none, or one restwalk cannot send again as it is (Digest's answer)."""
    value = next((v.strip() for k, v in headers if k.strip().lower() == "authorization"), "")
    scheme, _, credentials = value.partition(" ")
    credentials = credentials.strip()
    if not is_token(scheme) or not credentials or " " in credentials:
        return None
    if scheme.lower() == "basic":
        try:
            user, colon, password = (
                base64.b64decode(credentials, validate=True).decode().partition(":")
            )
        except (ValueError, UnicodeDecodeError):
            return None
        return BasicAuth(user, password) if colon else None
    if scheme.lower() in ("digest", "negotiate", "ntlm"):
        return None  # an answer to one challenge, not a credential for every request
    return BearerAuth(credentials, scheme)
