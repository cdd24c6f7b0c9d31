"""JSON:API (``application/vnd.api+json``, version 1.1 link objects).

Mapping from the neutral model (decisions JSON:API leaves to the server):

- A *member* (a resource with an ``id``) is the primary ``data``: a resource
  object with ``type`` (the collection its ``self`` link lives in, e.g.
  ``customers``; the ``kind`` when there is no such link), ``id`` as a string,
  ``attributes`` (the properties but ``id``), ``relationships`` (one per link
  to a member of another collection: ``links.related`` and ``data`` linkage)
  and ``links``. The top-level ``links`` holds ``self`` only.
- A *page* (a resource that embeds others) has ``data`` as the array of the
  embedded members; its own properties (``count``, ``total``, ``limit``,
  ``offset``) go in the top-level ``meta``; its links are the top-level ``links``.
- Anything else (the entry point, a job) has no ``data``: ``meta`` holds its
  properties and ``links`` its links.
- Links: every link of the model is a link object ``{"href", "rel", "title"}``
  under a member named after its relation without a curie prefix
  (``rw:customers`` -> ``customers``; a repeated name gets ``-2``, ``-3``...);
  ``rel`` keeps the exact relation, so no link is lost. A templated link says
  so in ``meta.templated``.
- Actions (which JSON:API has no notion of) are listed in ``meta.actions`` of
  the resource object (or of the document), each with name, title, method,
  href, type and fields.
"""

from __future__ import annotations

import re
from typing import Any

from mock_server.representations.model import Action, Link, Resource

JSON_API = "application/vnd.api+json"

#: Attribute names JSON:API reserves for the resource object itself.
_RESERVED = frozenset({"id", "type", "links", "relationships"})
_MEMBER_PATH = re.compile(r"^(?:/v\d+)?/([A-Za-z][\w-]*)/(\d+)$")
_NOT_MEMBER_CHAR = re.compile(r"[^A-Za-z0-9_-]")


def _member_of(href: str) -> tuple[str, str] | None:
    """``/v2/customers/3?version=2`` -> ``("customers", "3")``; None for other targets."""
    match = _MEMBER_PATH.match(href.split("?", 1)[0])
    return (match.group(1), match.group(2)) if match else None


def _member_name(rel: str) -> str:
    name = rel.rsplit(":", 1)[-1]
    return _NOT_MEMBER_CHAR.sub("_", name) or "link"


def _links(links: list[Link]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for link in links:
        base = _member_name(link.rel)
        name, n = base, 1
        while name in out:
            n += 1
            name = f"{base}-{n}"
        obj: dict[str, Any] = {"href": link.href, "rel": link.rel}
        if link.title:
            obj["title"] = link.title
        if link.type:
            obj["type"] = link.type
        if link.templated:
            obj["meta"] = {"templated": True}
        out[name] = obj
    return out


def _action(action: Action) -> dict[str, Any]:
    return {
        "name": action.name,
        "title": action.title,
        "method": action.method,
        "href": action.href,
        "type": action.content_type,
        "fields": [
            {
                "name": f.name,
                "type": f.type,
                "required": f.required,
                **({"value": f.value} if f.value is not None else {}),
                **({"title": f.prompt} if f.prompt else {}),
                **({"options": list(f.options)} if f.options is not None else {}),
            }
            for f in action.fields
        ],
    }


def _type_of(resource: Resource) -> str:
    self_link = resource.link("self")
    found = _member_of(self_link.href) if self_link else None
    return found[0] if found else resource.kind


def _relationships(resource: Resource) -> dict[str, Any]:
    self_link = resource.link("self")
    own = _member_of(self_link.href) if self_link else None
    grouped: dict[str, list[tuple[Link, tuple[str, str]]]] = {}
    for link in resource.links:
        target = _member_of(link.href)
        if link.rel == "self" or target is None or target == own or link.templated:
            continue
        grouped.setdefault(_member_name(link.rel), []).append((link, target))
    relationships: dict[str, Any] = {}
    for name, found in grouped.items():
        linkage = [{"type": kind, "id": ident} for _, (kind, ident) in found]
        if len(found) == 1:
            relationships[name] = {"links": {"related": found[0][0].href}, "data": linkage[0]}
        else:
            relationships[name] = {"data": linkage}
    return relationships


def _resource_object(resource: Resource, included: list[dict[str, Any]]) -> dict[str, Any]:
    attributes = {k: v for k, v in resource.properties.items() if k not in _RESERVED}
    relationships = _relationships(resource)
    for name, items in resource.embedded.items():
        linkage = []
        for item in items:
            if item.id is None:
                attributes.setdefault(name, []).append(dict(item.properties))
                continue
            member = _resource_object(item, included)
            included.append(member)
            linkage.append({"type": member["type"], "id": member["id"]})
        if linkage:
            relationships[_member_name(name)] = {"data": linkage}
    obj: dict[str, Any] = {
        "type": _type_of(resource),
        "id": str(resource.id),
        "attributes": attributes,
    }
    if relationships:
        obj["relationships"] = relationships
    obj["links"] = _links(resource.links)
    if resource.actions:
        obj["meta"] = {"actions": [_action(a) for a in resource.actions]}
    return obj


def to_jsonapi(resource: Resource) -> dict[str, Any]:
    """The JSON:API document of ``resource`` (see the module docstring for the mapping)."""
    doc: dict[str, Any] = {"jsonapi": {"version": "1.1"}}
    included: list[dict[str, Any]] = []
    if resource.id is not None:
        doc["data"] = _resource_object(resource, included)
        self_link = resource.link("self")
        if self_link is not None:
            doc["links"] = {"self": {"href": self_link.href, "rel": "self"}}
    else:
        meta: dict[str, Any] = dict(resource.properties)
        if resource.embedded:
            items = [item for group in resource.embedded.values() for item in group]
            doc["data"] = [
                _item_object(item, position, included) for position, item in enumerate(items)
            ]
        if resource.actions:
            meta["actions"] = [_action(a) for a in resource.actions]
        if meta:
            doc["meta"] = meta
        doc["links"] = _links(resource.links)
    if included:
        doc["included"] = included
    return doc


def _item_object(item: Resource, position: int, included: list[dict[str, Any]]) -> dict[str, Any]:
    if item.id is not None:
        return _resource_object(item, included)
    # An embedded thing without identity still needs one in JSON:API: its position.
    return {
        "type": item.kind,
        "id": str(position),
        "attributes": dict(item.properties),
        "links": _links(item.links),
    }
