"""What a person pasted as a token: the token alone, or the header line it came in.

A token is copied from where it was seen: an API's documentation or a browser's
developer tools show the whole header (``Authorization: Bearer eyJ...``), a curl
line its value (``Bearer eyJ...``), a gateway's page its own header
(``X-API-Key: 3f9a...``). Sent as it was pasted, each became
``Authorization: Bearer Authorization: Bearer eyJ...``, refused with a 401 that did
not say why. :func:`read_pasted_token` takes the token out of such a line, and says
when the line names another header (then it is an API key for that header).
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.core.http.field_syntax import is_token

__all__ = ["PastedToken", "read_pasted_token"]


@dataclass(frozen=True)
class PastedToken:
    """The token, the ``Authorization`` scheme it goes under, and the header named
    instead when the line was another header's (``X-API-Key``: an API key)."""

    token: str
    scheme: str
    header: str | None = None


def read_pasted_token(text: str, scheme: str) -> PastedToken:
    """``text`` as pasted in the token field, whose scheme is ``scheme`` (``Bearer``).

    ``Authorization: Bearer abc`` and ``Bearer abc`` give ``abc`` under ``Bearer``
    (``Token abc``: under ``Token``); ``X-API-Key: abc`` (a header name, a colon and a
    space) gives ``abc`` for the header ``X-API-Key``; anything else is the token.
    """
    text = text.strip()
    name, colon, value = text.partition(":")
    if colon and is_token(name) and (value.startswith(" ") or name.lower() == "authorization"):
        value = value.strip()
        if name.lower() != "authorization":
            return PastedToken(value, scheme, header=name)
        text = value
    word, space, rest = text.partition(" ")
    if (
        space
        and rest.strip()
        and is_token(word)
        and word.lower() in (scheme.lower(), "bearer", "token")
    ):
        named = scheme if word.lower() == scheme.lower() else word.capitalize()
        return PastedToken(rest.strip(), named)
    return PastedToken(text, scheme)
