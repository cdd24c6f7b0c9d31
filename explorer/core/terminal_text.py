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
=================================  ==============================================

Tab and line feed are kept where they belong (:func:`visible` keeps both,
:func:`visible_line` neither), and so is a carriage return that ends a line
(``CR LF``): it moves the cursor nowhere a line feed does not.

For JSON written to a terminal, :func:`json_visible` escapes DEL and the C1
controls as ``\\u007f``/``\\u009b``: the same JSON value, and no raw control
byte (the encoder already escapes the C0 ones).
"""

from __future__ import annotations

import re

__all__ = ["CONTROL", "is_visible", "json_visible", "visible", "visible_line"]

#: Every character a terminal may act on: C0, DEL, C1.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
# Kept by :func:`visible`: tab, line feed, and a carriage return just before one.
_MULTILINE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")
# The same without the alternation, which makes ``re`` try two branches at every
# character: one class scans 20 MB in milliseconds, the alternation in a second.
_CONTROL_BUT_BREAKS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_LONE_CR = re.compile("\r(?!\n)")

_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)} | {0x7F: "\N{SYMBOL FOR DELETE}"}


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    picture = _PICTURES.get(code)
    return picture if picture is not None else f"\\x{code:02x}"


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


def is_visible(text: str) -> bool:
    """True when ``text`` holds nothing a terminal would act on but tabs and line breaks."""
    if _CONTROL_BUT_BREAKS.search(text) is not None:
        return False
    return "\r" not in text or _LONE_CR.search(text) is None


# In UTF-8, DEL is 0x7F and a C1 control U+0080-U+009F is 0xC2 then 0x80-0x9F; 0xC2
# only ever starts a character, so this cannot match inside another one.
_JSON_CONTROL = re.compile(b"\x7f|\xc2[\x80-\x9f]")


def _json_escape(match: re.Match[bytes]) -> bytes:
    code = ord(match.group().decode("utf-8"))
    return b"\\u%04x" % code


def json_visible(document: bytes) -> bytes:
    """A UTF-8 JSON document with DEL and C1 controls written as ``\\u`` escapes.

    They can only stand inside strings (JSON's own syntax is ASCII), where an
    escape means the same character: the value is unchanged, the bytes are safe.
    """
    if _JSON_CONTROL.search(document) is None:
        return document
    return _JSON_CONTROL.sub(_json_escape, document)
