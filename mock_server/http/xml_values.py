"""JSON values as XML elements, and a problem document in its XML form.

The one mapping of a JSON value to XML that ``application/problem+xml``
(RFC 9457, ``urn:ietf:rfc:7807`` namespace) and the mock's ``application/xml``
(:mod:`mock_server.representations.xml`) share: a dict nests, a list repeats
``<item>``, None is ``nil="true"``, a name that is not an XML name becomes
``<property name="...">``, and characters XML 1.0 cannot carry become U+FFFD.

ElementTree loads with this module, at the first XML answer: the server (and
the explorer that starts it) starts without it.
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree import ElementTree as ET

#: An XML name this mapping uses as an element name as it is.
XML_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
#: Characters XML 1.0 cannot carry at all, even escaped.
_NOT_XML_CHAR = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(value: object) -> str:
    """``value`` as text XML can carry (what it cannot becomes U+FFFD)."""
    return _NOT_XML_CHAR.sub("\ufffd", str(value))


def _child(parent: ET.Element, name: str) -> ET.Element:
    if XML_NAME.match(name) and not name.lower().startswith("xml"):
        return ET.SubElement(parent, name)
    return ET.SubElement(parent, "property", name=xml_text(name))


def add_value(parent: ET.Element, name: str, value: Any) -> None:
    """``value`` as the child ``name`` of ``parent`` (see the module docstring)."""
    child = _child(parent, name)
    if isinstance(value, dict):
        for key, inner in value.items():
            add_value(child, str(key), inner)
    elif isinstance(value, list):
        for inner in value:
            add_value(child, "item", inner)
    elif value is None:
        child.set("nil", "true")
    elif isinstance(value, bool):
        child.text = "true" if value else "false"
    else:
        child.text = xml_text(value)


def serialize(element: ET.Element) -> bytes:
    """The UTF-8 document of ``element``, with its XML declaration."""
    return bytes(ET.tostring(element, encoding="utf-8", xml_declaration=True))


def problem_to_xml(problem: dict[str, Any]) -> bytes:
    """An RFC 9457 problem document in its XML form (``urn:ietf:rfc:7807`` namespace)."""
    root = ET.Element("problem", xmlns="urn:ietf:rfc:7807")
    for key, value in problem.items():
        if value is not None:
            add_value(root, key, value)
    return serialize(root)
