"""HAL (``application/hal+json``) with HAL-FORMS ``_templates`` for actions."""

from __future__ import annotations

from typing import Any

import orjson

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


def to_hal(resource: Resource, *, top: bool = True, encoded: bool = False) -> dict[str, Any]:
    """The HAL document of ``resource``; HAL-FORMS templates for its actions.

    An embedded resource (``top=False``) is rendered once and kept in
    ``resource.rendered``: the document must not be changed afterwards.
    With ``encoded``, the embedded documents are their JSON already encoded
    (``orjson.Fragment``), for ``orjson.dumps``: a member embedded in many
    pages is encoded once.
    """
    if not top:
        return _embedded(resource).document
    embedded = {
        name: [_embedded(item) for item in items] for name, items in resource.embedded.items()
    }
    # Curies are declared once, at the top, for every rw: relation in the document.
    curies = any(link.rel.startswith("rw:") for link in resource.links) or any(
        kept.curies for items in embedded.values() for kept in items
    )
    documents = {
        name: [kept.fragment() if encoded else kept.document for kept in items]
        for name, items in embedded.items()
    }
    return _document(resource, documents, curies)


class _Rendered:
    """What HAL made of an embedded resource: its document, its use of rw:, its JSON."""

    __slots__ = ("curies", "document", "encoded")

    def __init__(self, document: dict[str, Any], curies: bool) -> None:
        self.document = document
        self.curies = curies
        self.encoded: orjson.Fragment | None = None

    def fragment(self) -> orjson.Fragment:
        """The document as JSON, encoded the first time it is asked for."""
        if self.encoded is None:
            self.encoded = orjson.Fragment(orjson.dumps(self.document))
        return self.encoded


def _embedded(resource: Resource) -> _Rendered:
    """The document of an embedded resource, and whether it (or what it embeds) uses rw:.

    Made once per resource: a member reused by many pages is rendered once.
    """
    kept: _Rendered | None = resource.rendered.get(HAL_JSON)
    if kept is None:
        inner = {
            name: [to_hal(item, top=False) for item in items]
            for name, items in resource.embedded.items()
        }
        kept = resource.rendered[HAL_JSON] = _Rendered(
            _document(resource, inner, curies=False), _uses_curie(resource)
        )
    return kept


def _document(resource: Resource, embedded: dict[str, list[Any]], curies: bool) -> dict[str, Any]:
    doc: dict[str, Any] = dict(resource.properties)
    doc["_links"] = _links(resource.links, with_curies=curies)
    if embedded:
        doc["_embedded"] = embedded
    if resource.actions:
        doc["_templates"] = {action.name: _template(action) for action in resource.actions}
    return doc
