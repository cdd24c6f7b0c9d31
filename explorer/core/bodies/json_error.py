"""Why bytes are not JSON, in words a person can act on.

orjson checks that its input is UTF-8 before it parses, and reports any byte
that is not with one message whatever the byte ("str is not valid UTF-8:
surrogates not allowed: line 1 column 1 (char 0)", also for ``\\xff``): that
case is told here by the byte and its offset instead. A document nested deeper
than orjson reads (:data:`MAX_DEPTH` levels) may be valid JSON: it is said to be
too deep, not invalid.
"""

from __future__ import annotations

import orjson

__all__ = ["MAX_DEPTH", "json_error", "json_refused", "not_utf8"]

#: The deepest nesting orjson reads; one level more is its "depth limit exceeded".
MAX_DEPTH = 1024
_TOO_DEEP = "depth limit exceeded: "


def not_utf8(data: bytes) -> str | None:
    """Where ``data`` stops being UTF-8 ("not UTF-8: byte 0xff at offset 0"), or None."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"not UTF-8: byte 0x{data[error.start]:02x} at offset {error.start:,}"
    return None


def json_error(data: bytes, error: orjson.JSONDecodeError) -> str:
    """Why orjson refused ``data``: where it stops being UTF-8, else orjson's own words."""
    # Decoding again costs a pass over the bytes, on the failure path only.
    return not_utf8(data) or str(error)


def json_refused(data: bytes, error: orjson.JSONDecodeError) -> str:
    """What ``data`` is, as a phrase after "the body is": ``not valid JSON (why)``, or,
    nested deeper than :data:`MAX_DEPTH`, JSON too deep to read (it may well be valid)."""
    said = str(error)
    if said.startswith(_TOO_DEEP):
        where = said.removeprefix(_TOO_DEEP)
        return f"JSON nested deeper than {MAX_DEPTH:,} levels, more than restwalk reads ({where})"
    return f"not valid JSON ({not_utf8(data) or said})"
