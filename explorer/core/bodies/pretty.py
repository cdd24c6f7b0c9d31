"""A body indented for reading: JSON and XML, two spaces a level, for every front end.

The TUI's body view (:func:`explorer.core.bodies.display.format_body`) and the
command line (``restwalk request``, ``--print b``) indent with these functions,
so a body reads the same in both.

- JSON (``orjson``, up to :data:`PRETTY_LIMIT`): a document nested deeper than
  orjson writes (255) is left as it came. A number orjson would not write back as
  it came, an integer past 64 bits (``12345678901234567890123``, written back as
  ``1.2345678901234568e+22``) or a decimal of more digits than a double surely
  holds (``0.10000000000000001``, written back as ``0.1``), is kept: a document
  with one (:func:`lossy_number`) is indented token by token, every literal as
  received (orjson still checks that it is JSON).
- XML (``defusedxml``'s DOM, up to :data:`PRETTY_XML_LIMIT`: a DOM costs some ten
  times the bytes): the whitespace between elements is the old indentation,
  replaced by the new. Mixed content (text beside child elements, as in XHTML) is
  left alone, since indenting it would change the text; so is a document that
  declares entities (defusedxml refuses them) or is not well-formed.

Each returns the indented text as UTF-8 bytes, or None: show the body as it came.
"""

from __future__ import annotations

import contextlib
import re

import orjson

from explorer.core.text.lazy_pattern import LazyPattern

__all__ = [
    "PRETTY_LIMIT",
    "PRETTY_XML_LIMIT",
    "indent_body",
    "indent_json",
    "indent_xml",
    "lossy_number",
]

#: JSON larger than this is shown as received, not indented: parsing a 50 MB array
#: of numbers makes some 900 MB of Python objects.
PRETTY_LIMIT = 32 * 1024 * 1024
#: XML bodies larger than this are shown as they came (a DOM of them costs too much).
PRETTY_XML_LIMIT = 1_000_000


#: Characters in a row from which a number may not survive orjson's reading and
#: writing (:func:`lossy_number`): 18, a decimal of 17 digits and its point.
_RUN = b"\x01" * 18
#: Each byte as 1 when it may be part of a number's digits (0-9 and the point), else 0:
#: ``bytes.translate`` then ``find`` look for long runs at C speed.
_DIGIT_OR_POINT = bytes(1 if chr(byte) in "0123456789." else 0 for byte in range(256))


def lossy_number(body: bytes) -> bool:
    """Whether ``body`` holds a number orjson does not write back as it came: an integer
    past 64 bits (read as a double: ``12345678901234567890123`` is written
    ``1.2345678901234568e+22``), or a decimal of more digits than a double keeps
    (``0.10000000000000001`` is written ``0.1``). Only runs of 18 digits and points
    can be one; each is read and written back by orjson to tell."""
    marked = body.translate(_DIGIT_OR_POINT)
    start = marked.find(_RUN)
    while start != -1:
        end = marked.find(b"\x00", start)
        run = body[start : len(body) if end == -1 else end]
        number = b"-" + run if body[start - 1 : start] == b"-" else run
        with contextlib.suppress(orjson.JSONDecodeError):  # (no number: "1.2.3", "007")
            if orjson.dumps(orjson.loads(number)) != number:
                return True
        if end == -1:
            return False
        start = marked.find(_RUN, end)
    return False


#: A JSON string (escapes and all), a structural character, or any other literal.
_TOKEN = LazyPattern(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\],:]|[^\s{}\[\],:"]+', re.DOTALL)
_CLOSING = {b"{": b"}", b"[": b"]"}


def indent_json(body: bytes) -> bytes | None:
    """``body``, a JSON document, indented; None when it is none or cannot be written so.

    Raises nothing; :class:`orjson.JSONDecodeError` is the caller's to explain (see
    :func:`explorer.core.bodies.display.format_body`), so it is let through.
    """
    document = orjson.loads(body)
    if lossy_number(body):
        return _reindented(body)
    try:
        return orjson.dumps(document, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:  # nested deeper than orjson writes
        return None


def _reindented(body: bytes) -> bytes:
    """``body``, valid JSON, indented as orjson's ``OPT_INDENT_2`` does, each string and
    number as it came (nothing is parsed into values and written back)."""
    tokens = _TOKEN.findall(body)
    pieces: list[bytes] = []
    depth = 0
    index = 0
    while index < len(tokens):
        token = tokens[index]
        closing = _CLOSING.get(token)
        if closing is not None:
            if index + 1 < len(tokens) and tokens[index + 1] == closing:
                pieces.append(token + closing)  # an empty one, as orjson writes it: {} []
                index += 2
                continue
            depth += 1
            pieces.append(token + b"\n" + b"  " * depth)
        elif token in (b"}", b"]"):
            depth -= 1
            pieces.append(b"\n" + b"  " * depth + token)
        elif token == b",":
            pieces.append(b",\n" + b"  " * depth)
        elif token == b":":
            pieces.append(b": ")
        else:
            pieces.append(token)
        index += 1
    return b"".join(pieces)


def indent_xml(body: bytes) -> bytes | None:
    """``body``, an XML document, indented; None to show it as it came (see the module)."""
    from xml.dom.minidom import Element, Text
    from xml.parsers.expat import ExpatError

    from defusedxml import DefusedXmlException, minidom

    if len(body) > PRETTY_XML_LIMIT:
        return None
    try:
        document = minidom.parseString(body)
    except (ExpatError, DefusedXmlException, ValueError, RecursionError):
        return None
    elements = [document.documentElement]
    while elements:
        element = elements.pop()
        children = element.childNodes
        inner = [child for child in children if isinstance(child, Element)]
        if inner:
            blanks = [child for child in children if isinstance(child, Text)]
            if any(text.data.strip() for text in blanks):
                return None
            for text in blanks:  # the old indentation, between elements
                element.removeChild(text)
        elements.extend(inner)
    try:
        indented: str = document.toprettyxml(indent="  ")
    except RecursionError:  # nested deeper than Python recurses: shown as it came
        return None
    return indented.rstrip("\n").encode("utf-8")


def indent_body(body: bytes, media_type: str | None) -> bytes | None:
    """``body`` indented by what it is: JSON by its media type (``*/json``, ``*+json``) or
    its first byte, XML by its media type (``*/xml``, ``*+xml``); None for anything else,
    or what cannot be indented."""
    media = (media_type or "").split(";", 1)[0].strip().lower()
    if (
        body
        and len(body) <= PRETTY_LIMIT
        and (media.endswith(("/json", "+json")) or body.lstrip()[:1] in (b"{", b"["))
    ):
        with contextlib.suppress(orjson.JSONDecodeError):
            indented = indent_json(body)
            if indented is not None:
                return indented
    if body and media.endswith(("/xml", "+xml")):
        return indent_xml(body)
    return None
