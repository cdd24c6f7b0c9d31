"""Why bytes are not JSON, in words a person can act on.

orjson checks that its input is UTF-8 before it parses, and reports any byte
that is not with one message whatever the byte ("str is not valid UTF-8:
surrogates not allowed: line 1 column 1 (char 0)", also for ``\\xff``): that
case is told here by the byte and its offset instead.
"""

from __future__ import annotations

import orjson

__all__ = ["json_error", "not_utf8"]


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
