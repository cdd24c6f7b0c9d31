"""Reading links and actions back out of each representation, for comparing them.

Each ``*_links`` function returns the set of ``(rel, href)`` pairs of a
document's top-level resource plus those of its embedded resources (marked
with the embedding's path), so tests can assert every representation carries
the same links.
"""

from __future__ import annotations

from typing import Any

from defusedxml import ElementTree

Pair = tuple[str, str]
ActionKey = tuple[str, str, str]


def hal_links(doc: dict[str, Any]) -> set[Pair]:
    """Links of a HAL document and of its embedded resources."""
    pairs: set[Pair] = set()
    for rel, value in doc.get("_links", {}).items():
        if rel == "curies":
            continue
        for obj in value if isinstance(value, list) else [value]:
            pairs.add((rel, obj["href"]))
    for items in doc.get("_embedded", {}).values():
        for item in items:
            pairs |= hal_links(item)
    return pairs


def hal_actions(doc: dict[str, Any]) -> set[ActionKey]:
    """(name, method, target) of each HAL-FORMS template."""
    return {(name, t["method"], t["target"]) for name, t in doc.get("_templates", {}).items()}


def siren_links(doc: dict[str, Any]) -> set[Pair]:
    """Links of a Siren entity and of its sub-entities."""
    pairs: set[Pair] = set()
    for link in doc.get("links", []):
        for rel in link["rel"]:
            pairs.add((rel, link["href"]))
    for entity in doc.get("entities", []):
        pairs |= siren_links(entity)
    return pairs


def siren_actions(doc: dict[str, Any]) -> set[ActionKey]:
    """(name, method, href) of each Siren action."""
    return {(a["name"], a["method"], a["href"]) for a in doc.get("actions", [])}


def _jsonapi_object_links(obj: dict[str, Any]) -> set[Pair]:
    return {(link["rel"], link["href"]) for link in obj.get("links", {}).values()}


def jsonapi_links(doc: dict[str, Any]) -> set[Pair]:
    """Links of a JSON:API document: the primary data's (or the document's) and the items'."""
    data = doc.get("data")
    if isinstance(data, dict):
        pairs = _jsonapi_object_links(data)
    else:
        pairs = _jsonapi_object_links(doc)
        for item in data or []:
            pairs |= _jsonapi_object_links(item)
    for item in doc.get("included", []):
        pairs |= _jsonapi_object_links(item)
    return pairs


def jsonapi_actions(doc: dict[str, Any]) -> set[ActionKey]:
    """(name, method, href) of each action in ``meta.actions``."""
    data = doc.get("data")
    meta = data.get("meta", {}) if isinstance(data, dict) else doc.get("meta", {})
    return {(a["name"], a["method"], a["href"]) for a in meta.get("actions", [])}


def _xml_links(element: Any) -> set[Pair]:
    pairs = {(link.get("rel"), link.get("href")) for link in element.findall("link")}
    for group in element.findall("embedded"):
        for item in group:
            pairs |= _xml_links(item)
    return pairs


def xml_links(content: bytes) -> set[Pair]:
    """Links of an XML document: ``<link>`` children, and those of embedded resources."""
    return _xml_links(ElementTree.fromstring(content))


def xml_actions(content: bytes) -> set[ActionKey]:
    """(name, method, href) of each ``<action>`` of the top element."""
    root = ElementTree.fromstring(content)
    return {(a.get("name"), a.get("method"), a.get("href")) for a in root.findall("action")}
