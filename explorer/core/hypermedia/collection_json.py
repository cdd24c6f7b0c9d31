"""Collection+JSON (http://amundsen.com/media-types/collection/format/).

* ``collection.href`` is the collection itself: relation ``self``.
* ``collection.links[]`` and ``items[].links[]``: ``rel``, ``href``, ``name``,
  ``prompt`` (the title); ``render`` is kept in ``Link.attributes``.
* ``items[].href``: each item, relation ``item``.
* ``queries[]``: GET links whose ``data`` entries are form fields (query
  parameters).
* ``template``: the create action, relation ``create`` and name ``template``:
  POST to the collection's href with ``application/vnd.collection+json``.
"""

from __future__ import annotations

from explorer.core.hypermedia.collector import Collector, form_value, text
from explorer.core.hypermedia.link import FormField, Link

MEDIA_TYPE = "application/vnd.collection+json"


def looks_like_collection_json(doc: object) -> bool:
    """True when ``doc`` is ``{"collection": {...}}`` with one of C+J's members."""
    if not isinstance(doc, dict) or not isinstance(doc.get("collection"), dict):
        return False
    collection = doc["collection"]
    return any(key in collection for key in ("version", "href", "items", "queries", "template"))


def add_collection_json_links(doc: object, collector: Collector) -> None:
    """Add the collection's, items', queries' and template's links."""
    if not isinstance(doc, dict) or not isinstance(doc.get("collection"), dict):
        return
    collection = doc["collection"]
    c = collector
    collection_href = text(collection.get("href"))
    for key, value in collection.items():
        here = f"/collection/{key}"
        if key == "href" and collection_href:
            c.add(Link(rel="self", href=c.resolver.resolve(collection_href), source=here))
        elif key == "links":
            _links(value, here, c)
        elif key == "items" and isinstance(value, list):
            for index, item in enumerate(value):
                if not isinstance(item, dict):
                    continue
                item_href = text(item.get("href"))
                if item_href:
                    source = f"{here}/{index}/href"
                    c.add(Link(rel="item", href=c.resolver.resolve(item_href), source=source))
                _links(item.get("links"), f"{here}/{index}/links", c)
        elif key == "queries" and isinstance(value, list):
            for index, query in enumerate(value):
                if isinstance(query, dict):
                    _query(query, f"{here}/{index}", c)
        elif key == "template" and isinstance(value, dict):
            c.add(
                Link(
                    rel="create",
                    href=c.resolver.resolve(collection_href)
                    if collection_href
                    else c.resolver.base,
                    method="POST",
                    source=here,
                    fields=_data(value.get("data")),
                    content_type=MEDIA_TYPE,
                    name="template",
                )
            )


def _links(value: object, pointer: str, c: Collector) -> None:
    if not isinstance(value, list):
        return
    for index, link in enumerate(value):
        if not isinstance(link, dict) or not text(link.get("href")):
            continue
        render = link.get("render")
        c.add(
            Link(
                rel=text(link.get("rel")) or "related",
                href=c.resolver.resolve(link["href"]),
                title=text(link.get("prompt")),
                source=f"{pointer}/{index}",
                name=text(link.get("name")),
                attributes=(("render", render),) if isinstance(render, str) else (),
            )
        )


def _query(query: dict[str, object], source: str, c: Collector) -> None:
    href = text(query.get("href"))
    if not href:
        return
    c.add(
        Link(
            rel=text(query.get("rel")) or "search",
            href=c.resolver.resolve(href),
            title=text(query.get("prompt")),
            source=source,
            fields=_data(query.get("data")),
            name=text(query.get("name")),
        )
    )


def _data(value: object) -> tuple[FormField, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(
        FormField(
            name=entry["name"],
            value=form_value(entry.get("value")),
            prompt=text(entry.get("prompt")),
        )
        for entry in value
        if isinstance(entry, dict) and isinstance(entry.get("name"), str)
    )
