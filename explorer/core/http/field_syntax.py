"""RFC 9110's syntax for a request's methods and fields: tokens, and values on one line."""

from __future__ import annotations

import re

from explorer.core.text.lazy_pattern import LazyPattern

__all__ = ["breaks_a_line", "is_token"]

# RFC 9110 section 5.6.2: token = 1*tchar.
_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
#: What no field value may hold: a CR or LF would end its header line, a NUL is refused.
_BAD_VALUE = LazyPattern(r"[\r\n\x00]")


def is_token(text: str) -> bool:
    """Whether ``text`` is an RFC 9110 token (a valid method or header name)."""
    return bool(_TOKEN.match(text))


def breaks_a_line(value: str) -> bool:
    """Whether ``value`` holds a line break or a NUL, which no header value may."""
    return _BAD_VALUE.search(value) is not None
