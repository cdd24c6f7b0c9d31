"""The token view: what a login's tokens say, each claim explained, no token shown.

An access token is often a JWT (RFC 7519; RFC 9068 profiles it for access tokens):
three base64url parts, the middle one a JSON object of *claims*. Its server signed
it for the API, not for restwalk, so it is decoded here without checking the
signature, only to show the person what it says. An opaque token says nothing to
anyone but its server; the view says so. The token itself is in the view only when
asked for (``show_token``): a view is safe to print, log and copy.

Each claim is explained from :data:`CLAIMS` (RFC 7519 section 4.1, RFC 9068 section 2.2,
OpenID Connect Core section 2 and 5.1, RFC 8693 section 4); times read as a countdown
(``exp``: *in 59 min 12 s*) and a UTC date; a claim no table knows is the server's own.
Values are server text: cut to :data:`MAX_VALUE` characters here, and passed through
the control-character filter where they are shown.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson

from explorer.core.oauth.tokens import Tokens

__all__ = [
    "CLAIMS",
    "HEADER_FIELDS",
    "ClaimLine",
    "TokenView",
    "countdown",
    "decode_jwt",
    "token_view",
]

#: The most characters of one claim's value shown.
MAX_VALUE = 200
#: The most claims shown of one token.
MAX_CLAIMS = 60
#: The longest token decoded.
MAX_JWT = 64_000

#: What each registered claim means, for the person reading the token.
CLAIMS: dict[str, str] = {
    "iss": "who issued it: the authorization server",
    "sub": "whom it is about: the user, or the application itself when it logged in alone",
    "aud": "who may accept it: the API(s) it is for; another must refuse it",
    "exp": "when it expires: after that the API refuses it",
    "nbf": "not valid before this time",
    "iat": "when it was issued",
    "jti": "its unique id: lets the server revoke this one token",
    "scope": "what it may do: each scope is a permission the user granted",
    "scp": "what it may do (the scopes, as a list)",
    "client_id": "the application it was issued to",
    "azp": "the application it was issued to (authorized party)",
    "auth_time": "when the user last logged in",
    "acr": "how strongly the user was authenticated",
    "amr": "how the user was authenticated (password, otp...)",
    "sid": "the user's session at the authorization server",
    "nonce": "ties an ID token to the login that asked for it",
    "at_hash": "ties an ID token to its access token",
    "roles": "the user's roles, as the server names them",
    "groups": "the user's groups, as the server names them",
    "entitlements": "what the user is entitled to, as the server names it",
    "email": "the user's e-mail address",
    "email_verified": "whether the server checked that e-mail address",
    "name": "the user's full name",
    "preferred_username": "the name the user goes by",
    "act": "who acts for the subject (token exchange, RFC 8693)",
    "cnf": "the key the token is bound to: only its holder may use it",
}

#: What each field of a JWT's header means.
HEADER_FIELDS: dict[str, str] = {
    "typ": "the token's type: at+jwt is an access token in RFC 9068's profile",
    "alg": "how it is signed (the API checks the signature with the server's key)",
    "kid": "which of the server's keys signed it (see its JWKS)",
}

_TIMES = frozenset({"exp", "nbf", "iat", "auth_time", "updated_at"})
_TYPES = {"at+jwt": "a JWT access token (RFC 9068)", "jwt": "a JWT (RFC 7519)"}


@dataclass(frozen=True)
class ClaimLine:
    """One claim: its name, its value as shown, and what it means."""

    name: str
    value: str
    meaning: str


@dataclass(frozen=True)
class TokenView:
    """A login's tokens for a person to read (see the module docstring)."""

    login: str
    #: What the access token is: a JWT, an RFC 9068 access token, or opaque.
    kind: str
    #: How long it is good for: ``valid for 59 min 12 s``, ``expired 3 min ago``...
    status: str
    scope: str
    #: Whether it renews itself: a refresh token, or logging in again.
    renewal: str
    header: tuple[ClaimLine, ...] = ()
    claims: tuple[ClaimLine, ...] = ()
    #: The ID token's claims (OpenID Connect), when there is one.
    id_claims: tuple[ClaimLine, ...] = ()
    #: The access token itself: only when asked for.
    token: str | None = None

    def lines(self) -> list[str]:
        """The view as plain lines (the command line prints them)."""
        out = [
            f"login:   {self.login}",
            f"token:   {self.kind}",
            f"status:  {self.status}",
            f"scope:   {self.scope}",
            f"renewal: {self.renewal}",
        ]
        for title, rows in (
            ("header", self.header),
            ("claims", self.claims),
            ("ID token", self.id_claims),
        ):
            if rows:
                out.append(f"{title}:")
                width = max(len(row.name) for row in rows)
                out += [f"  {r.name:<{width}}  {r.value}  ({r.meaning})" for r in rows]
        if self.token is not None:
            out.append(f"access token: {self.token}")
        return out


