"""XML (``application/xml``): resources as elements, links as ``<link>`` elements.

A resource is an element named after its ``kind`` (``<customer id="3">``):

- each property is a child element (a dict nests, a list repeats ``<item>``,
  None is ``nil="true"``; a name that is not an XML name becomes
  ``<property name="...">``);
- each link is ``<link rel="" href=""/>`` (plus ``title``, ``type``, and
  ``templated="true"`` for an RFC 6570 template);
- embedded resources sit in ``<embedded rel="customers">`` as child resources;
- each action is ``<action name method href title type>`` with one
  ``<field name type required [value]>`` per input.

Problem documents (RFC 9457) use the ``urn:ietf:rfc:7807`` namespace.
"""

from __future__ import annotations

import re
from typing import Any
from xml.etree import ElementTree as ET

import orjson

from mock_server.representations.model import Action, Link, Resource

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
#: Characters XML 1.0 cannot carry at all, even escaped.
_NOT_XML_CHAR = re.compile("[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _text(value: object) -> str:
    return _NOT_XML_CHAR.sub("\ufffd", str(value))


def _child(parent: ET.Element, name: str) -> ET.Element:
    if _NAME.match(name) and not name.lower().startswith("xml"):
        return ET.SubElement(parent, name)
    return ET.SubElement(parent, "property", name=_text(name))


def _add_value(parent: ET.Element, name: str, value: Any) -> None:
    child = _child(parent, name)
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
        child.text = _text(value)


def _add_link(parent: ET.Element, link: Link) -> None:
    element = ET.SubElement(parent, "link", rel=_text(link.rel), href=_text(link.href))
    if link.templated:
        element.set("templated", "true")
    if link.title:
        element.set("title", _text(link.title))
    if link.type:
        element.set("type", _text(link.type))


def _field_value(value: Any) -> str:
    """A field's value as an attribute: scalars as text, structures as JSON."""
    if isinstance(value, (dict, list)):
        return _text(orjson.dumps(value).decode())
    if isinstance(value, bool):
        return "true" if value else "false"
    return _text(value)


def _add_action(parent: ET.Element, action: Action) -> None:
    element = ET.SubElement(
        parent,
        "action",
        name=_text(action.name),
        method=action.method,
        href=_text(action.href),
        title=_text(action.title),
        type=action.content_type,
    )
    for f in action.fields:
        field = ET.SubElement(
            element, "field", name=f.name, type=f.type, required="true" if f.required else "false"
        )
        if f.value is not None:
            field.set("value", _field_value(f.value))
        if f.prompt:
            field.set("title", _text(f.prompt))
        if f.options is not None:
            field.set("options", " ".join(_text(o) for o in f.options))


def _element(resource: Resource, parent: ET.Element | None = None) -> ET.Element:
    tag = resource.kind if _NAME.match(resource.kind) else "resource"
    element = ET.Element(tag) if parent is None else ET.SubElement(parent, tag)
    if resource.id is not None:
        element.set("id", str(resource.id))
    for key, value in resource.properties.items():
        _add_value(element, str(key), value)
    for link in resource.links:
        _add_link(element, link)
    for name, items in resource.embedded.items():
        group = ET.SubElement(element, "embedded", rel=_text(name))
        for item in items:
            _element(item, group)
    for action in resource.actions:
        _add_action(element, action)
    return element


def _serialize(element: ET.Element) -> bytes:
    return bytes(ET.tostring(element, encoding="utf-8", xml_declaration=True))


def to_xml(resource: Resource) -> bytes:
    """The XML document of ``resource`` (see the module docstring for the mapping)."""
    return _serialize(_element(resource))


def problem_to_xml(problem: dict[str, Any]) -> bytes:
    """An RFC 9457 problem document in its XML form (``urn:ietf:rfc:7807`` namespace)."""
    root = ET.Element("problem", xmlns="urn:ietf:rfc:7807")
    for key, value in problem.items():
        if value is not None:
            _add_value(root, key, value)
    return _serialize(root)
