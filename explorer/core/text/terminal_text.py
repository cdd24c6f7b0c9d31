"""Server text made safe to show on a terminal: control characters become visible.

A terminal obeys the control characters in what it is given: ``ESC ] 52 ;``
writes the clipboard, ``ESC ] 0 ;`` the window title, ``ESC [ 2J`` clears the
screen, a lone carriage return lets a line overwrite what was printed before
it. Server text (a reason phrase, a header, a body, a link title) must reach
the terminal as data, so every output path of restwalk, the TUI's widgets and
the commands' output alike, passes it through :func:`visible` (or
:func:`visible_line` for text that must stay on one line).

What is made visible, the way ``less`` and ``git`` do it:

=================================  ==============================================
C0 controls (U+0000-U+001F)        the Unicode control pictures: ``\\x1b`` → ``␛``
DEL (U+007F)                       ``␡``
C1 controls (U+0080-U+009F)        as Python writes them: ``\\x9b`` (no pictures
                                   exist for them)
bidirectional controls (U+061C,    as Python writes them: ``\\u202e``. A terminal
U+200E-U+200F, U+202A-U+202E,      that lays out right-to-left text obeys them, and
U+2066-U+2069)                     an RLO makes ``exe.txt`` of ``txt.exe`` (the
                                   "Trojan Source" trick, CVE-2021-42574)
line and paragraph separators      ``\\u2028``, ``\\u2029``: some terminals and
(U+2028, U+2029)                   widgets break the line there
=================================  ==============================================

Tab and line feed are kept where they belong (:func:`visible` keeps both,
:func:`visible_line` neither), and so is a carriage return that ends a line
(``CR LF``): it moves the cursor nowhere a line feed does not. A view that lays out
cells itself (the TUI's body) turns tabs into spaces with :func:`expand_tabs`, as
``less`` does: a raw tab moves a terminal's cursor to a column the view did not count.

For JSON written to a terminal, :func:`json_visible` escapes DEL, the C1
controls and the formatting characters as ``\\u007f``/``\\u009b``/``\\u202e``:
the same JSON value, and no raw control byte (the encoder already escapes the C0
ones).
"""

from __future__ import annotations

import re
import unicodedata

import orjson

from explorer.core.text.lazy_pattern import LazyPattern

__all__ = [
    "CONTROL",
    "cells",
    "expand_tabs",
    "is_visible",
    "json_line",
    "json_visible",
    "visible",
    "visible_line",
]

#: Unicode's formatting characters a terminal (or its bidi algorithm) acts on: the
#: bidirectional embeddings, overrides, isolates and marks, and the line and
#: paragraph separators.
_FORMATTING = "\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
#: Every character a terminal may act on: C0, DEL, C1, and those formatting ones.
CONTROL = re.compile(f"[\x00-\x1f\x7f-\x9f{_FORMATTING}]")
# Kept by :func:`visible`: tab, line feed, and a carriage return just before one.
_MULTILINE = LazyPattern(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_FORMATTING}]|\r(?!\n)")
# The same without the alternation, which makes ``re`` try two branches at every
# character: one class scans 20 MB in milliseconds, the alternation in a second.
_CONTROL_BUT_BREAKS = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_FORMATTING}]")
_LONE_CR = LazyPattern("\r(?!\n)")

_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)} | {0x7F: "\N{SYMBOL FOR DELETE}"}


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    picture = _PICTURES.get(code)
    if picture is not None:
        return picture
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with its control characters made visible; tabs and line breaks kept.

    Costs one regular-expression scan (in C) when there is nothing to replace.
    """
    if is_visible(text):
        return text
    return _MULTILINE.sub(_shown, text)


def visible_line(text: str) -> str:
    """``text`` on one line: every control character visible, tab and line feed too."""
    if CONTROL.search(text) is None:
        return text
    return CONTROL.sub(_shown, text)


#: Columns between tab stops, as terminals and ``less`` set them.
TAB_SIZE = 8


def expand_tabs(text: str) -> str:
    """``text`` (already :func:`visible`) with each tab turned into the spaces that reach
    the next tab stop, counting the cells a terminal gives each character; tab stops
    start again on each line.

    A tab left in text a view lays out itself reaches the terminal raw, and the
    terminal moves its cursor to a column the view did not count: the rest of the
    row, and the border beside it, shift.
    """
    if "\t" not in text:
        return text
    if text.isascii():
        return text.expandtabs(TAB_SIZE)
    return "\n".join(_expand_line(line) if "\t" in line else line for line in text.split("\n"))


def _expand_line(line: str) -> str:
    out: list[str] = []
    column = 0
    for number, part in enumerate(line.split("\t")):
        if number:
            spaces = TAB_SIZE - column % TAB_SIZE
            out.append(" " * spaces)
            column += spaces
        out.append(part)
        column += cells(part)
    return "".join(out)


def cells(text: str) -> int:
    """The terminal cells ``text`` takes: two for a wide character, none for a mark that
    combines with the one before it (as ``wcwidth`` counts them, near enough)."""
    if text.isascii():
        return len(text)
    cells = 0
    for char in text:
        if unicodedata.category(char) in _NO_CELL:
            continue
        cells += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return cells


# Marks that combine with the character before them, and invisible format characters.
_NO_CELL = frozenset({"Mn", "Me", "Cf"})


def is_visible(text: str) -> bool:
    """True when ``text`` holds nothing a terminal would act on but tabs and line breaks."""
    if _CONTROL_BUT_BREAKS.search(text) is not None:
        return False
    return "\r" not in text or _LONE_CR.search(text) is None


# In UTF-8, DEL is 0x7F, a C1 control U+0080-U+009F is 0xC2 then 0x80-0x9F, U+061C is
# D8 9C, U+200E-U+200F and U+2028-U+202E are E2 80 8E-8F / A8-AE, U+2066-U+2069 are
# E2 81 A6-A9. A lead byte (C2, D8, E2) only ever starts a character, so none of these
# can match inside another one.
_JSON_CONTROL = LazyPattern(
    b"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]"
)


def _json_escape(match: re.Match[bytes]) -> bytes:
    code = ord(match.group().decode("utf-8"))
    return b"\\u%04x" % code


def json_visible(document: bytes) -> bytes:
    """A UTF-8 JSON document with DEL, the C1 controls and the formatting characters of
    :data:`CONTROL` written as ``\\u`` escapes.

    They can only stand inside strings (JSON's own syntax is ASCII), where an
    escape means the same character: the value is unchanged, the bytes are safe.
    """
    if _JSON_CONTROL.search(document) is None:
        return document
    return _JSON_CONTROL.sub(_json_escape, document)


def json_line(document: dict[str, object], *, deep: str = "json") -> bytes:
    """``document`` as one line of JSON, escaped as :func:`json_visible` does.

    A value nested deeper than orjson writes (255 levels) cannot be written: the
    member ``deep``, the parsed copy of a text the document also carries, is then
    left out.
    """
    try:
        return json_visible(orjson.dumps(document))
    except orjson.JSONEncodeError:
        return json_visible(orjson.dumps({k: v for k, v in document.items() if k != deep}))
