"""An XML request body read as the value its schema describes, so it is validated too.

OpenAPI describes an XML body with the same schema as JSON, plus ``xml`` hints
(``name``, ``wrapped``, ``attribute``). This walks the element tree beside the
schema: an object's properties are child elements (or attributes) by name, an
array is its repeated elements (inside a wrapper when ``wrapped``), a scalar is the
element's text read as the schema's type. The XML is parsed with defusedxml
(no entity expansion, no external DTD).
"""

from __future__ import annotations

from typing import Any
from xml.etree.ElementTree import Element

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from mock_server.contract.params import item_schema, scalar, types_of
from mock_server.contract.schemas import referred


class XmlBodyError(ValueError):
    """The body is not well-formed XML (or declares entities); the message says where."""


def _resolve(schema: Any, defs: dict[str, Any]) -> dict[str, Any]:
    found = referred(schema, defs)
    if isinstance(found.get("allOf"), list):
        merged: dict[str, Any] = {"properties": {}}
        for part in found["allOf"]:
            resolved = _resolve(part, defs)
            merged["properties"].update(resolved.get("properties", {}))
            merged.setdefault("type", resolved.get("type"))
        return {**found, **merged}
    return found


def _hint(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema's ``xml`` object (empty when it has none)."""
    hint = schema.get("xml")
    return hint if isinstance(hint, dict) else {}


def _name(schema: dict[str, Any], default: str) -> str:
    name = _hint(schema).get("name")
    return name if isinstance(name, str) else default


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _value(element: Element, schema: Any, defs: dict[str, Any]) -> Any:
    resolved = _resolve(schema, defs)
    kinds = types_of({**resolved, "$defs": defs}) if resolved else []
    text = (element.text or "").strip()
    if "object" in kinds or "properties" in resolved:
        if text and len(element) == 0 and not element.attrib:
            return scalar(text, None)  # text where an object belongs: the validator says so
        found: dict[str, Any] = {}
        for name, inner in (resolved.get("properties") or {}).items():
            inner_resolved = _resolve(inner, defs)
            tag = _name(inner_resolved, name)
            if _hint(inner_resolved).get("attribute"):
                if tag in element.attrib:
                    found[name] = scalar(element.attrib[tag], {**inner_resolved, "$defs": defs})
                continue
            if "array" in types_of({**inner_resolved, "$defs": defs}):
                found_items = _array(element, tag, inner_resolved, defs)
                if found_items is not None:
                    found[name] = found_items
                continue
            child = next((c for c in element if _local(c.tag) == tag), None)
            if child is not None:
                found[name] = _value(child, inner, defs)
        known = {_name(_resolve(i, defs), n) for n, i in (resolved.get("properties") or {}).items()}
        for child in element:
            if _local(child.tag) not in known:
                found[_local(child.tag)] = child.text or ""
        return found
    if "array" in kinds:
        items = _array(element, _local(element.tag), resolved, defs, wrapper=element)
        return items if items is not None else []
    return scalar(text, {**resolved, "$defs": defs})


def _array(
    parent: Element,
    tag: str,
    schema: dict[str, Any],
    defs: dict[str, Any],
    wrapper: Element | None = None,
) -> list[Any] | None:
    items = item_schema({**schema, "$defs": defs})
    item_tag = _name(_resolve(items, defs), tag)
    if wrapper is None and _hint(schema).get("wrapped"):
        wrapper = next((c for c in parent if _local(c.tag) == tag), None)
        if wrapper is None:
            return None
    source = wrapper if wrapper is not None else parent
    children = [c for c in source if _local(c.tag) == item_tag]
    if wrapper is None and not children:
        return None
    return [_value(child, items, defs) for child in children]


def read_xml(body: bytes, schema: dict[str, Any] | None) -> Any:
    """The value of an XML ``body`` as ``schema`` describes it; XmlBodyError if not XML."""
    try:
        root = ElementTree.fromstring(body)
    except DefusedXmlException as error:
        raise XmlBodyError(f"the XML is refused: {error}") from None
    except ElementTree.ParseError as error:
        raise XmlBodyError(f"not well-formed XML: {error}") from None
    return _value(root, schema or {}, (schema or {}).get("$defs", {}))
