"""HAL (``application/hal+json``) with HAL-FORMS ``_templates`` for actions."""

from __future__ import annotations

from typing import Any

from mock_server.representations.model import Action, Link, Resource

HAL_JSON = "application/hal+json"

#: Where the curie ``rw:`` points: the mock's own relation docs.
CURIES = [{"name": "rw", "href": "/docs/rels/{rel}", "templated": True}]


def _link_object(link: Link) -> dict[str, Any]:
    obj: dict[str, Any] = {"href": link.href}
    if link.templated:
        obj["templated"] = True
    if link.title:
        obj["title"] = link.title
    if link.type:
        obj["type"] = link.type
    if link.name:
        obj["name"] = link.name
    return obj


def _uses_curie(resource: Resource) -> bool:
    """True when ``resource`` or anything it embeds has an ``rw:`` relation."""
    return any(link.rel.startswith("rw:") for link in resource.links) or any(
        _uses_curie(item) for items in resource.embedded.values() for item in items
    )


def _links(links: list[Link], with_curies: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for link in links:
        obj = _link_object(link)
        if link.rel in out:
            existing = out[link.rel]
            out[link.rel] = [*existing, obj] if isinstance(existing, list) else [existing, obj]
        else:
            # A relation that may repeat is an array even with one link (HAL §4.1.1:
            # changing the shape later breaks clients).
            out[link.rel] = [obj] if link.many else obj
    if with_curies:
        out["curies"] = CURIES
    return out


def _template(action: Action) -> dict[str, Any]:
    template: dict[str, Any] = {
        "title": action.title,
        "method": action.method,
        "target": action.href,
        "contentType": action.content_type,
        "properties": [],
    }
    for f in action.fields:
        prop: dict[str, Any] = {"name": f.name, "type": f.type, "required": f.required}
        if f.prompt:
            prop["prompt"] = f.prompt
        if f.value is not None:
            prop["value"] = f.value
        if f.options is not None:
            prop["options"] = {"inline": list(f.options)}
        template["properties"].append(prop)
    return template


def to_hal(resource: Resource, *, top: bool = True) -> dict[str, Any]:
    """The HAL document of ``resource``; HAL-FORMS templates for its actions.

    An embedded resource (``top=False``) is rendered once and kept in
    ``resource.rendered``: the document must not be changed afterwards.
    """
    if not top:
        return _embedded(resource)[0]
    embedded = {
        name: [_embedded(item) for item in items] for name, items in resource.embedded.items()
    }
    # Curies are declared once, at the top, for every rw: relation in the document.
    curies = any(link.rel.startswith("rw:") for link in resource.links) or any(
        uses for items in embedded.values() for _, uses in items
    )
    return _document(
        resource, {name: [doc for doc, _ in items] for name, items in embedded.items()}, curies
    )


def _embedded(resource: Resource) -> tuple[dict[str, Any], bool]:
    """The document of an embedded resource, and whether it (or what it embeds) uses rw:.

    Made once per resource: a member reused by many pages is rendered once.
    """
    kept: tuple[dict[str, Any], bool] | None = resource.rendered.get(HAL_JSON)
    if kept is None:
        inner = {
            name: [to_hal(item, top=False) for item in items]
            for name, items in resource.embedded.items()
        }
        kept = resource.rendered[HAL_JSON] = (
            _document(resource, inner, curies=False),
            _uses_curie(resource),
        )
    return kept


def _document(
    resource: Resource, embedded: dict[str, list[dict[str, Any]]], curies: bool
) -> dict[str, Any]:
    doc: dict[str, Any] = dict(resource.properties)
    doc["_links"] = _links(resource.links, with_curies=curies)
    if embedded:
        doc["_embedded"] = embedded
    if resource.actions:
        doc["_templates"] = {action.name: _template(action) for action in resource.actions}
    return doc