def countdown(seconds: float) -> str:
    """``seconds`` in the two largest units: ``59 min 12 s``, ``2 h 3 min``, ``4 d 1 h``."""
    left = int(abs(seconds))
    units = (("d", 86_400), ("h", 3_600), ("min", 60), ("s", 1))
    parts: list[str] = []
    for name, size in units:
        count, left = divmod(left, size)
        if count or parts:
            parts.append(f"{count} {name}")
        if len(parts) == 2:
            break
    words = [part for part in parts if not part.startswith("0 ")]
    return " ".join(words) or "0 s"


def _b64(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def decode_jwt(token: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    """A JWT's header and claims, unchecked (see the module docstring); None when
    ``token`` is no JWS compact serialization of a JSON object."""
    if len(token) > MAX_JWT or token.count(".") != 2:
        return None
    header_part, claims_part, _signature = token.split(".")
    try:
        header = orjson.loads(_b64(header_part))
        claims = orjson.loads(_b64(claims_part))
    except (binascii.Error, ValueError, orjson.JSONDecodeError):
        return None
    if not isinstance(header, dict) or not isinstance(claims, dict):
        return None
    return header, claims


def _when(value: object, now: float) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return _shown(value)
    try:
        date = datetime.fromtimestamp(value, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (OverflowError, OSError, ValueError):
        return _shown(value)
    delta = value - now
    relative = f"in {countdown(delta)}" if delta >= 0 else f"{countdown(delta)} ago"
    return f"{relative} ({date})"


def _shown(value: object) -> str:
    if isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(item, str) for item in value):
        text = ", ".join(value)
    else:
        text = orjson.dumps(value).decode("utf-8", "replace")
    return text if len(text) <= MAX_VALUE else text[: MAX_VALUE - 1] + "…"


def _lines(document: dict[str, Any], now: float, known: dict[str, str]) -> tuple[ClaimLine, ...]:
    rows: list[ClaimLine] = []
    for name, value in list(document.items())[:MAX_CLAIMS]:
        key = str(name)[:MAX_VALUE]
        shown = _when(value, now) if key in _TIMES else _shown(value)
        rows.append(ClaimLine(key, shown, known.get(key, "a claim of this server's own")))
    return tuple(rows)


def _status(tokens: Tokens, now: float) -> str:
    if tokens.expires_at is None:
        return "the server did not say when it expires"
    left = tokens.expires_at - now
    if left <= 0:
        return f"expired {countdown(left)} ago"
    return f"valid for {countdown(left)}"


def token_view(login: str, tokens: Tokens, now: float, *, show_token: bool = False) -> TokenView:
    """The view of ``tokens`` (held by the login named ``login``) at ``now``."""
    decoded = decode_jwt(tokens.access_token)
    header: tuple[ClaimLine, ...] = ()
    claims: tuple[ClaimLine, ...] = ()
    if decoded is None:
        kind = "opaque: only its server can read what it says"
    else:
        head, body = decoded
        typ = str(head.get("typ", "JWT")).lower()
        kind = _TYPES.get(typ.removeprefix("application/"), "a JWT (RFC 7519)")
        header = tuple(row for row in _lines(head, now, HEADER_FIELDS) if row.name in HEADER_FIELDS)
        claims = _lines(body, now, CLAIMS)
    granted = tokens.scope
    if granted is None and decoded is not None:
        found = decoded[1].get("scope")
        granted = found if isinstance(found, str) else None
    id_decoded = decode_jwt(tokens.id_token) if tokens.id_token else None
    return TokenView(
        login=login,
        kind=kind,
        status=_status(tokens, now),
        scope=_shown(granted) if granted else "as asked (the server did not say)",
        renewal=(
            "a refresh token renews it without you"
            if tokens.refresh_token
            else "no refresh token: log in again when it expires"
        ),
        header=header,
        claims=claims,
        id_claims=_lines(id_decoded[1], now, CLAIMS) if id_decoded else (),
        token=tokens.access_token if show_token else None,
    )
