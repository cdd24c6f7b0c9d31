"""A body indented for reading: JSON and XML, two spaces a level, for every front end.

The TUI's body view (:func:`explorer.core.bodies.display.format_body`) and the
command line (``restwalk request``, ``--print b``) indent with these functions,
so a body reads the same in both.

- JSON (``orjson``, up to :data:`PRETTY_LIMIT`): a document nested deeper than
  orjson writes (255) is left as it came.
- XML (``defusedxml``'s DOM, up to :data:`PRETTY_XML_LIMIT`: a DOM costs some ten
  times the bytes): the whitespace between elements is the old indentation,
  replaced by the new. Mixed content (text beside child elements, as in XHTML) is
  left alone, since indenting it would change the text; so is a document that
  declares entities (defusedxml refuses them) or is not well-formed.

Each returns the indented text as UTF-8 bytes, or None: show the body as it came.
"""

from __future__ import annotations

import contextlib

import orjson

__all__ = ["PRETTY_LIMIT", "PRETTY_XML_LIMIT", "indent_body", "indent_json", "indent_xml"]

#: JSON larger than this is shown as received, not indented: parsing a 50 MB array
#: of numbers makes some 900 MB of Python objects.
PRETTY_LIMIT = 32 * 1024 * 1024
#: XML bodies larger than this are shown as they came (a DOM of them costs too much).
PRETTY_XML_LIMIT = 1_000_000


def indent_json(body: bytes) -> bytes | None:
    """``body``, a JSON document, indented; None when it is none or cannot be written so.

    Raises nothing; :class:`orjson.JSONDecodeError` is the caller's to explain (see
    :func:`explorer.core.bodies.display.format_body`), so it is let through.
    """
    document = orjson.loads(body)
    try:
        return orjson.dumps(document, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:  # nested deeper than orjson writes
        return None


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
