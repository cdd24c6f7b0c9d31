"""XML bodies as their schema describes them: a request's read as a value (so it is
validated too), an answer's value written as XML.

OpenAPI describes an XML body with the same schema as JSON, plus ``xml`` hints
(``name``, ``wrapped``, ``attribute``). Reading walks the element tree beside the
schema: an object's properties are child elements (or attributes) by name, an
array is its repeated elements (inside a wrapper when ``wrapped``), a scalar is the
element's text read as the schema's type. The XML is parsed with defusedxml
(no entity expansion, no external DTD). Writing follows the same names, so what the
mock answers reads back as the same value (a pet GET as XML can be PUT back as it
came); namespaces and prefixes are left out, as reading ignores them.
"""

from __future__ import annotations

from typing import Any
from xml.etree.ElementTree import Element
from xml.sax.saxutils import escape, quoteattr

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
        known: set[str] = set()  # the child elements the properties take
        for name, inner in (resolved.get("properties") or {}).items():
            inner_resolved = _resolve(inner, defs)
            tag = _name(inner_resolved, name)
            known.add(tag)
            if _hint(inner_resolved).get("attribute"):
                if tag in element.attrib:
                    found[name] = scalar(element.attrib[tag], {**inner_resolved, "$defs": defs})
                continue
            if "array" in types_of({**inner_resolved, "$defs": defs}):
                if not _hint(inner_resolved).get("wrapped"):
                    known.add(_item_tag(tag, inner_resolved, defs))  # the items themselves
                found_items = _array(element, tag, inner_resolved, defs)
                if found_items is not None:
                    found[name] = found_items
                continue
            child = next((c for c in element if _local(c.tag) == tag), None)
            if child is not None:
                found[name] = _value(child, inner, defs)
        for child in element:
            if _local(child.tag) not in known:
                found[_local(child.tag)] = child.text or ""
        return found
    if "array" in kinds:
        inner = item_schema({**resolved, "$defs": defs})
        if inner is not None and "name" not in _hint(_resolve(inner, defs)):
            # Its items unnamed: every child element is one (write_xml names them item).
            return [_value(child, inner, defs) for child in element]
        items = _array(element, _local(element.tag), resolved, defs, wrapper=element)
        return items if items is not None else []
    return scalar(text, {**resolved, "$defs": defs})


def _item_tag(tag: str, schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """The element name of an array's items: their own ``xml.name``, else the array's."""
    items = item_schema({**schema, "$defs": defs})
    return _name(_resolve(items, defs), tag)


def _array(
    parent: Element,
    tag: str,
    schema: dict[str, Any],
    defs: dict[str, Any],
    wrapper: Element | None = None,
) -> list[Any] | None:
    items = item_schema({**schema, "$defs": defs})
    item_tag = _item_tag(tag, schema, defs)
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


_XML_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
#: The root element of an answer whose schema names none (and an array's items').
DEFAULT_ROOT = "response"
DEFAULT_ITEM = "item"


def xml_name(name: str) -> str:
    """``name`` as an XML element name: other characters as ``_``, a letter or ``_`` first."""
    cleaned = "".join(c if c.isalnum() or c in "_-." else "_" for c in name) or DEFAULT_ITEM
    return cleaned if cleaned[0] in _XML_NAME_START else f"_{cleaned}"


def _text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _element(tag: str, value: Any, schema: Any, defs: dict[str, Any]) -> str:
    resolved = _resolve(schema, defs) if isinstance(schema, dict) else {}
    name = xml_name(tag)
    if isinstance(value, dict):
        properties = resolved.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        attributes: list[str] = []
        children: list[str] = []
        for key, item in value.items():
            inner = properties.get(key)
            inner_resolved = _resolve(inner, defs) if isinstance(inner, dict) else {}
            child = _name(inner_resolved, key)
            if _hint(inner_resolved).get("attribute") and not isinstance(item, dict | list):
                attributes.append(f" {xml_name(child)}={quoteattr(_text(item))}")
            elif isinstance(item, list):
                inside = _items(child, item, inner_resolved, defs)
                wrapped = _hint(inner_resolved).get("wrapped")
                children.append(
                    f"<{xml_name(child)}>{inside}</{xml_name(child)}>" if wrapped else inside
                )
            else:
                children.append(_element(child, item, inner, defs))
        return f"<{name}{''.join(attributes)}>{''.join(children)}</{name}>"
    if isinstance(value, list):
        return f"<{name}>{_items(tag, value, resolved, defs)}</{name}>"
    if value is None:
        return f"<{name}/>"
    return f"<{name}>{escape(_text(value))}</{name}>"


def _items(tag: str, items: list[Any], schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """An array's items, each named as its schema says, else as the array (``tag``)."""
    inner = item_schema({**schema, "$defs": defs}) if schema else None
    item_tag = _name(_resolve(inner, defs), tag) if inner is not None else tag
    return "".join(_element(item_tag, item, inner, defs) for item in items)


def write_xml(value: Any, schema: dict[str, Any] | None) -> bytes:
    """``value`` as an XML document named as ``schema``'s ``xml`` hints say, which
    :func:`read_xml` reads back as ``value``; without names, the root is ``response``
    (an array's items ``item``)."""
    defs = (schema or {}).get("$defs", {})
    resolved = _resolve(schema, defs) if schema else {}
    root = _name(resolved, DEFAULT_ROOT)
    if isinstance(value, list):
        inner = item_schema({**resolved, "$defs": defs}) if resolved else None
        named = inner is not None and "name" in _hint(_resolve(inner, defs))
        tag = root if named or "name" in _hint(resolved) else DEFAULT_ITEM
        body = f"<{xml_name(root)}>{_items(tag, value, resolved, defs)}</{xml_name(root)}>"
    else:
        body = _element(root, value, schema, defs)
    return f'<?xml version="1.0" encoding="UTF-8"?>{body}'.encode()
