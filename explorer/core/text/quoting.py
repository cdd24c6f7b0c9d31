"""Server text quoted in a one-line message, short enough to leave room for the reason.

A message such as "The URL '…' is not valid. (URL too long)" or "The server's rel link
cannot be followed: why" quotes what a server sent; a link of 100,000 characters quoted
whole fills the status line, and the reason after it is never seen. These quote the
start of such text and say how long it was.
"""

from __future__ import annotations

__all__ = ["QUOTED_CHARS", "quoted", "shortened"]

#: The characters of a server's text quoted in a message; the rest is counted.
QUOTED_CHARS = 120


def shortened(text: str, limit: int = QUOTED_CHARS) -> str:
    """``text`` whole when it has at most ``limit`` characters, else its start and how
    many characters it has: ``'abc…' (100,022 characters)``'s unquoted form."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def quoted(text: str, limit: int = QUOTED_CHARS) -> str:
    """``text`` as ``repr`` quotes it, or, when it has more than ``limit`` characters, its
    start quoted and how many characters it has: ``'http://h/bbb'… (100,022 characters)``."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text):,} characters)"
