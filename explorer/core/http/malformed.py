"""What a server sent that is not HTTP, in words a person reads.

h11 says why it cannot read an answer in its own terms, with the server's bytes as a
Python repr: ``illegal status line: bytearray(b'HTTP/1.1 2OO \\x1b[31mOK')``. Here
that becomes ``The server's status line is not HTTP: "HTTP/1.1 2OO ␛[31mOK".``: the
problem named, the bytes as text through the terminal filter
(:mod:`explorer.core.text.terminal_text`), cut short.
"""

from __future__ import annotations

import ast
import re

from explorer.core.text.terminal_text import visible_line

__all__ = ["malformed_answer", "readable_detail"]

# h11's words for an answer it cannot read, and ours: "{}" is what the server sent.
_MALFORMED = (
    ("illegal status line: ", "The server's status line is not HTTP: {}."),
    ("illegal header line: ", "A header line of the server's answer is not 'Name: value': {}."),
    ("illegal header name ", "The server sent a header name HTTP does not allow: {}."),
    ("illegal header value ", "The server sent a header value HTTP does not allow: {}."),
    ("illegal chunk header: ", "A chunk of the server's body does not start with its size: {}."),
)
_MALFORMED_PLAIN = {
    "bad content-length": "The server's Content-Length is not a number of bytes.",
    "conflicting content-length headers": (
        "The server sent two different Content-Length values: where the body ends is unknown."
    ),
    "only transfer-encoding: chunked is supported": (
        "The server sent a Transfer-Encoding other than chunked, which no HTTP/1.1 client "
        "has to read."
    ),
    "multiple transfer-encoding headers": "The server sent Transfer-Encoding more than once.",
    "receive buffer too long": (
        "The server's response head is larger than 100 KiB, the most restwalk reads."
    ),
    "continuation line at start of headers": (
        "The server's first header line starts with white space (a folded line with no "
        "header before it)."
    ),
}
# A Python bytes repr, as h11 puts the server's bytes in its messages: bytearray(b'...').
_BYTES_REPR = re.compile(
    r"""bytearray\((b'(?:[^'\\]|\\.)*'|b"(?:[^"\\]|\\.)*")\)"""
    r"""|(?<!\w)(b'(?:[^'\\]|\\.)*'|b"(?:[^"\\]|\\.)*")"""
)
#: Characters of the server's bytes quoted in an explanation.
_QUOTED_MAX = 120


def _quoted(raw: bytes) -> str:
    """Bytes a server sent, as text a person reads: control characters visible, cut short."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    shown = visible_line(text)
    if len(shown) > _QUOTED_MAX:
        shown = shown[:_QUOTED_MAX] + "…"
    return f'"{shown}"'


def _unrepr(match: re.Match[str]) -> str:
    literal = match.group(1) or match.group(2)
    try:
        raw = ast.literal_eval(literal)
    except (ValueError, SyntaxError):
        return match.group()
    return _quoted(raw) if isinstance(raw, bytes) else match.group()


def readable_detail(detail: str) -> str:
    """``detail`` with the Python reprs of bytes in it (``bytearray(b'HTTP/1.1 2OO')``)
    written as the text they hold, quoted, control characters visible."""
    if "b'" not in detail and 'b"' not in detail:
        return detail
    return _BYTES_REPR.sub(_unrepr, detail)


def malformed_answer(detail: str) -> str | None:
    """The explanation of h11's message ``detail`` about an answer it could not read, the
    server's bytes quoted; None when ``detail`` is no such message."""
    lowered = detail.lower()
    plain = _MALFORMED_PLAIN.get(lowered.strip().rstrip("."))
    if plain is not None:
        return plain
    for prefix, words in _MALFORMED:
        if lowered.startswith(prefix):
            return words.format(readable_detail(detail[len(prefix) :]))
    return None
