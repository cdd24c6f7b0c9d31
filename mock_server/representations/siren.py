"""Siren (``application/vnd.siren+json``): entities with links, sub-entities and actions.

Mapping from the neutral model:

- ``kind`` is the entity's ``class``; properties are ``properties``.
- Every link is a Siren link with ``rel`` as an array of one relation. Siren
  links have no template flag, so a templated link carries the class
  ``templated`` (its ``href`` is the RFC 6570 template, as in HAL).
- Embedded resources are *embedded representations* in ``entities``; the
  sub-entity's ``rel`` is ``["item", <embedded name>]``.
- Actions are Siren actions; their fields keep name, type, value and title.
"""

from __future__ import annotations

from typing import Any

from mock_server.representations.model import Action, Link, Resource

SIREN_JSON = "application/vnd.siren+json"

#: The link class that flags an RFC 6570 template.
TEMPLATED_CLASS = "templated"


def _link(link: Link) -> dict[str, Any]:
    obj: dict[str, Any] = {"rel": [link.rel], "href": link.href}
    if link.templated:
        obj["class"] = [TEMPLATED_CLASS]
    if link.title:
        obj["title"] = link.title
    if link.type:
        obj["type"] = link.type
    return obj


def _action(action: Action) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": action.name,
        "title": action.title,
        "method": action.method,
        "href": action.href,
        "type": action.content_type,
    }
    fields: list[dict[str, Any]] = []
    for f in action.fields:
        field: dict[str, Any] = {"name": f.name, "type": f.type}
        if f.value is not None:
            field["value"] = f.value
        if f.prompt:
            field["title"] = f.prompt
        if f.required:
            field["required"] = True
        if f.options is not None:
            field["options"] = list(f.options)
        fields.append(field)
    doc["fields"] = fields
    return doc


def to_siren(resource: Resource, rel: list[str] | None = None) -> dict[str, Any]:
    """The Siren entity of ``resource``; ``rel`` makes it a sub-entity."""
    doc: dict[str, Any] = {"class": [resource.kind]}
    if rel is not None:
        doc["rel"] = rel
    doc["properties"] = dict(resource.properties)
    entities = [
        to_siren(item, rel=["item", name])
        for name, items in resource.embedded.items()
        for item in items
    ]
    if entities:
        doc["entities"] = entities
    if resource.actions:
        doc["actions"] = [_action(action) for action in resource.actions]
    doc["links"] = [_link(link) for link in resource.links]
    return doc
