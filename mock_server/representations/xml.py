"""XML (``application/xml``): resources as elements, links as ``<link>`` elements."""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree as ET


def _add_value(parent: ET.Element, name: str, value: Any) -> None:
    child = ET.SubElement(parent, name)
    if isinstance(value, dict):
        for key, inner in value.items():
            _add_value(child, str(key), inner)
    elif isinstance(value, list):
        for inner in value:
            _add_value(child, "item", inner)
    elif value is None:
        child.set("nil", "true")
    elif isinstance(value, bool):
        child.text = "true" if value else "false"
    else:
        child.text = str(value)


def problem_to_xml(problem: dict[str, Any]) -> bytes:
    """An RFC 9457 problem document in its XML form (``urn:ietf:rfc:7807`` namespace)."""
    root = ET.Element("problem", xmlns="urn:ietf:rfc:7807")
    for key, value in problem.items():
        if value is not None:
            _add_value(root, key, value)
    return bytes(ET.tostring(root, encoding="utf-8", xml_declaration=True))
