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

Properties are written as :mod:`mock_server.http.xml_values` writes any JSON value,
the mapping problem documents (``application/problem+xml``) use too.
"""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree as ET

import orjson

from mock_server.http.xml_values import XML_NAME, add_value, serialize, xml_text
from mock_server.representations.model import Action, Link, Resource


def _add_link(parent: ET.Element, link: Link) -> None:
    element = ET.SubElement(parent, "link", rel=xml_text(link.rel), href=xml_text(link.href))
    if link.templated:
        element.set("templated", "true")
    if link.title:
        element.set("title", xml_text(link.title))
    if link.type:
        element.set("type", xml_text(link.type))


def _field_value(value: Any) -> str:
    """A field's value as an attribute: scalars as text, structures as JSON."""
    if isinstance(value, (dict, list)):
        return xml_text(orjson.dumps(value).decode())
    if isinstance(value, bool):
        return "true" if value else "false"
    return xml_text(value)


def _add_action(parent: ET.Element, action: Action) -> None:
    element = ET.SubElement(
        parent,
        "action",
        name=xml_text(action.name),
        method=action.method,
        href=xml_text(action.href),
        title=xml_text(action.title),
        type=action.content_type,
    )
    for f in action.fields:
        field = ET.SubElement(
            element, "field", name=f.name, type=f.type, required="true" if f.required else "false"
        )
        if f.value is not None:
            field.set("value", _field_value(f.value))
        if f.prompt:
            field.set("title", xml_text(f.prompt))
        if f.options is not None:
            field.set("options", " ".join(xml_text(o) for o in f.options))


def _element(resource: Resource, parent: ET.Element | None = None) -> ET.Element:
    tag = resource.kind if XML_NAME.match(resource.kind) else "resource"
    element = ET.Element(tag) if parent is None else ET.SubElement(parent, tag)
    if resource.id is not None:
        element.set("id", str(resource.id))
    for key, value in resource.properties.items():
        add_value(element, str(key), value)
    for link in resource.links:
        _add_link(element, link)
    for name, items in resource.embedded.items():
        group = ET.SubElement(element, "embedded", rel=xml_text(name))
        for item in items:
            _element(item, group)
    for action in resource.actions:
        _add_action(element, action)
    return element


def to_xml(resource: Resource) -> bytes:
    """The XML document of ``resource`` (see the module docstring for the mapping)."""
    return serialize(_element(resource))
