"""JSON:API (https://jsonapi.org, 1.0 and 1.1) links.

``links`` objects appear at the top level, in resource objects (of ``data``
and ``included``), in relationships and in errors. Each member is a link: a
string, a link object (``href``, ``rel``, ``title``, ``type``, ``hreflang``,
``describedby``, ``meta``) or null (no link). A member's name is its relation
(a link object's own ``rel`` wins, as JSON:API 1.1 allows).

Relationships: ``relationships.author.links.related`` is the author itself, so
its relation is the relationship's name (``author``); every other member keeps
its own name (``self`` is the relationship, not the resource). Both carry the
relationship's name in ``Link.name``.
"""

from __future__ import annotations

from explorer.core.hypermedia.collector import Collector, child
from explorer.core.link import Link


def looks_like_jsonapi(doc: object) -> bool:
    """True when ``doc`` has JSON:API's shape: ``jsonapi``, or ``data``/``errors`` with ``type``."""
    if not isinstance(doc, dict):
        return False
    if isinstance(doc.get("jsonapi"), dict):
        return True
    data = doc.get("data", doc.get("errors"))
    first = data[0] if isinstance(data, list) and data else data
    return isinstance(first, dict) and ("type" in first or "status" in first or "links" in first)


def add_jsonapi_links(doc: object, collector: Collector) -> None:
    """Add the links of a JSON:API document, in document order."""
    if not isinstance(doc, dict):
        return
    for key, value in doc.items():
        pointer = child("", key)
        if key == "links":
            _links(value, pointer, collector)
        elif key in ("data", "included"):
            items = value if isinstance(value, list) else [value]
            is_list = isinstance(value, list)
            for index, resource in enumerate(items):
                if isinstance(resource, dict):
                    _resource(resource, f"{pointer}/{index}" if is_list else pointer, collector)
        elif key == "errors" and isinstance(value, list):
            for index, error in enumerate(value):
                if isinstance(error, dict):
                    _links(error.get("links"), f"{pointer}/{index}/links", collector)


def _resource(resource: dict[str, object], pointer: str, collector: Collector) -> None:
    for key, value in resource.items():
        if key == "links":
            _links(value, f"{pointer}/links", collector)
        elif key == "relationships" and isinstance(value, dict):
            for name, relationship in value.items():
                if isinstance(relationship, dict):
                    here = child(f"{pointer}/relationships", name)
                    _links(relationship.get("links"), f"{here}/links", collector, name)


def _links(links: object, pointer: str, c: Collector, relationship: str | None = None) -> None:
    if not isinstance(links, dict):
        return
    for member, value in links.items():
        source = child(pointer, member)
        rel = relationship if relationship is not None and member == "related" else member
        if isinstance(value, str):
            if value:
                c.add(
                    Link(rel=rel, href=c.resolver.resolve(value), source=source, name=relationship)
                )
            continue
        if not isinstance(value, dict) or not isinstance(value.get("href"), str):
            continue
        own_rel = value.get("rel")
        title = value.get("title")
        media_type = value.get("type")
        hreflang = value.get("hreflang")
        if isinstance(hreflang, list):
            hreflang = ",".join(h for h in hreflang if isinstance(h, str))
        attributes: tuple[tuple[str, str], ...] = ()
        described_by = value.get("describedby")
        if isinstance(described_by, dict):
            described_by = described_by.get("href")
        if isinstance(described_by, str):
            attributes = (("describedby", c.resolver.resolve(described_by)),)
        c.add(
            Link(
                rel=own_rel if isinstance(own_rel, str) and own_rel else rel,
                href=c.resolver.resolve(value["href"]),
                title=title if isinstance(title, str) else None,
                media_type=media_type if isinstance(media_type, str) else None,
                source=source,
                name=relationship,
                hreflang=hreflang if isinstance(hreflang, str) and hreflang else None,
                attributes=attributes,
            )
        )
