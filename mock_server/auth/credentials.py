"""Reading the ``Authorization`` header: which scheme, which credential.

Pure parsing, no checking: :func:`parse_authorization` turns the header value
into a :class:`Bearer` token, :class:`Basic` credentials, or a
:class:`Malformed` value saying what is wrong (without repeating the secret).
Scheme names are case-insensitive (RFC 9110 section 11.1).
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass

#: A scheme name short and plain enough to repeat in an error message.
_SCHEME_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9-]{0,19}$")


@dataclass(frozen=True)
class Bearer:
    """A bearer token (RFC 6750)."""

    token: str

    def __repr__(self) -> str:
        return "Bearer(token=***)"


@dataclass(frozen=True)
class Basic:
    """A user name and password (RFC 7617)."""

    username: str
    password: str

    def __repr__(self) -> str:
        return f"Basic(username={self.username!r}, password=***)"


@dataclass(frozen=True)
class Malformed:
    """An Authorization value this server cannot use; ``reason`` says why."""

    reason: str
    bearer: bool = False


Credential = Bearer | Basic | Malformed


def parse_basic(value: str) -> Basic | Malformed:
    """The credentials in the token68 of a Basic ``Authorization`` value."""
    try:
        decoded = base64.b64decode(value.strip().encode("ascii"), validate=True)
        text = decoded.decode("utf-8")
    except (UnicodeError, binascii.Error, ValueError):
        return Malformed("The Basic credentials are not base64 of 'user:password'.")
    username, colon, password = text.partition(":")
    if not colon:
        return Malformed("The Basic credentials have no ':' between user name and password.")
    return Basic(username, password)


def parse_authorization(value: str) -> Credential:
    """The credential in an ``Authorization`` header value."""
    scheme, _, rest = value.strip().partition(" ")
    rest = rest.strip()
    kind = scheme.lower()
    if kind == "bearer":
        if not rest or " " in rest:
            return Malformed("The Bearer scheme needs exactly one token after it.", bearer=True)
        return Bearer(rest)
    if kind == "basic":
        if not rest:
            return Malformed("The Basic scheme needs base64 'user:password' after it.")
        return parse_basic(rest)
    if not rest:
        # No scheme at all: the value may be a bare secret, so it is not repeated.
        return Malformed(
            "The Authorization value needs a scheme, then the credential: "
            "'Bearer <token>' or 'Basic <base64 of user:password>'."
        )
    shown = f"{scheme!r} " if _SCHEME_NAME.match(scheme) else ""
    return Malformed(f"The scheme {shown}is not one this server accepts (Bearer, Basic).")
