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

JSON:API has no templates and no actions; two common extensions (and our
mock's) are read: ``"meta": {"templated": true}`` on a link object marks an
RFC 6570 template, and ``meta.actions`` (of the document or of a resource
object) lists actions as ``{name, title, method, href, type, fields}``, each
field ``{name, type, required, value, title, options}``.
"""

from __future__ import annotations

from explorer.core.hypermedia.collector import Collector, child, form_value, is_template, text
from explorer.core.hypermedia.link import FormField, Link


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
        elif key == "meta":
            _actions(value, pointer, collector)
        elif key == "errors" and isinstance(value, list):
            for index, error in enumerate(value):
                if isinstance(error, dict):
                    _links(error.get("links"), f"{pointer}/{index}/links", collector)


def _resource(resource: dict[str, object], pointer: str, collector: Collector) -> None:
    for key, value in resource.items():
        if key == "links":
            _links(value, f"{pointer}/links", collector)
        elif key == "meta":
            _actions(value, f"{pointer}/meta", collector)
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
        meta = value.get("meta")
        templated = isinstance(meta, dict) and meta.get("templated") is True
        c.add(
            Link(
                rel=own_rel if isinstance(own_rel, str) and own_rel else rel,
                href=c.resolver.resolve(value["href"], templated),
                templated=templated,
                title=title if isinstance(title, str) else None,
                media_type=media_type if isinstance(media_type, str) else None,
                source=source,
                name=relationship,
                hreflang=hreflang if isinstance(hreflang, str) and hreflang else None,
                attributes=attributes,
            )
        )


def _actions(meta: object, pointer: str, c: Collector) -> None:
    """Actions listed in ``meta.actions`` (an extension; JSON:API itself has none)."""
    if not isinstance(meta, dict) or not isinstance(meta.get("actions"), list):
        return
    for index, action in enumerate(meta["actions"]):
        if not isinstance(action, dict) or not text(action.get("href")):
            continue
        href = action["href"]
        templated = is_template(href)
        method = text(action.get("method")) or "GET"
        c.add(
            Link(
                rel=text(action.get("name")) or "action",
                href=c.resolver.resolve(href, templated),
                method=method.upper(),
                title=text(action.get("title")),
                templated=templated,
                source=f"{pointer}/actions/{index}",
                fields=_fields(action.get("fields")),
                content_type=text(action.get("type")) or "application/vnd.api+json",
                name=text(action.get("name")),
            )
        )


def _fields(value: object) -> tuple[FormField, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(
        FormField(
            name=field["name"],
            type=text(field.get("type")) or "text",
            required=field.get("required") is True,
            value=form_value(field.get("value")),
            prompt=text(field.get("title")),
            options=tuple(
                str(option)
                for option in (field.get("options") or [])
                if isinstance(option, (str, int, float))
            )
            if isinstance(field.get("options"), list)
            else (),
        )
        for field in value
        if isinstance(field, dict) and isinstance(field.get("name"), str)
    )
