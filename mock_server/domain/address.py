"""The customer address in its two schemas.

Version 2 (and the store) keep it structured: ``{streetAddress, city, state,
zipCode}``. Version 1 shows one string, ``"street, city, state zip"``; a
version 1 write parses that form back, and a string that does not have that
form is kept whole in ``streetAddress`` (with the other parts empty), so
nothing a client wrote is ever lost.
"""

from __future__ import annotations

import re

ADDRESS_FIELDS: tuple[str, ...] = ("streetAddress", "city", "state", "zipCode")

_DIGITS_ZIP = re.compile(r"\d+(?:-\d+)?")


def render_address(address: dict[str, str]) -> str:
    """The version 1 string of a structured address.

    An address whose city, state and zip code are all empty (a string that could
    not be parsed) renders as its street alone, so it reads back unchanged.
    """
    street = address.get("streetAddress", "")
    city = address.get("city", "")
    state = address.get("state", "")
    zip_code = address.get("zipCode", "")
    if not (city or state or zip_code):
        return street
    return f"{street}, {city}, {state} {zip_code}"


def parse_address(text: str) -> dict[str, str]:
    """The structured form of a version 1 address string.

    ``"12 High St, Springfield, IL 62701"`` splits at its last two commas into
    street, city and "state zip". A zip of digits (``62701``, ``10001-1234``) is
    the last word, so a state may have spaces (``New York 10001``); otherwise
    the state is the first word and the rest the postal code (``WYK LS1 1AA``).
    The street may itself contain commas. Anything else is kept whole as the street.
    """
    parts = [part.strip() for part in text.rsplit(",", 2)]
    if len(parts) == 3 and all(parts):
        street, city, state_zip = parts
        pieces = state_zip.rsplit(None, 1)
        if len(pieces) < 2 or not _DIGITS_ZIP.fullmatch(pieces[1]):
            pieces = state_zip.split(None, 1)
        if len(pieces) == 2:
            return {
                "streetAddress": street,
                "city": city,
                "state": pieces[0],
                "zipCode": pieces[1].strip(),
            }
    return {"streetAddress": text.strip(), "city": "", "state": "", "zipCode": ""}
